import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { NewTargetInput, Target } from '../../../../src/shared/model/target'
import { TargetsStore, TargetStoreError, type TargetsStoreOptions } from '../../../../src/main/store/targets-store'

let dir: string
let problems: string[]

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-targets-'))
  problems = []
})

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

/** A store with predictable ids (t1, t2, ...) and clock. */
function openStore(options: TargetsStoreOptions = {}): TargetsStore {
  let ids = 0
  let minutes = 0
  return new TargetsStore(dir, {
    onProblem: (message) => problems.push(message),
    newId: () => `t${++ids}`,
    now: () => new Date(Date.UTC(2025, 2, 1, 10, minutes++)).toISOString(),
    ...options
  })
}

function ssh(name: string, extra: Partial<Extract<NewTargetInput, { kind: 'ssh' }>> = {}): NewTargetInput {
  return { kind: 'ssh', name, role: 'host', address: `${name.toLowerCase().replace(/[^a-z0-9-]/g, '-')}.lan`, user: 'root', auth: { method: 'agent' }, ...extra }
}

async function readDocument(): Promise<{ kind: string; version: number; data: { targets: Target[] } }> {
  return JSON.parse(await fs.readFile(path.join(dir, 'targets.json'), 'utf8'))
}

async function refusal(promise: Promise<unknown>): Promise<TargetStoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(TargetStoreError)
  return error as TargetStoreError
}

describe('TargetsStore: reading and writing', () => {
  it('starts empty without creating a file', async () => {
    expect(await openStore().list()).toEqual([])
    expect(await fs.readdir(dir)).toEqual([])
    expect(problems).toEqual([])
  })

  it('adds a target with an id and dates, writes a versioned 0600 document and reads it back', async () => {
    const store = openStore()
    const added = await store.add(ssh('web1', { port: 2222, labels: { hypervisor: 'kvm' } }))
    expect(added).toEqual({
      id: 't1',
      kind: 'ssh',
      name: 'web1',
      role: 'host',
      address: 'web1.lan',
      port: 2222,
      user: 'root',
      auth: { method: 'agent' },
      addresses: {},
      sudo: 'none',
      labels: { hypervisor: 'kvm' },
      createdAt: '2025-03-01T10:00:00.000Z',
      updatedAt: '2025-03-01T10:00:00.000Z'
    })
    const doc = await readDocument()
    expect(doc).toEqual({ kind: 'virtbench.targets', version: 1, data: { targets: [added] } })
    expect((await fs.stat(path.join(dir, 'targets.json'))).mode & 0o777).toBe(0o600)
    expect(await new TargetsStore(dir).list()).toEqual([added])
    expect(await new TargetsStore(dir).get('t1')).toEqual(added)
    expect(await new TargetsStore(dir).findByName('WEB1')).toEqual(added)
    expect(await new TargetsStore(dir).get('t9')).toBeUndefined()
  })

  it('gives random UUIDs as ids by default', async () => {
    const store = new TargetsStore(dir)
    const a = await store.add(ssh('a'))
    const b = await store.add(ssh('b'))
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(b.id).not.toBe(a.id)
    expect(Date.parse(a.createdAt)).toBeGreaterThan(Date.parse('2024-01-01'))
  })

  it('hands out copies, so changing a returned target changes nothing stored', async () => {
    const store = openStore()
    const added = await store.add(ssh('web1'))
    added.name = 'changed'
    const [listed] = await store.list()
    if (listed) listed.labels.x = 'y'
    expect(await store.get('t1')).toMatchObject({ name: 'web1', labels: {} })
  })

  it('applies concurrent changes one at a time, in order, losing none', async () => {
    const store = openStore()
    const names = Array.from({ length: 25 }, (_, i) => `node-${i}`)
    const added = await Promise.all(names.map((name) => store.add(ssh(name))))
    expect(added.map((t) => t.id)).toEqual(names.map((_, i) => `t${i + 1}`))
    const renamed = await Promise.all(added.map((t) => store.update(t.id, { labels: { index: t.name } })))
    expect(renamed.map((t) => t.labels.index)).toEqual(names)
    expect((await openStore().list()).map((t) => t.name)).toEqual(names)
    expect(await fs.readdir(dir)).toEqual(['targets.json'])
  })

  it('lets exactly one of two concurrent adds with the same name through', async () => {
    const store = openStore()
    const results = await Promise.allSettled([store.add(ssh('dup')), store.add(ssh('DUP'))])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected'])
    expect((await store.list()).map((t) => t.name)).toEqual(['dup'])
  })
})

