import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  candidatesFromConfig,
  expandHostName,
  expandIdentityFile,
  formatWarning,
  globFiles,
  hostLineMatches,
  importOrder,
  importSshConfig,
  keyHasPassphrase,
  listAliases,
  loadSshConfig,
  matchesPattern,
  parseProxyJump,
  parseSshConfigText,
  resolveOptions,
  splitArguments,
  type ConfigFile,
  type LocalIdentity,
  type SshConfigCandidate
} from '../../../../src/main/ssh/ssh-config'

const run = promisify(execFile)
const local: LocalIdentity = { homeDir: '/home/alice', localUser: 'alice', env: { KEYS: '/srv/keys' } }

function config(text: string, file = '/home/alice/.ssh/config'): ConfigFile {
  return { path: file, lines: parseSshConfigText(text, file).lines }
}

function lines(...text: string[]): string {
  return text.join('\n')
}

let dir: string

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-ssh-config-'))
})

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

describe('splitArguments', () => {
  it.each([
    ['a b\tc', ['a', 'b', 'c']],
    ['"with space" plain', ['with space', 'plain']],
    ["'single quoted' x", ['single quoted', 'x']],
    ['a"b c"d', ['ab cd']],
    ['escaped\\ space', ['escaped space']],
    ['"say \\"hi\\""', ['say "hi"']],
    ['back\\\\slash', ['back\\slash']],
    ['c:\\path\\n', ['c:\\path\\n']],
    ['value # comment', ['value']],
    ['value#not-a-comment', ['value#not-a-comment']],
    ['""', ['']],
    ['', []]
  ])('splits %j', (text, args) => {
    expect(splitArguments(text)).toEqual(args)
  })

  it('reports an unclosed quote', () => {
    expect(splitArguments('"open')).toEqual({ error: 'a " quote is not closed' })
  })

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const result = splitArguments(text)
        expect(Array.isArray(result) || typeof result.error === 'string').toBe(true)
      })
    )
  })
})

describe('parseSshConfigText', () => {
  it('reads keywords without regard to case, in "Key value", "Key=value" and "Key = value" forms', () => {
    const text = lines('# comment', '', 'HOSTNAME a', 'Port=22', '  User = bob  ', '\tIdentityFile\t"/k/x y"\r', 'proxyjump\t=b')
    expect(parseSshConfigText(text, 'f').lines).toEqual([
      { type: 'option', keyword: 'hostname', args: ['a'], file: 'f', line: 3 },
      { type: 'option', keyword: 'port', args: ['22'], file: 'f', line: 4 },
      { type: 'option', keyword: 'user', args: ['bob'], file: 'f', line: 5 },
      { type: 'option', keyword: 'identityfile', args: ['/k/x y'], file: 'f', line: 6 },
      { type: 'option', keyword: 'proxyjump', args: ['b'], file: 'f', line: 7 }
    ])
  })

  it('tells Host, Match and Include lines apart, warning about Match blocks other than "Match all"', () => {
    const parsed = parseSshConfigText(lines('Host a b*', 'Match host x exec "true"', 'Match all', 'Include conf.d/*'), 'f')
    expect(parsed.lines).toEqual([
      { type: 'host', patterns: ['a', 'b*'], file: 'f', line: 1 },
      { type: 'match', all: false, file: 'f', line: 2 },
      { type: 'match', all: true, file: 'f', line: 3 },
      { type: 'include', patterns: ['conf.d/*'], file: 'f', line: 4, files: [] }
    ])
    expect(parsed.warnings.map(formatWarning)).toEqual([
      'f:2: Match blocks are not evaluated by VirtBench; the settings under "Match host x exec true" are not imported'
    ])
  })

  it('warns about lines it cannot read, with file and line, and goes on', () => {
    const parsed = parseSshConfigText(lines('Host a', 'HostName', 'User "bob', 'Port 2'), '/x/config')
    expect(parsed.warnings.map(formatWarning)).toEqual([
      '/x/config:2: "hostname" has no value; the line is ignored',
      '/x/config:3: a " quote is not closed; the line is ignored'
    ])
    expect(parsed.lines.at(-1)).toMatchObject({ keyword: 'port', args: ['2'], line: 4 })
  })

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const parsed = parseSshConfigText(text, 'f')
        expect(Array.isArray(parsed.lines)).toBe(true)
        const candidates = candidatesFromConfig({ path: 'f', lines: parsed.lines }, local, [])
        expect(Array.isArray(candidates.candidates)).toBe(true)
      })
    )
  })
})

