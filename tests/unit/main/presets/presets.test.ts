import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PRESET_KIND, PRESET_VERSION, type ComparisonPlanInput, type PresetInput } from '../../../../src/shared/model/plan'
import {
  formatPath,
  parsePresetText,
  PresetError,
  presetFromPlan,
  readPresetFile,
  secretsInPreset,
  upgradePreset,
  writePresetFile
} from '../../../../src/main/presets/presets'

let dir: string

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-presets-'))
})

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

const plan = (): ComparisonPlanInput => ({
  name: 'Xen vs KVM',
  baseline: { target: 'phys-01' },
  variants: [
    { target: 'vm-a', scenario: { hypervisor: 'kvm', cache: 'none' } },
    { target: 'vm-b', scenario: { hypervisor: 'xen-pv' } }
  ],
  tests: [{ pack: 'block-dd' }]
})

/** Presets as an older VirtBench wrote them, kept as they were. */
const V1_FIXTURES = path.resolve(__dirname, '../../../fixtures/presets')

const preset = (): PresetInput => ({ kind: PRESET_KIND, version: PRESET_VERSION, plan: plan() })

async function writeJson(name: string, value: unknown): Promise<string> {
  const file = path.join(dir, name)
  await fs.writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2))
  return file
}

/** The PresetError readPresetFile gives for `file`. */
async function readError(file: string): Promise<PresetError> {
  const error = await readPresetFile(file).then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(PresetError)
  return error as PresetError
}

/** The PresetError readPresetFile gives for `value` written to a file. */
async function refusal(value: unknown): Promise<PresetError> {
  return readError(await writeJson('p.json', value))
}

