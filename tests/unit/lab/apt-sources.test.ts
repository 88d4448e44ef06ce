import { describe, expect, it } from 'vitest'
import { chooseMirror, codenameOf, parseAptSourcesFile, parseDeb822Sources, parseOneLineSources } from '../../../lab/apt-sources'

// the shape of Debian 12's default deb822 file, with placeholder mirrors
const DEB822 = `Types: deb
# a snapshot would go here
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`

describe('apt sources', () => {
  it('reads deb822 stanzas: every URI with its suites, components and keyring', () => {
    expect(parseDeb822Sources(DEB822, 'debian.sources')).toEqual([
      { uri: 'http://mirror.example/debian', suites: ['bookworm', 'bookworm-updates'], components: ['main'], signedBy: '/usr/share/keyrings/debian-archive-keyring.gpg', origin: 'debian.sources' },
      { uri: 'http://mirror.example/debian-security', suites: ['bookworm-security'], components: ['main'], signedBy: '/usr/share/keyrings/debian-archive-keyring.gpg', origin: 'debian.sources' }
    ])
  })

  it('skips deb-src, disabled stanzas and inline keys (not a keyring file)', () => {
    const text = `Types: deb-src\nURIs: http://a/debian\nSuites: bookworm\nComponents: main\n\nTypes: deb\nEnabled: no\nURIs: http://b/debian\nSuites: bookworm\nComponents: main\n\nTypes: deb\nURIs: http://c/debian\nSuites: bookworm\nComponents: main contrib\nSigned-By:\n -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n AAAA\n`
    expect(parseDeb822Sources(text, 'x.sources')).toEqual([{ uri: 'http://c/debian', suites: ['bookworm'], components: ['main', 'contrib'], origin: 'x.sources' }])
  })

  it('reads one-line entries with options, ignoring comments and deb-src', () => {
    const text = [
      '# deb http://commented/debian bookworm main',
      'deb-src http://src/debian bookworm main',
      'deb [arch=amd64 signed-by=/etc/apt/keyrings/k.gpg] http://one/debian bookworm main non-free-firmware # trailing',
      'deb http://two/debian bookworm-updates main',
      'deb [broken http://three/debian bookworm main'
    ].join('\n')
    expect(parseOneLineSources(text, 'sources.list')).toEqual([
      { uri: 'http://one/debian', suites: ['bookworm'], components: ['main', 'non-free-firmware'], signedBy: '/etc/apt/keyrings/k.gpg', origin: 'sources.list' },
      { uri: 'http://two/debian', suites: ['bookworm-updates'], components: ['main'], origin: 'sources.list' }
    ])
  })

  it('chooses by file name: .sources is deb822, anything else one-line', () => {
    expect(parseAptSourcesFile('/etc/apt/sources.list.d/debian.sources', DEB822)).toHaveLength(2)
    expect(parseAptSourcesFile('/etc/apt/sources.list', 'deb http://x/debian bookworm main')).toHaveLength(1)
  })

  it('picks the source carrying exactly the suite with main, never -updates or -security', () => {
    const sources = [
      ...parseOneLineSources('deb http://sec/debian-security bookworm-security main\ndeb http://other/debian bookworm contrib', 'a.list'),
      ...parseDeb822Sources(DEB822, 'debian.sources')
    ]
    expect(chooseMirror(sources, 'bookworm')).toEqual({
      uri: 'http://mirror.example/debian',
      suite: 'bookworm',
      keyring: '/usr/share/keyrings/debian-archive-keyring.gpg',
      origin: 'debian.sources'
    })
  })

  it('says what it found when no source fits', () => {
    const none = chooseMirror(parseOneLineSources('deb http://sec/debian-security bookworm-security main', 'a.list'), 'bookworm')
    expect(none).toEqual({ error: expect.stringContaining('apt has no source for the Debian suite "bookworm"') })
    expect((none as { error: string }).error).toContain('http://sec/debian-security bookworm-security (a.list)')
    expect((chooseMirror([], 'trixie') as { error: string }).error).toContain('no deb source was found at all')
  })

  it('reads the codename of os-release', () => {
    expect(codenameOf('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n')).toBe('bookworm')
    expect(codenameOf('ID=alpine\n')).toBeUndefined()
  })
})
