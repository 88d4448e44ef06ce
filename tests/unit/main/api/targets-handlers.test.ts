import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../../src/main/api/dispatch'
import { createApi } from '../../../../src/main/api/handlers'
import { MemorySecretStore } from '../../../../src/main/secrets/secrets'

let dataDir: string
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-targets-api-'))
})
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
})

const lab = { kind: 'ssh', name: 'lab', role: 'host', address: '10.0.0.5', user: 'ops', auth: { method: 'password' } }

describe('the targets API', () => {
  it('keeps secrets in the secret store, says which are stored, and never returns them', async () => {
    const secrets = new MemorySecretStore()
    const api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, secrets, homeDir: dataDir })
    const added = await dispatch(api.handlers, 'targets:add', { target: lab, secrets: { password: 'hunter2', sudo: 's3cret' } })
    expect(added.ok).toBe(true)
    const listed = await dispatch(api.handlers, 'targets:list', undefined)
    expect(JSON.stringify(listed)).not.toContain('hunter2')
    expect(listed).toMatchObject({ ok: true, value: { targets: [{ target: { name: 'lab', port: 22 }, secrets: { password: true, passphrase: false, sudo: true } }] } })
    expect(await fs.readFile(path.join(dataDir, 'targets.json'), 'utf8')).not.toContain('hunter2')

    const id = (added as { value: { target: { id: string } } }).value.target.id
    await dispatch(api.handlers, 'targets:update', { id, patch: {}, secrets: { sudo: null } })
    expect(await secrets.get(`target/${id}/sudo`)).toBeUndefined()
    expect(await secrets.get(`target/${id}/password`)).toBe('hunter2')

    await dispatch(api.handlers, 'targets:remove', { id })
    expect(await secrets.get(`target/${id}/password`)).toBeUndefined()
  })

  it('points a name clash at the name field', async () => {
    const api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
    await dispatch(api.handlers, 'targets:add', { target: lab })
    const again = await dispatch(api.handlers, 'targets:add', { target: { ...lab, name: 'LAB' } })
    expect(again).toMatchObject({ ok: false, error: { code: 'invalid-request', issues: [{ path: 'target.name' }] } })
  })

  it('refuses a hostile address with a message naming it', async () => {
    const api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
    const result = await dispatch(api.handlers, 'targets:add', { target: { ...lab, address: '$(touch pwned)' } })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-request', issues: [{ path: 'target.address' }] } })
  })

  it('imports Host entries from ~/.ssh/config with the role chosen for each, Host when none was', async () => {
    await fs.mkdir(path.join(dataDir, '.ssh'))
    await fs.writeFile(path.join(dataDir, '.ssh', 'config'), 'Host phys-01\n  HostName 10.0.0.1\n  User root\nHost vm-a\n  HostName 10.0.0.2\n  User root\n')
    const api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
    const result = await dispatch(api.handlers, 'targets:import', { names: ['phys-01', 'vm-a'], roles: { 'VM-A': 'guest' } })
    expect(result).toMatchObject({ ok: true, value: { skipped: [] } })
    const listed = (await dispatch(api.handlers, 'targets:list', undefined)) as { value: { targets: { target: { name: string; role: string } }[] } }
    expect(listed.value.targets.map((v) => [v.target.name, v.target.role])).toEqual([
      ['phys-01', 'host'],
      ['vm-a', 'guest']
    ])
  })

  it('explains a missing ~/.ssh/config', async () => {
    const api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
    const result = await dispatch(api.handlers, 'targets:importPreview', undefined)
    const file = path.join(dataDir, '.ssh', 'config')
    expect(result).toEqual({ ok: true, value: { file, candidates: [], warnings: [`${file}: the file does not exist`] } })
  })
})