describe('Host patterns', () => {
  it.each([
    ['web1', 'web1', true],
    ['web1', 'WEB1', false],
    ['web1', 'web*', true],
    ['web12', 'web?', false],
    ['web1', 'web?', true],
    ['a.corp', '*.corp', true],
    ['corp', '*.corp', false],
    ['anything', '*', true],
    ['', '*', true],
    ['abcabd', '*abd', true],
    ['a*b', 'a*b', true]
  ])('%s against %s: %s', (text, pattern, expected) => {
    expect(matchesPattern(text, pattern)).toBe(expected)
  })

  it('needs a positive match, and any matching negation wins', () => {
    expect(hostLineMatches('db-main', ['db-*', '!db-legacy'])).toBe(true)
    expect(hostLineMatches('db-legacy', ['db-*', '!db-legacy'])).toBe(false)
    expect(hostLineMatches('db-legacy', ['!db-legacy', 'db-*'])).toBe(false)
    expect(hostLineMatches('web', ['!db-*'])).toBe(false)
    expect(hostLineMatches('web', ['db', 'web'])).toBe(true)
  })
})

describe('resolveOptions', () => {
  it('takes the first value of each field over all blocks that apply, top to bottom', () => {
    const root = config(
      lines(
        'User global-first',
        'Host web*',
        '  HostName %h.example.com',
        '  Port 2200',
        '  IdentityFile ~/.ssh/a',
        'Host web1',
        '  HostName other',
        '  IdentityFile ~/.ssh/b',
        'Host *',
        '  Port 22',
        '  User last'
      )
    )
    const web1 = resolveOptions(root, 'web1')
    expect([web1.hostName?.value, web1.port?.value, web1.user?.value]).toEqual(['%h.example.com', 2200, 'global-first'])
    expect(web1.identityFiles.map((f) => [f.value, f.line])).toEqual([
      ['~/.ssh/a', 5],
      ['~/.ssh/b', 8]
    ])
    expect(resolveOptions(root, 'db').port?.value).toBe(22)
  })

  it('lets the first of ProxyJump and ProxyCommand win, as ssh does', () => {
    const root = config(
      lines('Host a', '  ProxyCommand nc %h %p', '  ProxyJump j', 'Host b', '  ProxyJump none', '  ProxyCommand nc x', 'Host c', '  ProxyJump j1,j2', 'Host *', '  ProxyCommand ignored', '  ProxyJump ignored')
    )
    const a = resolveOptions(root, 'a')
    expect([a.proxyJump, a.proxyCommand?.value]).toEqual([undefined, 'nc %h %p'])
    const b = resolveOptions(root, 'b')
    expect([b.proxyJump?.value, b.proxyCommand?.value]).toEqual(['none', 'nc x'])
    const c = resolveOptions(root, 'c')
    expect([c.proxyJump?.value, c.proxyCommand]).toEqual(['j1,j2', undefined])
  })

  it('skips a Match block up to the next Host, and applies "Match all" everywhere', () => {
    const root = config(lines('Host a', 'Match user bob', '  User from-match', 'Host a', '  Port 2', 'Match all', '  User everyone'))
    const a = resolveOptions(root, 'a')
    expect([a.user?.value, a.port?.value]).toEqual(['everyone', 2])
  })

  it('warns about a bad port and keeps looking', () => {
    const root = config(lines('Host a', '  Port 70000', '  Port ssh', 'Host b', '  Port 0x16', '  Port 2022'))
    const a = resolveOptions(root, 'a')
    expect(a.port?.value).toBe(22)
    expect(a.warnings.map(formatWarning)).toEqual(['/home/alice/.ssh/config:2: Port "70000" is not a port number (1 to 65535); ignored'])
    expect(resolveOptions(root, 'b').port?.value).toBe(2022)
  })
})

