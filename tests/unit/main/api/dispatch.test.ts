import { promises as fs, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { dispatch, type Handlers } from '../../../../src/main/api/dispatch'
import { ApiError } from '../../../../src/main/api/api-error'
import { EventHub } from '../../../../src/main/api/event-hub'
import { createApi, type HostServices } from '../../../../src/main/api/handlers'
import type { EventChannel } from '../../../../src/shared/channels'
import { invokeContract, type Envelope, type Settings } from '../../../../src/shared/contract'
import { markChecked, wasChecked } from '../../../../src/shared/checked-values'
import { RunDocumentSchema, type RunDocument } from '../../../../src/shared/model/run'
import { writeRunFile } from '../../../../src/main/store/run-store'

const packageJson = JSON.parse(
  readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')
) as { version: string }

let dataDir: string

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-dispatch-'))
})

afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
})

function makeApi(extra: Partial<HostServices> = {}): ReturnType<typeof createApi> {
  return createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, ...extra })
}

/** The error body of an envelope that must have failed. */
function errorOf(envelope: Envelope<unknown>): Extract<Envelope<unknown>, { ok: false }>['error'] {
  if (envelope.ok) throw new Error(`expected an error envelope, got ${JSON.stringify(envelope)}`)
  return envelope.error
}

describe('dispatch through createApi', () => {
  it('answers app:info with the app name, package version, transport and data directory', async () => {
    const api = makeApi()
    expect(__APP_VERSION__).toBe(packageJson.version)
    expect(await dispatch(api.handlers, 'app:info', undefined)).toEqual({
      ok: true,
      value: {
        name: 'VirtBench',
        version: packageJson.version,
        platform: process.platform,
        arch: process.arch,
        versions: { node: process.versions.node },
        transport: 'bridge',
        dataDir
      }
    })
  })

  it('round-trips settings:get and settings:update, persisting to the data directory', async () => {
    const api = makeApi()
    expect(await dispatch(api.handlers, 'settings:get', undefined)).toEqual({ ok: true, value: { theme: 'system' } })
    expect(await dispatch(api.handlers, 'settings:update', { theme: 'dark' })).toEqual({ ok: true, value: { theme: 'dark' } })
    expect(await dispatch(api.handlers, 'settings:get', undefined)).toEqual({ ok: true, value: { theme: 'dark' } })
    const reopened = makeApi()
    expect(await dispatch(reopened.handlers, 'settings:get', undefined)).toEqual({ ok: true, value: { theme: 'dark' } })
  })

  it('emits settings:changed with the new settings to hub subscribers and tells the host', async () => {
    const changed: Settings[] = []
    const api = makeApi({ onSettingsChanged: (settings) => changed.push(settings) })
    const events: [EventChannel, unknown][] = []
    api.hub.subscribe((event, payload) => events.push([event, payload]))
    await dispatch(api.handlers, 'settings:update', { theme: 'light' })
    expect(events).toEqual([['settings:changed', { theme: 'light' }]])
    expect(changed).toEqual([{ theme: 'light' }])
  })

  it('warns through app:notice when settings.json was unreadable', async () => {
    await fs.writeFile(path.join(dataDir, 'settings.json'), 'garbage')
    const api = makeApi()
    const events: [EventChannel, unknown][] = []
    api.hub.subscribe((event, payload) => events.push([event, payload]))
    expect(await dispatch(api.handlers, 'settings:get', undefined)).toEqual({ ok: true, value: { theme: 'system' } })
    expect(events).toEqual([
      ['app:notice', { level: 'warning', message: expect.stringContaining('settings.json could not be read'), at: expect.any(String) }]
    ])
  })

  it.each([['app:unknown'], ['settings:changed'], [''], [42], [undefined]])(
    'refuses the unknown channel %j',
    async (channel) => {
      const error = errorOf(await dispatch(makeApi().handlers, channel, undefined))
      expect(error.code).toBe('unknown-channel')
      expect(error.message).toBe(`There is no API channel named ${JSON.stringify(channel)}.`)
    }
  )

  it('refuses a bad theme with an issue naming the field theme, and leaves the settings alone', async () => {
    const api = makeApi()
    const error = errorOf(await dispatch(api.handlers, 'settings:update', { theme: 'purple' }))
    expect(error.code).toBe('invalid-request')
    expect(error.message).toMatch(/^Invalid request for settings:update: theme: /)
    expect(error.issues?.map((issue) => issue.path)).toEqual(['theme'])
    expect(await dispatch(api.handlers, 'settings:get', undefined)).toEqual({ ok: true, value: { theme: 'system' } })
    expect(await fs.readdir(dataDir)).toEqual([])
  })

  it('refuses a patch with an unknown key, naming the key', async () => {
    const error = errorOf(await dispatch(makeApi().handlers, 'settings:update', { theme: 'dark', fontSize: 14 }))
    expect(error.code).toBe('invalid-request')
    expect(error.issues).toEqual([{ path: '(payload)', message: expect.stringContaining('fontSize') }])
  })

  it('refuses a payload on channels that take none', async () => {
    const error = errorOf(await dispatch(makeApi().handlers, 'app:info', { sneaky: true }))
    expect(error.code).toBe('invalid-request')
    expect(error.issues).toHaveLength(1)
  })

  it('answers shell:openExternal with unavailable when the host cannot open links', async () => {
    const error = errorOf(await dispatch(makeApi().handlers, 'shell:openExternal', { url: 'https://example.com/' }))
    expect(error).toEqual({ code: 'unavailable', message: 'Opening links is done by the browser in this mode.' })
  })

  it('hands a safe URL to host.openExternal', async () => {
    const openExternal = vi.fn(async (_url: string) => {})
    const api = makeApi({ openExternal })
    expect(await dispatch(api.handlers, 'shell:openExternal', { url: 'https://example.com/docs' })).toEqual({
      ok: true,
      value: { opened: true }
    })
    expect(openExternal).toHaveBeenCalledTimes(1)
    expect(openExternal).toHaveBeenCalledWith('https://example.com/docs')
  })

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'http://example.com/', 'https://user:pw@example.com/'])(
    'refuses to open %s and never calls host.openExternal',
    async (url) => {
      const openExternal = vi.fn(async (_url: string) => {})
      const error = errorOf(await dispatch(makeApi({ openExternal }).handlers, 'shell:openExternal', { url }))
      expect(error.code).toBe('invalid-request')
      expect(error.issues?.map((issue) => issue.path)).toEqual(['url'])
      expect(openExternal).not.toHaveBeenCalled()
    }
  )

  it('reports a handler that throws as failed, with its message', async () => {
    const api = makeApi()
    const handlers: Handlers = {
      ...api.handlers,
      'settings:get': () => {
        throw new Error('disk on fire')
      }
    }
    expect(await dispatch(handlers, 'settings:get', undefined)).toEqual({
      ok: false,
      error: { code: 'failed', message: 'settings:get failed: disk on fire' }
    })
    const rejecting: Handlers = { ...api.handlers, 'settings:get': () => Promise.reject(new Error('later')) }
    expect(errorOf(await dispatch(rejecting, 'settings:get', undefined)).message).toBe('settings:get failed: later')
  })

  it('passes the code and message of an ApiError through unchanged', async () => {
    const handlers: Handlers = {
      ...makeApi().handlers,
      'settings:get': () => {
        throw new ApiError('forbidden', 'Not for you.')
      }
    }
    expect(await dispatch(handlers, 'settings:get', undefined)).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'Not for you.' }
    })
  })

  it('reports an answer that breaks the response schema as invalid-response', async () => {
    const handlers: Handlers = {
      ...makeApi().handlers,
      'settings:get': () => ({ theme: 'purple' }) as unknown as Settings
    }
    const error = errorOf(await dispatch(handlers, 'settings:get', undefined))
    expect(error.code).toBe('invalid-response')
    expect(error.message).toContain('settings:get produced an answer that breaks the contract (theme: ')
  })
})

