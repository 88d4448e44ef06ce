/**
 * The renderer's Content-Security-Policy, in one place: the <meta> tag of the built index.html,
 * the header `virtbench serve` sends, and the header the desktop app adds all come from here.
 */
const POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"]
}

/** Browsers ignore these in a <meta> tag (and warn), so the tag leaves them out. */
const HEADER_ONLY = new Set(['frame-ancestors'])

/** What only the Vite dev server needs: its inline HMR preamble and its websocket. */
const DEV_ADDITIONS: Record<string, string[]> = {
  'script-src': ["'unsafe-inline'"],
  'connect-src': ['ws://localhost:*', 'ws://127.0.0.1:*']
}

export function contentSecurityPolicy(options: { meta?: boolean; dev?: boolean } = {}): string {
  return Object.entries(POLICY)
    .filter(([directive]) => !(options.meta && HEADER_ONLY.has(directive)))
    .map(([directive, sources]) => [directive, ...sources, ...(options.dev ? (DEV_ADDITIONS[directive] ?? []) : [])].join(' '))
    .join('; ')
}