describe('Include', () => {
  async function write(file: string, ...text: string[]): Promise<string> {
    await fs.mkdir(path.dirname(file), { recursive: true })
    await fs.writeFile(file, lines(...text))
    return file
  }

  it('reads relative includes under the ssh directory and ~ under home, globs sorted, hidden files not matched', async () => {
    const sshDir = path.join(dir, '.ssh')
    const main = await write(path.join(sshDir, 'config'), 'Include conf.d/*.conf ~/extra.conf', 'Host *', '  User fallback')
    await write(path.join(sshDir, 'conf.d', '20-b.conf'), 'Host b', '  HostName b.example')
    await write(path.join(sshDir, 'conf.d', '10-a.conf'), 'Host a', '  HostName a.example')
    await write(path.join(sshDir, 'conf.d', '.hidden.conf'), 'Host hidden')
    await write(path.join(sshDir, 'conf.d', 'skip.txt'), 'Host txt')
    await write(path.join(dir, 'extra.conf'), 'Host extra')
    const loaded = await loadSshConfig(main, { homeDir: dir, sshDir })
    expect(loaded.warnings).toEqual([])
    expect(listAliases(loaded.root)).toEqual([
      { alias: 'a', file: path.join(sshDir, 'conf.d', '10-a.conf'), line: 1 },
      { alias: 'b', file: path.join(sshDir, 'conf.d', '20-b.conf'), line: 1 },
      { alias: 'extra', file: path.join(dir, 'extra.conf'), line: 1 }
    ])
    expect(resolveOptions(loaded.root, 'b').hostName?.value).toBe('b.example')
    // The included files' Host lines do not leak into the including file: "Host *" starts a new block.
    expect(resolveOptions(loaded.root, 'a').user?.value).toBe('fallback')
  })

  it('applies an include inside a Host block only to that block, then carries on with the block', async () => {
    const main = await write(path.join(dir, 'config'), 'Host a b', `  Include ${path.join(dir, 'inc')}`, '  Port 7000', 'Host c', '  Port 3000')
    await write(path.join(dir, 'inc'), 'User from-include', 'Host b', '  Port 2000')
    const { root } = await loadSshConfig(main, { homeDir: dir, sshDir: dir })
    const resolve = (alias: string): unknown[] => {
      const r = resolveOptions(root, alias)
      return [r.user?.value, r.port?.value]
    }
    expect([resolve('a'), resolve('b'), resolve('c')]).toEqual([
      ['from-include', 7000],
      ['from-include', 2000],
      [undefined, 3000]
    ])
  })

  it('warns about includes that match nothing, nest too deep, or sit inside a Match block', async () => {
    const main = await write(path.join(dir, 'config'), 'Include nothing-*.conf', 'Include loop.conf', 'Match user x', '  Include loop.conf')
    await write(path.join(dir, 'loop.conf'), 'Host looped', 'Include loop.conf')
    const loaded = await loadSshConfig(main, { homeDir: dir, sshDir: dir })
    const messages = loaded.warnings.map(formatWarning)
    expect(messages[0]).toBe(`${main}:3: Match blocks are not evaluated by VirtBench; the settings under "Match user x" are not imported`)
    expect(messages[1]).toBe(`${main}:1: Include nothing-*.conf matched no files`)
    expect(messages[2]).toBe(`${path.join(dir, 'loop.conf')}:2: Include is nested more than 16 levels deep (does a file include itself?); not followed`)
    expect(messages[3]).toBe(`${main}:4: this Include is inside a Match block, which VirtBench skips; the included files are not read`)
    expect(messages).toHaveLength(4)
    expect(listAliases(loaded.root).map((a) => a.alias)).toEqual(['looped'])
  })

  it('says so when the configuration file does not exist', async () => {
    const result = await importSshConfig({ homeDir: dir, localUser: 'alice', env: {} })
    expect(result).toEqual({
      candidates: [],
      warnings: [{ file: path.join(dir, '.ssh', 'config'), line: 0, message: 'the file does not exist' }]
    })
  })

  it('globs with ?, [...] and [!...] per path segment', async () => {
    for (const name of ['a1', 'a2', 'b1', 'ab']) await write(path.join(dir, 'g', name, 'conf'), '')
    const names = async (pattern: string): Promise<string[]> => (await globFiles(path.join(dir, pattern))).map((f) => path.relative(dir, f))
    expect(await names('g/a?/conf')).toEqual(['g/a1/conf', 'g/a2/conf', 'g/ab/conf'])
    expect(await names('g/[ab]1/conf')).toEqual(['g/a1/conf', 'g/b1/conf'])
    expect(await names('g/a[!1]/conf')).toEqual(['g/a2/conf', 'g/ab/conf'])
    expect(await names('g/*/missing')).toEqual([])
    expect(await names('g/a1')).toEqual([])
  })
})

