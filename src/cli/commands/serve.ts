import path from 'node:path'
import { parseArgs } from 'node:util'
import { printWithChromium } from '../../main/report/chromium-printer'
import { findBrowser } from '../../main/report/find-browser'
import { createApi } from '../../main/api/handlers'
import { startBridge } from '../../main/bridge/bridge-server'
import { loopbackBindAddress } from '../../main/bridge/loopback'
import { defaultDataDir } from '../../main/data-dir'
import type { CliCommand } from '../io'
import { builtRendererDir } from '../renderer-dir'
import { UsageError } from '../usage-error'

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: `Usage: virtbench serve [--host 127.0.0.1] [--port 0] [--data-dir DIR]

Starts the same API the desktop app uses, with the built UI, on a loopback address.
Prints the URL to open, token included, on stdout; the API refuses any other token.
Stop it with Ctrl+C.

Options:
  --host ADDR       loopback address to bind: 127.0.0.1 (default), another 127.x.y.z, ::1 or localhost
  --port N          TCP port; 0 (default) picks a free one
  --data-dir DIR    where targets, presets, runs and settings are kept
                    (default: $VIRTBENCH_DATA_DIR, else the desktop app's folder)
  --renderer-dir DIR  the built UI to serve (default: the one next to this CLI)
  -h, --help        this help`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '0' },
        'data-dir': { type: 'string' },
        'renderer-dir': { type: 'string' }
      },
      strict: true,
      allowPositionals: false
    })
    const port = Number(values.port)
    if (!/^\d+$/.test(values.port) || port > 65535) {
      throw new UsageError(`--port must be a number from 0 to 65535, not "${values.port}"`)
    }
    const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir(io.env)
    const rendererDir = values['renderer-dir'] ? path.resolve(values['renderer-dir']) : builtRendererDir()
    try {
      loopbackBindAddress(values.host)
    } catch (error) {
      throw new UsageError((error as Error).message)
    }
    const api = createApi({
      transport: 'bridge',
      dataDir,
      versions: { node: process.versions.node },
      // PDFs are printed with a Chromium found on this system, as `virtbench report` does
      printReport: async (input) => printWithChromium({ browser: findBrowser({ env: io.env }), rendererDir, input })
    })
    let bridge
    try {
      bridge = await startBridge({ api, rendererDir, host: values.host, port, onProblem: (message) => io.stderr(`virtbench serve: ${message}\n`) })
    } catch (error) {
      io.stderr(`virtbench serve: could not listen on ${values.host}:${port}: ${(error as Error).message}\n`)
      return 1
    }
    io.stdout(`${bridge.url}\n`)
    io.stderr(`VirtBench is serving on ${bridge.host}:${bridge.port} (data in ${dataDir}). Open the URL above; Ctrl+C stops.\n`)
    const signal = await io.interrupted
    await bridge.close()
    io.stderr(`virtbench serve: stopped (${signal}).\n`)
    return 0
  }
}
