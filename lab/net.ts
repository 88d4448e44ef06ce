/**
 * Loopback helpers shared by the lab driver and the test harness's sshd: a free port, and
 * whether an SSH server answers on a port.
 */
import net from 'node:net'

/** A TCP port on 127.0.0.1 that nothing listened on a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      if (addr === null || typeof addr === 'string') {
        srv.close()
        reject(new Error('could not determine a free port'))
        return
      }
      srv.close(() => resolve(addr.port))
    })
  })
}

/** Resolves true if something on host:port sends an SSH-2.0 identification line within `timeoutMs`. */
export function sshBanner(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let data = ''
    let done = false
    const socket = net.connect({ host, port })
    const finish = (ok: boolean): void => {
      if (done) return
      done = true
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => finish(false))
    socket.on('error', () => finish(false))
    socket.on('close', () => finish(false))
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      data += chunk
      if (data.includes('SSH-2.0-')) finish(true)
      else if (data.length > 8192) finish(false)
    })
  })
}