describe('ProxyJump values', () => {
  it.each([
    ['none', []],
    ['NONE', []],
    ['bastion', [{ host: 'bastion', text: 'bastion' }]],
    ['ops@bastion:2222', [{ host: 'bastion', user: 'ops', port: 2222, text: 'ops@bastion:2222' }]],
    ['ssh://root@b2:23', [{ host: 'b2', user: 'root', port: 23, text: 'ssh://root@b2:23' }]],
    ['[2001:db8::1]:2200', [{ host: '2001:db8::1', port: 2200, text: '[2001:db8::1]:2200' }]],
    ['u@[::1]', [{ host: '::1', user: 'u', text: 'u@[::1]' }]],
    [
      'a,b@c:2,d',
      [
        { host: 'a', text: 'a' },
        { host: 'c', user: 'b', port: 2, text: 'b@c:2' },
        { host: 'd', text: 'd' }
      ]
    ]
  ])('reads %s', (value, hops) => {
    expect(parseProxyJump(value)).toEqual(hops)
  })

  it.each(['a,,b', 'h:0', 'h:99999', '@h', 'h:x', '[::1', '[::1]x'])('refuses %s', (value) => {
    expect(parseProxyJump(value)).toHaveProperty('error')
  })
})

describe('tokens', () => {
  const context = { alias: 'web', hostName: 'web.example.com', user: 'deploy', port: 2200 }

  it('expands HostName %h and %%, lower-cased like ssh', () => {
    expect(expandHostName('%h.Example.COM', 'Web1')).toBe('web1.example.com')
    expect(expandHostName('fe80::1%%eth0', 'x')).toBe('fe80::1%eth0')
    expect(expandHostName('%r.example', 'x')).toEqual({ error: 'the token "%r" is not supported here' })
  })

  it('expands IdentityFile ~, %d %u %h %r %p %n %% and ${ENV}', () => {
    expect(expandIdentityFile('~/.ssh/id_%u_%r@%h:%p_%n_100%%', context, local)).toBe('/home/alice/.ssh/id_alice_deploy@web.example.com:2200_web_100%')
    expect(expandIdentityFile('%d/keys/x', context, local)).toBe('/home/alice/keys/x')
    expect(expandIdentityFile('~alice/k', context, local)).toBe('/home/alice/k')
    expect(expandIdentityFile('${KEYS}/k', context, local)).toBe('/srv/keys/k')
    expect(expandIdentityFile('~', context, local)).toBe('/home/alice')
  })

  it('says what it cannot expand', () => {
    expect(expandIdentityFile('~bob/k', context, local)).toEqual({ error: `"~bob" points into another user's home directory, which VirtBench does not look up` })
    expect(expandIdentityFile('/k/%C', context, local)).toEqual({ error: 'the token "%C" is not supported here' })
    expect(expandIdentityFile('/k/%', context, local)).toEqual({ error: 'the token "%" is not supported here' })
    expect(expandIdentityFile('${NOPE}/k', context, local)).toEqual({ error: 'the environment variable NOPE is not set' })
  })
})

