/**
 * The Debian mirror the machine's apt already uses, read from apt's own configuration at run
 * time (one-line `sources.list` files and deb822 `.sources` files), so no mirror address is ever
 * written into the repository. Pure: the caller reads the files.
 */

/** One `deb` source: an archive URI with its suites and components. */
export interface AptSource {
  uri: string
  suites: string[]
  components: string[]
  /** The keyring file of `[signed-by=...]` or `Signed-By:`, when it names a file. */
  signedBy?: string
  /** Where it was read, for messages. */
  origin: string
}

export interface MirrorChoice {
  uri: string
  suite: string
  keyring?: string
  origin: string
}

/** `deb [opts] uri suite component...` lines; `deb-src`, comments and disabled entries are skipped. */
export function parseOneLineSources(text: string, origin: string): AptSource[] {
  const out: AptSource[] = []
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim()
    if (!line.startsWith('deb ') && !line.startsWith('deb\t')) continue
    let rest = line.slice(3).trim()
    let options = ''
    if (rest.startsWith('[')) {
      const end = rest.indexOf(']')
      if (end === -1) continue
      options = rest.slice(1, end)
      rest = rest.slice(end + 1).trim()
    }
    const [uri, suite, ...components] = rest.split(/\s+/)
    if (!uri || !suite) continue
    const signedBy = /(?:^|\s)signed-by=(\S+)/.exec(options)?.[1]
    out.push({ uri, suites: [suite], components, ...(signedBy ? { signedBy } : {}), origin })
  }
  return out
}

/** deb822 stanzas (`Types: deb`, `URIs:`, `Suites:`, `Components:`, `Signed-By:`, `Enabled:`). */
export function parseDeb822Sources(text: string, origin: string): AptSource[] {
  const out: AptSource[] = []
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>()
    let last: string | undefined
    for (const raw of stanza.split('\n')) {
      if (raw.startsWith('#')) continue
      if (/^\s/.test(raw) && last !== undefined) {
        // a continuation line (a multi-line field such as an inline Signed-By key)
        fields.set(last, `${fields.get(last) ?? ''}\n${raw.trim()}`)
        continue
      }
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(raw)
      if (!m) continue
      last = m[1]!.toLowerCase()
      fields.set(last, m[2]!.trim())
    }
    const words = (key: string): string[] => (fields.get(key) ?? '').split(/\s+/).filter(Boolean)
    if (!words('types').includes('deb')) continue
    if (/^(no|false|0)$/i.test(fields.get('enabled') ?? '')) continue
    const signed = fields.get('signed-by')
    const signedBy = signed && !signed.includes('\n') && signed.startsWith('/') ? signed : undefined
    for (const uri of words('uris')) {
      out.push({ uri, suites: words('suites'), components: words('components'), ...(signedBy ? { signedBy } : {}), origin })
    }
  }
  return out
}

/** Reads one file of apt's configuration by its name: `*.sources` is deb822, anything else one-line. */
export function parseAptSourcesFile(name: string, text: string): AptSource[] {
  return name.endsWith('.sources') ? parseDeb822Sources(text, name) : parseOneLineSources(text, name)
}

/**
 * The archive to debootstrap `suite` from: the first source that carries exactly that suite (not
 * `-updates` or `-security`) with the `main` component. Returns an error sentence when there is none.
 */
export function chooseMirror(sources: readonly AptSource[], suite: string): MirrorChoice | { error: string } {
  const hit = sources.find((s) => s.suites.includes(suite) && s.components.includes('main'))
  if (!hit) {
    const seen = sources.map((s) => `${s.uri} ${s.suites.join(',')} (${s.origin})`)
    return {
      error:
        `apt has no source for the Debian suite "${suite}" with the main component` +
        (seen.length > 0 ? `; it has: ${seen.join('; ')}` : ' (no deb source was found at all)') +
        `. Add one to /etc/apt/sources.list.d/, or set VIRTBENCH_LAB_MIRROR to a Debian mirror.`
    }
  }
  return { uri: hit.uri, suite, ...(hit.signedBy ? { keyring: hit.signedBy } : {}), origin: hit.origin }
}

/** `VERSION_CODENAME` of an os-release file's text (bookworm), when present. */
export function codenameOf(osRelease: string): string | undefined {
  const m = /^VERSION_CODENAME=["']?([a-z]+)["']?\s*$/m.exec(osRelease)
  return m?.[1]
}