describe('readPresetFile', () => {
  it('reads a minimal preset and fills in the defaults', async () => {
    const read = await readPresetFile(await writeJson('ok.json', preset()))
    expect(read.plan.repetitions).toBe(3)
    expect(read.plan.aggregate).toBe('median')
    expect(read.plan.storage).toEqual({ kind: 'directory', path: '~/virtbench-work' })
    expect(read.plan.schedule).toEqual({ order: 'interleaved', parallelTargets: false })
    expect(read.plan.tests).toEqual([{ pack: 'block-dd', form: 'full' }])
  })

  it('accepts a byte order mark, as Windows editors write one', async () => {
    const read = await readPresetFile(await writeJson('bom.json', `\uFEFF${JSON.stringify(preset())}`))
    expect(read.plan.name).toBe('Xen vs KVM')
  })

  it('says when there is no file', async () => {
    const error = await readError(path.join(dir, 'nope.json'))
    expect(error).toBeInstanceOf(PresetError)
    expect(error.code).toBe('missing')
    expect(error.message).toBe(`there is no preset at ${path.join(dir, 'nope.json')}: check the path`)
  })

  it('refuses a file that is not JSON, quoting the parser', async () => {
    const error = await refusal('{ "kind": "virtbench-preset", ')
    expect(error.code).toBe('not-json')
    expect(error.message).toMatch(new RegExp(`^${path.join(dir, 'p.json')} is not JSON: .+\\. A preset is a JSON document`))
  })

  it('refuses JSON that is not an object', async () => {
    const error = await refusal([preset()])
    expect(error.code).toBe('not-a-preset')
    expect(error.message).toContain('is not a VirtBench preset: it is a list, where a preset is a JSON object with "kind": "virtbench-preset"')
  })

  it('refuses another kind of document, naming the kind it found', async () => {
    const error = await refusal({ kind: 'virtbench.targets', version: 1, data: { targets: [] } })
    expect(error.code).toBe('not-a-preset')
    expect(error.message).toContain('is not a VirtBench preset: it has "kind": "virtbench.targets", where a preset has "kind": "virtbench-preset"')
    const none = await refusal({ version: 1, plan: plan() })
    expect(none.message).toContain('it has no "kind"')
  })

  it('refuses a preset made by a newer VirtBench, naming both versions', async () => {
    const error = await refusal({ ...preset(), version: 3, plan: { ...plan(), someNewField: true } })
    expect(error.code).toBe('newer-version')
    expect(error.message).toBe(
      `${path.join(dir, 'p.json')} was made by a newer VirtBench (version 3); this one reads version 1 to 2. Update VirtBench to use this preset`
    )
  })

  it('reads a real version-1 preset (cloud-acceptance as shipped before version 2) and upgrades it to the current version', async () => {
    const file = path.join(V1_FIXTURES, 'v1-cloud-acceptance.json')
    const raw = JSON.parse(await fs.readFile(file, 'utf8')) as { version: number; description: string; plan: { name: string } }
    expect(raw.version).toBe(1)
    const read = await readPresetFile(file)
    expect(read.version).toBe(2)
    expect(read.description).toBe(raw.description)
    expect(read.plan.name).toBe('Cloud acceptance: physical vs KVM guests (cache x queues)')
    expect(read.plan.variants.map((v) => [v.target, v.scenario.cache, v.scenario.queues])).toEqual([
      ['vm-linux-none-q1', 'none', 1],
      ['vm-linux-none-q4', 'none', 4],
      ['vm-linux-wb-q1', 'writeback', 1],
      ['vm-linux-wb-q4', 'writeback', 4]
    ])
    // the same plan as the version-2 reading of the same document: the upgrade changes only the version
    expect(read).toEqual(parsePresetText(JSON.stringify({ ...raw, version: 2 })))
    // the file is left as it was; writing it again writes version 2
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(raw)
    const out = path.join(dir, 'upgraded.json')
    await writePresetFile(out, read)
    expect(JSON.parse(await fs.readFile(out, 'utf8'))).toMatchObject({ kind: PRESET_KIND, version: 2 })
    expect(await readPresetFile(out)).toEqual(read)
  })

  it('round-trips a version-2 preset that uses the fields version 2 added', async () => {
    const v2: PresetInput = {
      ...preset(),
      version: 2,
      plan: {
        ...plan(),
        variants: [{ target: 'vm-a', scenario: { hypervisor: 'kvm', domain: 'vm-a', setup: { cache: 'none', queues: 4 } } }],
        sweep: { target: 'vm-c', domain: 'vm-c', factors: { cache: ['none', 'writeback'] } },
        network: { matrix: true, paths: ['classic', 'private'], peerRole: 'guest' },
        precision: { halfWidthPct: 2, maxRepetitions: 10 },
        acceptance: { criteria: [{ atLeastPct: 90 }] }
      }
    }
    const file = await writeJson('v2.json', v2)
    const read = await readPresetFile(file)
    expect(read).toMatchObject({
      kind: PRESET_KIND,
      version: 2,
      plan: {
        variants: [{ scenario: { domain: 'vm-a', setup: { cache: 'none', queues: 4 } } }],
        sweep: { target: 'vm-c', factors: { cache: ['none', 'writeback'] } },
        network: { paths: ['classic', 'private'], peerRole: 'guest' },
        precision: { halfWidthPct: 2 },
        acceptance: { criteria: [{ atLeastPct: 90 }] }
      }
    })
    const out = path.join(dir, 'v2-out.json')
    await writePresetFile(out, read)
    expect(await readPresetFile(out)).toEqual(read)
  })

  it('refuses a version that is not a version', async () => {
    for (const version of [0, 1.5, '1', null]) {
      const error = await refusal({ ...preset(), version })
      expect(error.message).toContain(`has "version": ${JSON.stringify(version)}, which is not a preset version; this VirtBench reads version 1 to 2`)
    }
    expect((await refusal({ kind: PRESET_KIND, plan: plan() })).message).toContain('has no "version"')
  })

  it('refuses a secret anywhere in the document, naming its path', async () => {
    const doc = preset()
    doc.plan.variants[1] = { ...doc.plan.variants[1]!, password: 'hunter2' } as never
    const error = await refusal(doc)
    expect(error.code).toBe('secret')
    expect(error.message).toContain('holds a secret-like field (plan.variants[1].password)')
    expect(error.message).toContain('Presets never hold passwords, keys or tokens')
    expect(error.message).not.toContain('hunter2')
    expect(error.problems).toEqual(['plan.variants[1].password: looks like a secret'])
  })

  it('refuses secrets hidden in custom test params, which the model lets through', async () => {
    const doc = { ...preset(), plan: { ...plan(), tests: [{ id: 'x', tool: 'fio', params: { apiToken: 'abc', nested: { privateKey: 'k' } } }] } }
    const error = await refusal(doc)
    expect(error.message).toContain('(plan.tests[0].params.apiToken, plan.tests[0].params.nested.privateKey)')
  })

  it('reports a bad enum with its exact path and the allowed values', async () => {
    const doc = preset()
    doc.plan.variants[1]!.scenario = { cache: 'write-back' } as never
    const error = await refusal(doc)
    expect(error.code).toBe('invalid')
    expect(error.problems).toEqual([
      'plan.variants[1].scenario.cache: expected one of none, writeback, writethrough, directsync, unsafe, found "write-back"'
    ])
    expect(error.message).toBe(
      `${path.join(dir, 'p.json')} is not a valid preset:\n` +
        '- plan.variants[1].scenario.cache: expected one of none, writeback, writethrough, directsync, unsafe, found "write-back"\n' +
        '(docs/presets.md describes the format)'
    )
  })

  it('lists every problem, each with its path', async () => {
    const doc = {
      ...preset(),
      plan: {
        ...plan(),
        repetitons: 5,
        tests: [{ pack: 'nope' }, { id: 'Bad Id', tool: 'fio' }, 7],
        storage: { kind: 'raw', path: '/dev/vdb' },
        variants: [{ target: 'vm-a', scenario: { queues: 0 } }, { target: 'PHYS-01' }]
      }
    }
    const error = await refusal(doc)
    expect(error.problems).toEqual([
      'plan.variants[0].scenario.queues: expected at least 1, found 0',
      'plan.tests[0].pack: expected one of everyday, cloud-acceptance, block-dd, cluster-fio, seq-dd, kvm-storage, found "nope"',
      'plan.tests[1].id: a test id is 1 to 64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit',
      'plan.tests[2]: expected an object, found 7',
      'plan.storage.kind: expected one of directory, device, found "raw"',
      'plan.repetitons: unknown field (check its spelling; docs/presets.md lists the fields)'
    ])
  })

  it('says what a bound or a form expects, and what it found', async () => {
    const doc = { ...preset(), description: 'd'.repeat(2001), plan: { ...plan(), name: 'tab\there', repetitions: 101 } }
    const error = await refusal(doc)
    expect(error.problems).toEqual([
      'description: expected at most 2000 characters, found 2001 characters',
      'plan.name: does not have the expected form (/^[^\\p{Cc}]+$/u), found "tab\\there"',
      'plan.repetitions: expected at most 100, found 101'
    ])
  })

  it('says which field is missing', async () => {
    const error = await refusal({ kind: PRESET_KIND, version: PRESET_VERSION, plan: { name: 'x', variants: [{ target: 'a' }], tests: [{ pack: 'block-dd' }] } })
    expect(error.problems).toEqual(['plan.baseline: missing (expected object)'])
  })

  it('refuses a device confirmation that does not name the device', async () => {
    const error = await refusal({ ...preset(), plan: { ...plan(), storage: { kind: 'device', path: '/dev/vdb', confirm: '/dev/vdc' } } })
    expect(error.problems).toEqual([
      'plan.storage.confirm: a raw-device test destroys the data on the device: type its path again in "confirm" to say you mean it'
    ])
  })

  it('refuses a raw device named in a custom test instead of plan.storage', async () => {
    const doc = { ...preset(), plan: { ...plan(), tests: [{ id: 'raw', tool: 'dd', params: { device: '/dev/sdb', deviceWriteConfirmed: true } }] } }
    const error = await refusal(doc)
    expect(error.problems).toEqual([
      'plan.tests[0].params.device: a raw device is chosen in plan.storage ({"kind": "device", "path", "confirm"}), not in a test\'s params',
      'plan.tests[0].params.deviceWriteConfirmed: a raw device is chosen in plan.storage ({"kind": "device", "path", "confirm"}), not in a test\'s params'
    ])
  })

  it('refuses a file far bigger than any preset without reading it', async () => {
    const file = path.join(dir, 'big.json')
    await fs.writeFile(file, Buffer.alloc(1024 * 1024 + 1, 0x20))
    const error = await readError(file)
    expect(error.code).toBe('not-a-preset')
    expect(error.message).toContain('is 1048577 bytes; a preset is a small JSON document')
  })

  it('refuses a folder', async () => {
    const error = await readError(dir)
    expect(error.message).toBe(`${dir} is a folder, not a preset file`)
  })

  it('refuses a device instead of reading it forever', async () => {
    const error = await readError('/dev/zero')
    expect(error.message).toBe('/dev/zero is not a regular file (a device, socket or pipe), so not a preset')
  })
})

