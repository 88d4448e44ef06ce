/**
 * Whether an IPC message comes from our own renderer page: the exact file the app loaded
 * (production) or the dev server's origin (development). Anything else, such as a page that
 * somehow got navigated to or an iframe, is refused.
 */
export function isTrustedRendererUrl(senderUrl: string, rendererUrl: string): boolean {
  let sender: URL
  let expected: URL
  try {
    sender = new URL(senderUrl)
    expected = new URL(rendererUrl)
  } catch {
    return false
  }
  if (expected.protocol === 'file:') {
    // The host matters too: file://server/share/... is a network share on Windows, not our file.
    return sender.protocol === 'file:' && sender.host === expected.host && sender.pathname === expected.pathname
  }
  return sender.origin === expected.origin
}
