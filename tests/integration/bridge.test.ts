import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { createApi, type Api } from '../../src/main/api/handlers'
import { startBridge, type Bridge } from '../../src/main/bridge/bridge-server'
import { contentSecurityPolicy } from '../../src/shared/csp'
import { RENDERER_DIR } from '../harness/paths'
import { connectBridge } from '../harness/ws-client'

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
      .on('error', reject)
  })
}

describe('the serve bridge (in process)', () => {
  let dataDir: string
  let api: Api
  let bridge: Bridge
  let origin: string

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'virtbench-bridge-'))
    api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node } })
    bridge = await startBridge({ api, rendererDir: RENDERER_DIR })
    origin = new URL(bridge.url).origin
  })

  afterAll(async () => {
    await bridge.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('prints a loopback URL carrying a 256-bit token', () => {
    expect(bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64}$/)
    expect(bridge.host).toBe('127.0.0.1')
  })

  it('answers the same envelopes as an in-process call, for every kind of answer', async () => {
    const client = await connectBridge(origin, bridge.token)
    const calls: [string, unknown][] = [
      ['app:info', undefined],
      ['settings:get', undefined],
      ['settings:update', { theme: 'purple' }],
      ['no:such-channel', undefined],
      ['shell:openExternal', { url: 'https://example.com/' }]
    ]
    for (const [channel, payload] of calls) {
      expect(await client.invoke(channel, payload)).toEqual(await dispatch(api.handlers, channel, payload))
    }
    expect(await client.invoke('app:info')).toMatchObject({
      ok: true,
      value: { name: 'VirtBench', version: __APP_VERSION__, transport: 'bridge', dataDir }
    })
    expect(await client.invoke('settings:update', { theme: 'purple' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', issues: [{ path: 'theme' }] }
    })
    await client.close()
  })

  it('delivers events to every connected client', async () => {
    const a = await connectBridge(origin, bridge.token)
    const b = await connectBridge(origin, bridge.token)
    expect(await a.invoke('settings:update', { theme: 'dark' })).toEqual({ ok: true, value: { theme: 'dark' } })
    await expect.poll(() => b.events).toEqual([{ event: 'settings:changed', payload: { theme: 'dark' } }])
    expect(a.events).toEqual([{ event: 'settings:changed', payload: { theme: 'dark' } }])
    await a.close()
    await b.close()
  })

  it('refuses a wrong, missing or malformed token', async () => {
    await expect(connectBridge(origin, 'f'.repeat(64))).rejects.toThrow('HTTP 401')
    await expect(connectBridge(origin, '')).rejects.toThrow('HTTP 401')
    await expect(connectBridge(origin, bridge.token.slice(0, 63))).rejects.toThrow('HTTP 401')
    await expect(connectBridge(origin, bridge.token.toUpperCase())).rejects.toThrow('HTTP 401')
  })

  it('refuses other web pages and DNS-rebound host names even with the right token', async () => {
    await expect(connectBridge(origin, bridge.token, { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403')
    await expect(connectBridge(origin, bridge.token, { Host: `evil.example:${bridge.port}` })).rejects.toThrow('HTTP 421')
    expect((await get(`${origin}/`, { Host: 'evil.example' })).status).toBe(421)
    const sameOrigin = await connectBridge(origin, bridge.token, { Origin: origin })
    await sameOrigin.close()
  })

  it('closes a connection that sends something other than an invoke frame', async () => {
    const client = await connectBridge(origin, bridge.token)
    const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)))
    client.socket.send('{"type":"shell","command":"rm -rf /"}')
    expect(await closed).toBe(1008)
  })

  it('serves the built renderer with a strict CSP and nothing outside it', async () => {
    const index = await get(`${origin}/`)
    expect(index.status).toBe(200)
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(index.headers['content-security-policy']).toBe(contentSecurityPolicy())
    expect(index.headers['content-security-policy']).toContain("script-src 'self';")
    expect(index.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    // The built page carries the same policy in its <meta> tag, minus the header-only directive.
    expect(index.body).toContain(`content="${contentSecurityPolicy({ meta: true })}"`)
    expect(contentSecurityPolicy({ meta: true })).not.toContain('frame-ancestors')
    expect(index.headers['x-content-type-options']).toBe('nosniff')
    expect(index.body).toContain('<div id="root"></div>')
    expect((await get(`${origin}/../package.json`)).status).toBe(404)
    expect((await get(`${origin}/%2e%2e/%2e%2e/package.json`)).status).toBe(404)
  })

  it('refuses to bind anything but loopback', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      await expect(startBridge({ api, rendererDir: RENDERER_DIR, host })).rejects.toThrow(`Refusing to listen on ${host}`)
    }
    const v6 = await startBridge({ api, rendererDir: RENDERER_DIR, host: '::1' })
    expect(v6.url).toMatch(/^http:\/\/\[::1\]:\d+\/#token=/)
    const client = await connectBridge(new URL(v6.url).origin, v6.token)
    expect(await client.invoke('settings:get')).toEqual({ ok: true, value: { theme: 'dark' } })
    await client.close()
    await v6.close()
  })
})