describe('secretsInPreset', () => {
  it('finds keys named like secrets, however they are spelled', () => {
    const doc = {
      password: 1,
      plan: { Passphrase: 1, nested: [{ client_secret: 1 }, { 'private-key': 1 }, { sudoPasswd: 1 }, { API_KEY: 1 }, { token: 1 }, { credentials: 1 }] }
    }
    expect(secretsInPreset(doc)).toEqual([
      'password',
      'plan.Passphrase',
      'plan.nested[0].client_secret',
      'plan.nested[1]["private-key"]',
      'plan.nested[2].sudoPasswd',
      'plan.nested[3].API_KEY',
      'plan.nested[4].token',
      'plan.nested[5].credentials'
    ])
  })

  it('finds a private key pasted as a value', () => {
    expect(secretsInPreset({ description: 'x\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn...' })).toEqual(['description'])
    expect(secretsInPreset({ description: '-----BEGIN RSA PRIVATE KEY-----' })).toEqual(['description'])
  })

  it('leaves ordinary preset fields alone', () => {
    expect(secretsInPreset(preset())).toEqual([])
    expect(secretsInPreset({ description: 'no password here, the key is in the keychain', passes: 3, bypass: true, keys: ['a'] })).toEqual([])
  })
})

describe('upgradePreset', () => {
  it('applies each step from the document version to the current one', () => {
    const migrations = {
      1: (doc: Record<string, unknown>) => ({ ...doc, steps: ['1→2'] }),
      2: (doc: Record<string, unknown>) => ({ ...doc, steps: [...((doc.steps as string[] | undefined) ?? []), '2→3'] })
    }
    expect(upgradePreset({ kind: PRESET_KIND, version: 1 }, 'p', migrations, 3)).toEqual({ kind: PRESET_KIND, version: 3, steps: ['1→2', '2→3'] })
    expect(upgradePreset({ kind: PRESET_KIND, version: 2 }, 'p', migrations, 3)).toEqual({ kind: PRESET_KIND, version: 3, steps: ['2→3'] })
    expect(upgradePreset({ kind: PRESET_KIND, version: 3 }, 'p', migrations, 3)).toEqual({ kind: PRESET_KIND, version: 3 })
  })

  it('says which versions it reads once there are several', () => {
    expect(() => upgradePreset({ version: 4 }, 'p.json', {}, 3)).toThrow('p.json was made by a newer VirtBench (version 4); this one reads version 1 to 3.')
  })

  it('upgrades version 1 to 2 by changing only the version (version 2 only added optional fields)', () => {
    const v1 = { kind: PRESET_KIND, version: 1, description: 'd', plan: { name: 'x', baseline: { target: 'h' } } }
    expect(PRESET_VERSION).toBe(2)
    expect(upgradePreset(v1)).toEqual({ ...v1, version: 2 })
    expect(v1.version).toBe(1)
    expect(upgradePreset({ ...v1, version: 2 })).toEqual({ ...v1, version: 2 })
  })

  it('refuses an older version it has no step for', () => {
    expect(() => upgradePreset({ version: 1 }, 'p.json', {}, 2)).toThrow('p.json is a version 1 preset, and this VirtBench cannot upgrade version 1 to 2')
  })
})