describe('answers already checked (checked-values)', () => {
  const settingsSchema = invokeContract['settings:get'].response

  it('gives an answer marked as checked against the response schema as it is, and checks every other', async () => {
    const checked = markChecked(Object.freeze({ theme: 'purple' }), settingsSchema)
    const passed = await dispatch({ ...makeApi().handlers, 'settings:get': () => checked as unknown as Settings }, 'settings:get', undefined)
    expect(passed.ok && passed.value).toBe(checked)
    // marked for another schema, or not marked at all: checked as ever
    const other = markChecked(Object.freeze({ theme: 'purple' }), invokeContract['app:info'].response)
    expect(errorOf(await dispatch({ ...makeApi().handlers, 'settings:get': () => other as unknown as Settings }, 'settings:get', undefined)).code).toBe('invalid-response')
    expect(() => markChecked({ theme: 'dark' }, settingsSchema)).toThrow('only a frozen value can be marked as checked')
    expect(wasChecked({ theme: 'dark' }, settingsSchema)).toBe(false)
  })

  it('answers runs:get with the run folder as it is now, after every change', async () => {
    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(__dirname, '../../../fixtures/runs/loopback-quick/run.json'), 'utf8')))
    const dir = path.join(dataDir, 'runs', run.id)
    await writeRunFile(dir, run)
    const api = makeApi()
    const get = async (): Promise<RunDocument> => {
      const answer = await dispatch(api.handlers, 'runs:get', { id: run.id })
      if (!answer.ok) throw new Error(answer.error.message)
      return answer.value as RunDocument
    }
    const first = await get()
    expect(first.name).toBe(run.name)
    expect(await get()).toBe(first)
    await writeRunFile(dir, { ...run, name: 'after a rename' })
    expect((await get()).name).toBe('after a rename')
    await fs.writeFile(path.join(dir, 'run.json'), '{"kind": "virtbench-run"')
    expect(errorOf(await dispatch(api.handlers, 'runs:get', { id: run.id })).message).toMatch(/run\.json is not JSON \(.+\); it is not a VirtBench run document$/)
  })
})

