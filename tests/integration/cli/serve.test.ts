import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, OUT } from '../../harness/paths'
import { startServe, type ServeProcess } from '../../harness/serve'
import { connectBridge } from '../../harness/ws-client'

describe('the built virtbench CLI', () => {
  let serve: ServeProcess

  beforeAll(async () => {
    serve = await startServe()
  })

  afterAll(async () => {
    expect(await serve.stop()).toBe(0)
  })

  it('serve prints exactly the URL to open on stdout, and the API answers through it', async () => {
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64}$/)
    const client = await connectBridge(serve.origin, serve.token)
    expect(await client.invoke('app:info')).toMatchObject({
      ok: true,
      value: { version: __APP_VERSION__, transport: 'bridge', dataDir: serve.dataDir }
    })
    expect(await client.invoke('settings:update', { theme: 'light' })).toEqual({ ok: true, value: { theme: 'light' } })
    const saved = JSON.parse(readFileSync(path.join(serve.dataDir, 'settings.json'), 'utf8')) as unknown
    expect(saved).toEqual({ kind: 'virtbench.settings', version: 1, data: { theme: 'light' } })
    await client.close()
    await expect(connectBridge(serve.origin, '0'.repeat(64))).rejects.toThrow('HTTP 401')
  })

  it('never lets the token reach stderr', () => {
    expect(serve.stderr()).toContain(`127.0.0.1:${serve.port}`)
    expect(serve.stderr()).not.toContain(serve.token)
  })

  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 15_000 })

  it('--version and --help', () => {
    expect(run('--version')).toMatchObject({ status: 0, stdout: `${__APP_VERSION__}\n` })
    const help = run('--help')
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('Usage: virtbench <command> [options]')
    expect(help.stdout).toMatch(/^ {2}serve +Serve the VirtBench UI/m)
    expect(run('serve', '--help').stdout).toContain('Usage: virtbench serve')
  })

  it('usage errors exit 2 with one line naming the problem and pointing to --help', () => {
    const cases: [string[], string][] = [
      [['frobnicate'], "virtbench: unknown command 'frobnicate'. See 'virtbench --help'.\n"],
      [['--frobnicate'], "virtbench: unknown option '--frobnicate'. See 'virtbench --help'.\n"],
      [['serve', '--port', 'eighty'], 'virtbench: --port must be a number from 0 to 65535, not "eighty". See \'virtbench serve --help\'.\n'],
      [['serve', '--bogus'], "virtbench: Unknown option '--bogus'. See 'virtbench serve --help'.\n"]
    ]
    for (const [args, stderr] of cases) {
      expect(run(...args), args.join(' ')).toMatchObject({ status: 2, stdout: '', stderr })
    }
    const remote = run('serve', '--host', '0.0.0.0')
    expect(remote.status).toBe(2)
    expect(remote.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(remote.stderr).toContain('Refusing to listen on 0.0.0.0')
  })

  it('the CLI bundle and everything it loads never require electron', () => {
    const seen = new Set<string>()
    const visit = (file: string): void => {
      if (seen.has(file)) return
      seen.add(file)
      const code = readFileSync(file, 'utf8')
      expect(code, `${path.relative(OUT, file)} requires electron`).not.toMatch(/require\(["']electron["']\)/)
      for (const match of code.matchAll(/require\(["'](\.{1,2}\/[^"']+)["']\)/g)) visit(path.resolve(path.dirname(file), match[1]!))
    }
    visit(path.join(OUT, 'main', 'cli.js'))
    expect(seen.size).toBeGreaterThan(1)
    // …while the desktop entry does, which proves the check can see it.
    expect(readFileSync(path.join(OUT, 'main', 'index.js'), 'utf8')).toMatch(/require\(["']electron["']\)/)
    expect(readdirSync(path.join(OUT, 'preload'))).toContain('index.js')
  })
})