describe('candidatesFromConfig', () => {
  const file = '/home/alice/.ssh/config'

  it('makes a candidate of each concrete alias with ssh defaults, and none of wildcard patterns', () => {
    const root = config(lines('Host *.corp web? !bad', '  User corp', 'Host web1 db1', '  HostName %h.lan', 'Host db1', '  IdentityFile ~/.ssh/db', '  Port 2201'))
    const { candidates, warnings } = candidatesFromConfig(root, local, [])
    expect(warnings).toEqual([])
    expect(candidates).toEqual([
      { name: 'web1', address: 'web1.lan', port: 22, user: 'corp', auth: { method: 'agent' }, jumpChain: [], source: { file, line: 3 } },
      {
        name: 'db1',
        address: 'db1.lan',
        port: 2201,
        user: 'alice',
        auth: { method: 'key', keyPath: '/home/alice/.ssh/db', hasPassphrase: false },
        jumpChain: [],
        source: { file, line: 3 }
      }
    ])
  })

  it('skips what cannot be a target, saying where and why', () => {
    const root = config(
      lines('Host bad-addr', '  HostName "two words"', 'Host bad-user', '  User -oProxyCommand=x', 'Host bad-token', '  HostName %r', 'Host Web', 'Host web', `Host ${'x'.repeat(65)}`)
    )
    const { candidates, warnings } = candidatesFromConfig(root, local, [])
    expect(candidates.map((c) => c.name)).toEqual(['Web'])
    expect(warnings.map(formatWarning)).toEqual([
      `${file}:1: bad-addr: the address is not usable: "two words" contains a space; an address is one host name or IP address; not imported`,
      `${file}:3: bad-user: user name "-oProxyCommand=x" starts with "-", which ssh would read as an option; not imported`,
      `${file}:6: bad-token: HostName "%r": the token "%r" is not supported here; not imported`,
      `${file}:8: "web" differs only in case from another alias; names must be unique, so it is not imported`,
      `${file}:9: ${'x'.repeat(65)}: the alias cannot be a target name (1 to 64 characters, no surrounding spaces); not imported`
    ])
  })

  it('links jump chains by name and makes candidates for jump hosts without a Host block', () => {
    const root = config(
      lines('Host deep', '  ProxyJump ops@gw:2222,inner', 'Host inner', '  HostName 10.0.0.4', '  ProxyJump gw', 'Host *', '  User admin')
    )
    const { candidates, warnings } = candidatesFromConfig(root, local, [])
    expect(candidates.map((c) => [c.name, c.address, c.port, c.user, c.jumpChain, c.jumpHostFor])).toEqual([
      ['deep', 'deep', 22, 'admin', ['gw', 'inner'], undefined],
      ['inner', '10.0.0.4', 22, 'admin', ['gw'], undefined],
      ['gw', 'gw', 2222, 'ops', [], 'deep']
    ])
    expect(warnings).toEqual([])
    expect(candidates.find((c) => c.name === 'gw')?.source).toEqual({ file, line: 2 })
  })

  it('links to saved targets by name, and says when a jump host disagrees with the linked one', () => {
    const root = config(lines('Host a', '  ProxyJump Saved-GW', 'Host b', '  ProxyJump root@gw2:2200', 'Host gw2', '  User ops', 'Host c', '  ProxyJump root@saved-gw'))
    const { candidates, warnings } = candidatesFromConfig(root, local, ['saved-gw'])
    expect(candidates.map((c) => [c.name, c.jumpChain])).toEqual([
      ['a', ['Saved-GW']],
      ['b', ['gw2']],
      ['gw2', []],
      ['c', ['saved-gw']]
    ])
    expect(warnings.map(formatWarning)).toEqual([
      `${file}:4: b: the jump host "root@gw2:2200" is linked to the target "gw2", which logs in as ops on port 22`,
      `${file}:8: c: the jump host "root@saved-gw" is linked to the target "saved-gw", which is a saved target; check its user and port`
    ])
  })

  it('says when a chain reaches a jump host differently from its own settings', () => {
    const root = config(lines('Host t', '  ProxyJump a,b', 'Host a', 'Host b', '  ProxyJump c'))
    const { candidates, warnings } = candidatesFromConfig(root, local, [])
    expect(candidates.find((c) => c.name === 'b')?.jumpChain).toEqual(['c'])
    expect(warnings.map(formatWarning)).toEqual([
      `${file}:2: t: ProxyJump reaches "b" through a, but "b" itself is set to jump through c; VirtBench keeps "b"'s own setting`
    ])
  })

  it('breaks jump loops, through itself or through others', () => {
    const root = config(lines('Host self', '  ProxyJump self', 'Host x', '  ProxyJump y', 'Host y', '  ProxyJump x'))
    const { candidates, warnings } = candidatesFromConfig(root, local, [])
    expect(candidates.map((c) => [c.name, c.jumpChain])).toEqual([
      ['self', []],
      ['x', ['y']],
      ['y', []]
    ])
    expect(warnings.map(formatWarning)).toEqual([
      `${file}:2: self: its ProxyJump goes through itself (self); imported without a jump host`,
      `${file}:5: y: the jump hosts form a loop (x → y → x); y is imported without a jump host`
    ])
  })

  it('imports users of a jump host that cannot be imported without a jump host, saying why', () => {
    const root = config(lines('Host web', '  ProxyJump gw', 'Host gw', '  HostName "bad gw"'))
    const { candidates, warnings } = candidatesFromConfig(root, local, [])
    expect(candidates.map((c) => [c.name, c.jumpChain])).toEqual([['web', []]])
    expect(warnings.map(formatWarning)).toEqual([
      `${file}:3: gw: the address is not usable: "bad gw" contains a space; an address is one host name or IP address; not imported`,
      `${file}:1: web: its jump host "gw" is not imported (see the warning about it); web is imported without a jump host`
    ])
  })

  it('uses the user and port of a ProxyJump hop for that hop\'s IdentityFile tokens', () => {
    const root = config(lines('Host web', '  ProxyJump ops@gw:2200', 'Host gw', '  User nobody', '  IdentityFile ~/.ssh/%r_%p'))
    const { candidates } = candidatesFromConfig(root, local, [])
    expect(candidates.find((c) => c.name === 'gw')).toMatchObject({ user: 'nobody', port: 22 })
    const synthesized = candidatesFromConfig(config(lines('Host web', '  ProxyJump ops@gw:2200', 'Host gw*', '  IdentityFile ~/.ssh/%r_%p')), local, [])
    expect(synthesized.candidates.find((c) => c.name === 'gw')).toMatchObject({
      user: 'ops',
      port: 2200,
      auth: { method: 'key', keyPath: '/home/alice/.ssh/ops_2200' }
    })
  })

  it('imports a ProxyCommand host as a direct connection, with a warning', () => {
    const root = config(lines('Host p', '  ProxyCommand ssh -W %h:%p gw'))
    const { candidates, warnings } = candidatesFromConfig(root, local, [])
    expect(candidates[0]?.jumpChain).toEqual([])
    expect(warnings.map(formatWarning)).toEqual([
      `${file}:2: p: ProxyCommand cannot be followed by VirtBench; imported as a direct connection (set a jump host by hand if one is needed)`
    ])
  })

  it('warns about identity files it cannot expand or import', () => {
    const root = config(lines('Host k', '  IdentityFile %C/key', 'Host r', '  IdentityFile keys/rel', '  IdentityFile /second'))
    const { candidates, warnings } = candidatesFromConfig(root, local, [])
    expect(candidates.map((c) => c.auth)).toEqual([{ method: 'agent' }, { method: 'key', keyPath: 'keys/rel', hasPassphrase: false }])
    expect(warnings.map(formatWarning)).toEqual([
      `${file}:2: k: IdentityFile "%C/key": the token "%C" is not supported here; the ssh agent is used instead`,
      `${file}:4: r: IdentityFile "keys/rel" is a relative path; ssh reads it relative to the directory it is started in`,
      `${file}:5: r: only the first IdentityFile (keys/rel) is imported`
    ])
  })

  it('orders candidates so that jump hosts come before the targets using them', () => {
    const candidate = (name: string, jumpChain: string[]): SshConfigCandidate => ({
      name,
      address: name,
      port: 22,
      user: 'u',
      auth: { method: 'agent' },
      jumpChain,
      source: { file, line: 1 }
    })
    const ordered = importOrder([candidate('deep', ['gw', 'inner']), candidate('inner', ['gw']), candidate('lone', []), candidate('gw', []), candidate('ext', ['saved'])])
    expect(ordered.map((c) => c.name)).toEqual(['gw', 'inner', 'deep', 'lone', 'ext'])
  })
})