describe('EventHub', () => {
  it('refuses to emit a payload that breaks the event contract, and tells no one', () => {
    const hub = new EventHub()
    const received: unknown[] = []
    hub.subscribe((_event, payload) => received.push(payload))
    expect(() => hub.emit('settings:changed', { theme: 'purple' } as unknown as Settings)).toThrow(z.ZodError)
    expect(() => hub.emit('app:notice', { level: 'info', message: '', at: '2024-01-01T00:00:00.000Z' })).toThrow(z.ZodError)
    expect(received).toEqual([])
  })

  it('keeps telling the other subscribers when one throws', () => {
    const hub = new EventHub()
    const before: unknown[] = []
    const after: unknown[] = []
    hub.subscribe((_event, payload) => before.push(payload))
    hub.subscribe(() => {
      throw new Error('window closed')
    })
    hub.subscribe((_event, payload) => after.push(payload))
    expect(() => hub.emit('settings:changed', { theme: 'dark' })).not.toThrow()
    expect(before).toEqual([{ theme: 'dark' }])
    expect(after).toEqual([{ theme: 'dark' }])
  })

  it('stops telling a subscriber once it unsubscribes', () => {
    const hub = new EventHub()
    const received: unknown[] = []
    const unsubscribe = hub.subscribe((event, payload) => received.push([event, payload]))
    hub.emit('settings:changed', { theme: 'light' })
    unsubscribe()
    hub.emit('settings:changed', { theme: 'dark' })
    expect(received).toEqual([['settings:changed', { theme: 'light' }]])
  })
})
