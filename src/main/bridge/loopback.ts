import net from 'node:net'

/** True for addresses that never leave this machine: 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  if (net.isIPv4(bare)) return bare.split('.')[0] === '127'
  if (net.isIPv6(bare)) {
    const lower = bare.toLowerCase()
    if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
    return mapped?.[1] !== undefined && isLoopbackAddress(mapped[1])
  }
  return false
}

/**
 * Resolves the host a user asked to bind to, refusing anything but loopback. `localhost` is taken
 * as 127.0.0.1 rather than resolved, so a tampered hosts file cannot widen the bind.
 */
export function loopbackBindAddress(host: string): string {
  if (host === 'localhost') return '127.0.0.1'
  if (!isLoopbackAddress(host)) {
    throw new Error(
      `Refusing to listen on ${host}: virtbench serve only binds loopback addresses (127.0.0.1, ::1), because the API it serves can reach your SSH targets. Use an SSH tunnel to reach it from another machine.`
    )
  }
  return host.replace(/^\[|\]$/g, '')
}