describe('keyHasPassphrase and the import of real key files', () => {
  async function keygen(file: string, passphrase: string, ...extra: string[]): Promise<string> {
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-f', file, ...extra], { timeout: 20_000 })
    return file
  }

  it('tells encrypted keys from plain ones, made by ssh-keygen', async () => {
    const plain = await keygen(path.join(dir, 'plain'), '')
    const locked = await keygen(path.join(dir, 'locked'), 'correct horse')
    const pemLocked = path.join(dir, 'pem-locked')
    await run('ssh-keygen', ['-q', '-t', 'ecdsa', '-b', '256', '-m', 'PEM', '-N', 'long enough', '-f', pemLocked], { timeout: 20_000 })
    const pemPlain = path.join(dir, 'pem-plain')
    await run('ssh-keygen', ['-q', '-t', 'ecdsa', '-b', '256', '-m', 'PEM', '-N', '', '-f', pemPlain], { timeout: 20_000 })
    expect(await keyHasPassphrase(plain)).toBe(false)
    expect(await keyHasPassphrase(locked)).toBe(true)
    expect(await keyHasPassphrase(pemLocked)).toBe(true)
    expect(await keyHasPassphrase(pemPlain)).toBe(false)
    expect(await keyHasPassphrase(`${plain}.pub`)).toBeUndefined()
    expect(await keyHasPassphrase(path.join(dir, 'missing'))).toBeUndefined()
  })

  it('sets hasPassphrase from the key file when importing', async () => {
    const sshDir = path.join(dir, '.ssh')
    await fs.mkdir(sshDir)
    await keygen(path.join(sshDir, 'id_plain'), '')
    await keygen(path.join(sshDir, 'id_locked'), 'secret words')
    await fs.writeFile(
      path.join(sshDir, 'config'),
      lines('Host plain', '  IdentityFile ~/.ssh/id_plain', 'Host locked', '  IdentityFile %d/.ssh/id_locked', 'Host gone', '  IdentityFile ~/.ssh/id_gone')
    )
    const result = await importSshConfig({ homeDir: dir, localUser: 'alice', env: {} })
    expect(result.candidates.map((c) => [c.name, c.auth])).toEqual([
      ['plain', { method: 'key', keyPath: path.join(sshDir, 'id_plain'), hasPassphrase: false }],
      ['locked', { method: 'key', keyPath: path.join(sshDir, 'id_locked'), hasPassphrase: true }],
      ['gone', { method: 'key', keyPath: path.join(sshDir, 'id_gone'), hasPassphrase: false }]
    ])
    expect(result.warnings.map(formatWarning)).toEqual([
      `${path.join(sshDir, 'config')}:5: gone: the key file ${path.join(sshDir, 'id_gone')} cannot be read as a private key; check the path before connecting`
    ])
  })
})