describe('TargetsStore: refusals', () => {
  it('refuses an invalid target, naming the field, and writes nothing', async () => {
    const store = openStore()
    const error = await refusal(store.add(ssh('web1', { address: 'web1; reboot' })))
    expect(error.code).toBe('invalid')
    expect(error.message).toBe('The target is not valid: address: "web1; reboot" contains a space; an address is one host name or IP address.')
    await expect(refusal(store.add({ ...ssh('x'), password: 'hunter2' } as unknown as NewTargetInput))).resolves.toMatchObject({ code: 'invalid' })
    expect(await fs.readdir(dir)).toEqual([])
  })

  it('keeps names unique without regard to case, when adding and when renaming', async () => {
    const store = openStore()
    await store.add(ssh('Web1'))
    const other = await store.add(ssh('db1'))
    const added = await refusal(store.add(ssh(' web1 ', { address: 'web1-again.lan' })))
    expect(added.code).toBe('conflict')
    expect(added.message).toBe('The name "web1" is already used by "Web1"; target names must be unique (case does not count).')
    const renamed = await refusal(store.update(other.id, { name: 'WEB1' }))
    expect(renamed.code).toBe('conflict')
    expect(renamed.message).toContain('"WEB1" is already used by "Web1"')
    expect((await store.update(other.id, { name: 'DB1' })).name).toBe('DB1')
  })

  it('refuses unknown jump hosts and physical hosts, and guests as physical hosts', async () => {
    const store = openStore()
    const host = await store.add(ssh('kvm-host'))
    const guest = await store.add(ssh('vm1', { role: 'guest', hostId: host.id }))
    await expect(refusal(store.add(ssh('web', { jumpHostId: 'missing' })))).resolves.toMatchObject({
      code: 'invalid',
      message: '"web" jumps through a target with id "missing", which is not a saved target.'
    })
    await expect(refusal(store.add(ssh('vm2', { role: 'guest', hostId: guest.id })))).resolves.toMatchObject({
      message: '"vm2" names "vm1" as its physical host, but "vm1" is a guest; pick a target whose role is host.'
    })
    const here = await store.add({ kind: 'local', name: 'This computer', role: 'host' })
    await expect(refusal(store.add(ssh('via-here', { jumpHostId: here.id })))).resolves.toMatchObject({
      message: '"via-here" cannot jump through "This computer": it is this computer, not an SSH target.'
    })
    await expect(refusal(store.update(host.id, { role: 'guest' }))).resolves.toMatchObject({
      message: '"vm1" names "kvm-host" as its physical host, but "kvm-host" is a guest; pick a target whose role is host.'
    })
  })

  it('allows jump chains and refuses a change that closes a loop, naming the chain', async () => {
    const store = openStore()
    const a = await store.add(ssh('a'))
    const b = await store.add(ssh('b', { jumpHostId: a.id }))
    const c = await store.add(ssh('c', { jumpHostId: b.id }))
    const error = await refusal(store.update(a.id, { jumpHostId: c.id }))
    expect(error.code).toBe('invalid')
    expect(error.message).toBe('The jump hosts form a loop: "a" → "c" → "b" → "a". Remove one of these jump hosts.')
    await expect(refusal(store.update(a.id, { jumpHostId: a.id }))).resolves.toMatchObject({
      message: 'The target "a" is not valid: jumpHostId: a target cannot be its own jump host.'
    })
    expect((await store.get(a.id))?.kind === 'ssh' && (await store.get(a.id))).not.toHaveProperty('jumpHostId')
  })

  it('refuses to remove a target others use, naming them, and removes it once they no longer do', async () => {
    const store = openStore()
    const bastion = await store.add(ssh('bastion'))
    const host = await store.add(ssh('kvm-host', { jumpHostId: bastion.id }))
    await store.add(ssh('web', { jumpHostId: bastion.id }))
    const vm = await store.add(ssh('vm1', { role: 'guest', hostId: host.id, jumpHostId: host.id }))
    const used = await refusal(store.remove(host.id))
    expect(used.code).toBe('in-use')
    expect(used.message).toBe('"kvm-host" cannot be removed: it is the jump host of "vm1"; it is the physical host of "vm1". Change or remove those targets first.')
    await expect(refusal(store.remove(bastion.id))).resolves.toMatchObject({
      message: '"bastion" cannot be removed: it is the jump host of "kvm-host", "web". Change or remove those targets first.'
    })
    await store.remove(vm.id)
    await store.remove(host.id)
    expect((await openStore().list()).map((t) => t.name)).toEqual(['bastion', 'web'])
  })

  it('says so when a target to change or remove does not exist', async () => {
    const store = openStore()
    await expect(refusal(store.update('nope', { name: 'x' }))).resolves.toMatchObject({
      code: 'not-found',
      message: 'There is no target with id "nope"; it may have been removed.'
    })
    await expect(refusal(store.remove('nope'))).resolves.toMatchObject({ code: 'not-found' })
  })

  it('keeps working after a refused change', async () => {
    const store = openStore()
    const results = await Promise.allSettled([store.add(ssh('a')), store.add(ssh('a')), store.add(ssh('b'))])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((await openStore().list()).map((t) => t.name)).toEqual(['a', 'b'])
  })
})