describe('writePresetFile', () => {
  it('writes the checked preset (defaults filled in) and reads back the same', async () => {
    const file = path.join(dir, 'sub', 'out.json')
    const written = await writePresetFile(file, { ...preset(), description: 'every release' })
    const text = await fs.readFile(file, 'utf8')
    expect(text).toBe(`${JSON.stringify(written, null, 2)}\n`)
    expect(JSON.parse(text)).toMatchObject({ kind: PRESET_KIND, version: PRESET_VERSION, description: 'every release', plan: { repetitions: 3 } })
    expect(await readPresetFile(file)).toEqual(written)
    expect(await fs.readdir(path.dirname(file))).toEqual(['out.json'])
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600)
  })

  it('refuses an invalid preset and leaves the old file as it was', async () => {
    const file = await writeJson('keep.json', preset())
    const before = await fs.readFile(file, 'utf8')
    const bad = { ...preset(), plan: { ...plan(), variants: [] } }
    await expect(writePresetFile(file, bad)).rejects.toThrow('plan.variants: a comparison needs at least one variant')
    const secret = { ...preset(), plan: { ...plan(), baseline: { target: 'phys-01', token: 't' } } }
    await expect(writePresetFile(file, secret as never)).rejects.toThrow('plan.baseline.token')
    expect(await fs.readFile(file, 'utf8')).toBe(before)
    expect(await fs.readdir(dir)).toEqual(['keep.json'])
  })
})

describe('presetFromPlan', () => {
  it('wraps a plan in a current-version preset', () => {
    const made = presetFromPlan(plan(), 'Compare every release')
    expect(made).toMatchObject({ kind: PRESET_KIND, version: PRESET_VERSION, description: 'Compare every release', plan: { name: 'Xen vs KVM', repetitions: 3 } })
    expect(presetFromPlan(plan())).not.toHaveProperty('description')
  })

  it('names the plan when it is not valid', () => {
    expect(() => presetFromPlan({ ...plan(), variants: [{ target: 'PHYS-01' }] })).toThrow(
      'the preset of "Xen vs KVM" is not a valid preset:\n- plan.variants[0].target: PHYS-01 is already the baseline; each target appears once in a comparison'
    )
  })
})

describe('parsePresetText and formatPath', () => {
  it('names the source it was given', () => {
    expect(() => parsePresetText('nope', 'the pasted text')).toThrow(/^the pasted text is not JSON: /)
  })

  it('writes paths as a person would type them', () => {
    expect(formatPath(['plan', 'variants', 1, 'scenario', 'cache'])).toBe('plan.variants[1].scenario.cache')
    expect(formatPath(['plan', 'tests', 0, 'params', 'odd key'])).toBe('plan.tests[0].params["odd key"]')
    expect(formatPath([])).toBe('(the document)')
  })
})