describe('TargetsStore: files it cannot use', () => {
  it('moves a corrupt targets.json aside, reports it once, and starts empty', async () => {
    const file = path.join(dir, 'targets.json')
    const corrupt = '{"kind":"virtbench.targets","version":1,"data":{"targets":[{"id":"x","name":"web"}]}}'
    await fs.writeFile(file, corrupt)
    const store = openStore()
    expect(await store.list()).toEqual([])
    expect(problems).toHaveLength(1)
    const asides = (await fs.readdir(dir)).filter((name) => name.startsWith('targets.json.unreadable-'))
    expect(asides).toHaveLength(1)
    expect(problems[0]).toContain(`${file} could not be read (invalid data at targets.0`)
    expect(problems[0]).toContain(path.join(dir, asides[0] ?? ''))
    expect(await fs.readFile(path.join(dir, asides[0] ?? ''), 'utf8')).toBe(corrupt)
    await store.add(ssh('fresh'))
    await store.list()
    expect(problems).toHaveLength(1)
    expect((await readDocument()).data.targets.map((t) => t.name)).toEqual(['fresh'])
  })

  it('moves aside a file that is not JSON', async () => {
    await fs.writeFile(path.join(dir, 'targets.json'), '{ "kind": "virtbench.targets", ')
    expect(await openStore().list()).toEqual([])
    expect(problems[0]).toContain('not valid JSON')
  })

  it('keeps a file whose targets disagree with each other, reports it, and still allows changes that add no new problem', async () => {
    const store = openStore()
    const a = await store.add(ssh('a'))
    await store.add(ssh('b', { jumpHostId: a.id }))
    const doc = await readDocument()
    const [first, second] = doc.data.targets
    if (!first || !second) throw new Error('two targets expected')
    await fs.writeFile(path.join(dir, 'targets.json'), JSON.stringify({ ...doc, data: { targets: [second] } }))
    const reopened = openStore()
    expect((await reopened.list()).map((t) => t.name)).toEqual(['b'])
    expect(problems).toEqual([
      `${path.join(dir, 'targets.json')} has problems between targets: "b" jumps through a target with id "${first.id}", which is not a saved target. Fix them by editing the targets named.`
    ])
    expect(await reopened.update(second.id, { port: 2200 })).toMatchObject({ port: 2200 })
    expect((await reopened.update(second.id, { jumpHostId: null })).kind).toBe('ssh')
    await reopened.add(ssh('c'))
  })

  it('upgrades an older document with the migration steps and keeps the original', async () => {
    const file = path.join(dir, 'targets.json')
    const old = { kind: 'virtbench.targets', version: 0, data: { hosts: [{ host: 'web1.lan', login: 'root' }] } }
    await fs.writeFile(file, JSON.stringify(old))
    const store = openStore({
      migrations: {
        0: (data) => ({
          targets: (data as typeof old.data).hosts.map((h, i) => ({
            id: `m${i}`,
            kind: 'ssh',
            name: h.host.split('.')[0],
            role: 'host',
            address: h.host,
            port: 22,
            user: h.login,
            auth: { method: 'agent' },
            addresses: {},
            sudo: 'none',
            labels: {},
            createdAt: '2024-01-01T00:00:00.000Z',
            updatedAt: '2024-01-01T00:00:00.000Z'
          }))
        })
      }
    })
    expect((await store.list()).map((t) => [t.id, t.name, t.kind === 'ssh' && t.address, t.kind === 'ssh' && t.user])).toEqual([['m0', 'web1', 'web1.lan', 'root']])
    const kept = (await fs.readdir(dir)).filter((name) => name.startsWith('targets.json.v0-'))
    expect(kept).toHaveLength(1)
    expect(JSON.parse(await fs.readFile(path.join(dir, kept[0] ?? ''), 'utf8'))).toEqual(old)
    expect(problems).toEqual([`${file} was upgraded from version 0 to 1; the original is kept as ${path.join(dir, kept[0] ?? '')}.`])
    expect((await readDocument()).version).toBe(1)
  })

  it('moves aside a document of a newer version it cannot read', async () => {
    await fs.writeFile(path.join(dir, 'targets.json'), JSON.stringify({ kind: 'virtbench.targets', version: 2, data: { targets: [] } }))
    expect(await openStore().list()).toEqual([])
    expect(problems[0]).toContain('version 2 is not the supported version 1')
  })

  it('reports a read failure to the caller and tries again on the next call', async () => {
    const file = path.join(dir, 'targets.json')
    await fs.mkdir(file)
    const store = openStore()
    await expect(store.list()).rejects.toThrow(/EISDIR/)
    await fs.rmdir(file)
    expect(await store.list()).toEqual([])
  })
})
