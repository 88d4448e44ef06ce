import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare'
import { describeRedaction, findUnredacted, redactRun, runCsv, type Redaction } from '../../../../src/shared/export'
import type { Comparison } from '../../../../src/shared/model/comparison'
import type { TargetEnvironment } from '../../../../src/shared/model/environment'
import { RunDocumentSchema, type Job, type RunDocument } from '../../../../src/shared/model/run'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'
import { ReportOptionsSchema } from '../../../../src/shared/report'
import { reportInputOf } from '../../../../src/shared/report-input'

const ROOT = path.join(__dirname, '../../../..')

function readRun(file: string): RunDocument {
  return RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')))
}
const LOOPBACK = readRun('tests/fixtures/runs/loopback-quick/run.json')
const STUDY_001 = readRun('resources/examples/study-001-published.run.json')

function loopbackRun(): RunDocument {
  return structuredClone(LOOPBACK)
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

/** A whole host name in text (not inside a longer word such as `kvm` for `vm`), case ignored. */
function holdsName(text: string, name: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9_])${name.replace(/[.]/g, '\\.')}(?![A-Za-z0-9_])`, 'i').test(text)
}

function envOf(run: RunDocument, target: string): TargetEnvironment {
  return run.environment[target] as TargetEnvironment
}

function jobsOf(run: RunDocument, tool: string, target: string): Job[] {
  return run.jobs.filter((j) => j.tool === tool && j.target === target && j.kind === 'compare')
}

/**
 * The loopback run as it would look on real machines: the baseline's target name is its own host
 * name (db1, reached as db1.example.com by admin on port 2222), the guest goes by a label naming
 * its host (web-7) and is measured over a private address, and the commands, warnings, findings,
 * environment and labels hold addresses of every shape.
 */
function hostileRun(): RunDocument {
  const json = JSON.stringify(LOOPBACK).replaceAll('"host"', '"db1"').replaceAll('"guest (cache=none)"', '"guest on web-7"')
  const run = RunDocumentSchema.parse(JSON.parse(json))
  const [db1, guest] = run.targets
  if (!db1 || !guest) throw new Error('the loopback run has two targets')
  Object.assign(db1, { address: 'db1.example.com', port: 2222, user: 'admin' })
  Object.assign(guest, { address: '10.0.0.3', networkAddress: '10.127.100.3', user: 'root' })

  const hostEnv = envOf(run, 'db1') as TargetEnvironment & Record<string, unknown>
  hostEnv.hostname = 'db1.example.com'
  hostEnv.notes = [...(hostEnv.notes ?? []), 'rbd monitors mon1.example.com:6789,mon2.example.com:6789; link/ether 52:54:00:12:34:56 brd ff:ff:ff:ff:ff:ff']
  hostEnv.guests = {
    'web-7': {
      domain: 'web-7',
      disks: [{ device: 'vdb', sourceType: 'network', sourceProtocol: 'rbd', source: 'rbd:volumes/web7-data:mon_host=mon1.example.com\\:6789' }]
    }
  }
  const guestEnv = envOf(run, 'guest')
  guestEnv.hostname = 'web-7'
  guestEnv.nics = [{ name: 'eth0', addresses: ['10.0.0.3/24', 'fe80::5054:ff:fe12:3456/64'] }]

  for (const job of jobsOf(run, 'iperf3', 'guest')) {
    job.steps = job.steps.map((s) =>
      s.id === 'server' || s.command.startsWith('iperf3 -s')
        ? { ...s, command: 'iperf3 -s -1 --bind "10.127.100.3" --forceflush' }
        : { ...s, command: "iperf3 -c '10.127.100.3' -p 5201 -t 1 -J" }
    )
    job.samples = job.samples.map((s) => ({ ...s, labels: { ...s.labels, peer: 'db1', server: '10.127.100.3:5201' } }))
  }
  const [ping1, ping2] = jobsOf(run, 'ping', 'guest')
  if (!ping1 || !ping2) throw new Error('the loopback run pings from the guest')
  ping1.steps = ping1.steps.map((s) => ({ ...s, command: 'LC_ALL=C ping -6 -c 3 fe80::1%eth0' }))
  ping2.steps = ping2.steps.map((s) => ({ ...s, command: 'LC_ALL=C ping -6 -c 3 ::1' }))
  ping2.warnings = [
    'server [2001:db8::5]:5201 answered from 192.168.1.7/24 at 12:34:56, kernel 5.10.0-28-amd64, iperf 3.12, sysbench 1.0.20, 64.5 MiB'
  ]
  run.preflight.push({
    severity: 'warning',
    target: 'db1',
    code: 'reconnected',
    message: 'ssh admin@db1.example.com -p 2222 dropped once; reconnected to db1 from 10.0.0.3:41022',
    fix: 'Check the link of db1-data (the storage network of db1).'
  })
  return RunDocumentSchema.parse(run)
}

/** Every original the hostile run holds, collected by hand. */
const HOSTILE_HOST_NAMES = ['db1.example.com', 'db1', 'web-7', 'mon1.example.com', 'mon2.example.com', 'mon1', 'mon2']
const HOSTILE_ADDRESSES = [
  '10.0.0.3',
  '10.127.100.3',
  'fe80::1',
  '::1',
  '2001:db8::5',
  '192.168.1.7',
  'fe80::5054:ff:fe12:3456',
  '127.0.0.1',
  '192.0.2.2',
  'fd00::2',
  'fe80::fc:ff:fe00:1'
]
const HOSTILE_MACS = ['52:54:00:12:34:56', 'ff:ff:ff:ff:ff:ff']

/** The figures of a comparison, without the names of the sides or the label values (which may name machines). */
function figures(comparison: Comparison): unknown[] {
  return comparison.rows.map((row) => ({
    testTitle: row.testTitle,
    metric: row.metric,
    labelKeys: Object.keys(row.labels),
    baseline: row.baseline,
    cells: row.cells.map((c) => ({ stats: c.stats, relativePct: c.relativePct, overheadPct: c.overheadPct, hasCi: c.ci95 !== undefined }))
  }))
}

describe('redactRun on the loopback run', () => {
  const run = loopbackRun()
  const { run: redacted, redaction } = redactRun(run)
  const json = JSON.stringify(redacted)

  it('leaves none of its host names and addresses (collected independently)', () => {
    const addresses = [
      ...run.targets.flatMap((t) => [t.address, t.networkAddress]),
      ...Object.values(run.environment).flatMap((e) => ((e as TargetEnvironment).nics ?? []).flatMap((n) => n.addresses ?? [])),
      '127.0.0.1'
    ]
      .filter((a): a is string => a !== undefined)
      .map((a) => a.replace(/\/\d+$/, ''))
    expect(new Set(addresses)).toEqual(new Set(['127.0.0.1', '192.0.2.2', 'fd00::2', 'fe80::fc:ff:fe00:1']))
    for (const address of addresses) expect(json.includes(address), address).toBe(false)
    const names = [...Object.values(run.environment).map((e) => (e as TargetEnvironment).hostname), hostname()]
    expect(names).toContain('vm')
    for (const name of names) if (name !== undefined) expect(holdsName(json, name), name).toBe(false)
    expect(JSON.stringify(run).includes('127.0.0.1')).toBe(true)
  })

  it('says what it replaced, in counts only', () => {
    expect(redaction).toEqual({ hostNames: 1, addresses: 4, macs: 0, users: 1, renamedTargets: 2 })
    expect(describeRedaction(redaction)).toBe('Host names and addresses are redacted (1 host name, 4 addresses, 1 login); 2 targets are named by role (host A, guest 1…)')
  })

  it('writes placeholders where the machines were, the same one for the same address', () => {
    expect(redacted.targets.map((t) => [t.name, t.label, t.address, t.user, t.port])).toEqual([
      ['host A', 'host A', '<address-1>', '<user>', undefined],
      ['guest 1', 'guest 1 (cache=none)', '<address-1>', '<user>', undefined]
    ])
    expect(envOf(redacted, 'host A').hostname).toBe('<host-1>')
    expect(envOf(redacted, 'guest 1').nics?.[0]?.addresses).toEqual(['<address-2>/24', '<address-3>/64', '<address-4>/64'])
    const pings = redacted.jobs.filter((j) => j.tool === 'ping').map((j) => j.steps[0]?.command)
    expect(new Set(pings)).toEqual(new Set(['LC_ALL=C ping -c 3 -i 0.2 <address-1>']))
  })

  it('is still a valid run document, and compares to exactly the same table', () => {
    expect(RunDocumentSchema.parse(redacted)).toEqual(redacted)
    const after = compare(comparisonInputOf(redacted))
    expect([after.baseline, after.variants]).toEqual(['host A', ['guest 1 (cache=none)']])
    expect(figures(after)).toEqual(figures(compare(comparisonInputOf(run))))
  })

  it('keeps versions, kernels, sizes and times as they were', () => {
    for (const [target, pseudonym] of [['host', 'host A'], ['guest', 'guest 1']] as const) {
      const before = envOf(run, target)
      const after = envOf(redacted, pseudonym)
      expect(after.tools).toEqual(before.tools)
      expect(after.kernel).toBe('6.18.44-fc-v657')
      expect(after.os).toBe(before.os)
      expect(after.workDir).toEqual(before.workDir)
      expect(after.capturedAt).toBe(before.capturedAt)
    }
    expect(envOf(redacted, 'host A').tools?.sysbench).toBe('sysbench 1.0.20')
    expect(redacted.preflight).toEqual(run.preflight.map((f) => ({ ...f, target: f.target === 'host' ? 'host A' : f.target === 'guest' ? 'guest 1' : f.target })))
    expect(redacted.jobs.map((j) => j.samples)).toEqual(run.jobs.map((j) => j.samples))
  })

  it('never changes its input', () => {
    const frozen = deepFreeze(loopbackRun())
    const before = JSON.stringify(frozen)
    expect(() => redactRun(frozen)).not.toThrow()
    expect(JSON.stringify(frozen)).toBe(before)
  })

  it('changes nothing more when run again', () => {
    const again = redactRun(redacted)
    expect(again.run).toEqual(redacted)
    expect(again.redaction).toEqual({ hostNames: 0, addresses: 0, macs: 0, users: 0, renamedTargets: 0 })
  })
})

describe('redactRun on the study 001 example (published figures, no machines)', () => {
  it('finds nothing to replace and leaves the document, versions included, as it was', () => {
    const { run, redaction } = redactRun(STUDY_001)
    expect(redaction).toEqual({ hostNames: 0, addresses: 0, macs: 0, users: 0, renamedTargets: 0 })
    expect(run).toEqual(STUDY_001)
    expect(run.plan.variants[0]?.scenario.os).toBe('CentOS Linux 7.6.1810')
    expect(describeRedaction(redaction)).toBe('Host names and addresses are redacted (none were found)')
  })

  it('compares to the same table', () => {
    const { run } = redactRun(STUDY_001)
    expect(compare(comparisonInputOf(run))).toEqual(compare(comparisonInputOf(STUDY_001)))
  })
})

describe('redactRun on hostile input', () => {
  const run = hostileRun()
  const result = redactRun(run)
  const { run: redacted, redaction } = result

  it('leaves no host name, address, MAC or login anywhere, in the run or the counts', () => {
    const everything = JSON.stringify(result)
    for (const name of [...HOSTILE_HOST_NAMES, 'admin']) expect(holdsName(everything, name), name).toBe(false)
    for (const address of [...HOSTILE_ADDRESSES, ...HOSTILE_MACS]) expect(everything.toLowerCase().includes(address), address).toBe(false)
    for (const name of HOSTILE_HOST_NAMES) expect(holdsName(JSON.stringify(run), name), name).toBe(true)
  })

  it('gives a redacted CSV with none of them either', () => {
    const csv = runCsv(run, { redact: true })
    expect(findUnredacted(csv, run)).toEqual([])
    expect(findUnredacted(runCsv(run), run)).toEqual(expect.arrayContaining(['db1', '10.127.100.3']))
  })

  it('counts machines, addresses, MACs, logins and renamed targets', () => {
    expect(redaction).toEqual({ hostNames: 4, addresses: 11, macs: 2, users: 2, renamedTargets: 2 })
    expect(describeRedaction(redaction)).toBe(
      'Host names and addresses are redacted (4 host names, 11 addresses, 2 MAC addresses, 2 logins); 2 targets are named by role (host A, guest 1…)'
    )
  })

  it('renames every target after its role, and a label naming a host, everywhere', () => {
    expect(redacted.targets.map((t) => [t.name, t.label, t.address, t.networkAddress, t.user, t.port])).toEqual([
      ['host A', 'host A', '<host-1>', undefined, '<user>', undefined],
      ['guest 1', 'guest 1 on <host-2>', '<address-1>', '<address-2>', '<user>', undefined]
    ])
    expect(redacted.plan.baseline).toEqual({ target: 'host A', label: 'host A' })
    expect(redacted.plan.variants[0]?.target).toBe('guest 1')
    expect(redacted.plan.variants[0]?.label).toBe('guest 1 on <host-2>')
    expect(Object.keys(redacted.environment)).toEqual(['host A', 'guest 1'])
    expect(new Set(redacted.jobs.map((j) => `${j.target}|${j.side}|${j.peer ?? ''}`))).toEqual(
      new Set(['host A|host A|', 'host A|host A|guest 1', 'guest 1|guest 1 on <host-2>|', 'guest 1|guest 1 on <host-2>|host A'])
    )
    expect(new Set(redacted.jobs.flatMap((j) => j.steps.map((s) => s.on)))).toEqual(new Set(['host A', 'guest 1']))
    expect(new Set(redacted.jobs.flatMap((j) => (j.monitor ?? []).map((m) => m.target)))).toEqual(new Set(['host A', 'guest 1']))
    expect(redacted.preflight.map((f) => f.target)).toEqual(['host A', 'guest 1', 'host A'])
  })

  it('replaces addresses inside quoted commands, with a zone, a port, a prefix or brackets', () => {
    const iperf = jobsOf(redacted, 'iperf3', 'guest 1')[0]
    expect(iperf?.steps.map((s) => s.command)).toEqual(['iperf3 -s -1 --bind "<address-2>" --forceflush', "iperf3 -c '<address-2>' -p 5201 -t 1 -J"])
    const [ping1, ping2] = jobsOf(redacted, 'ping', 'guest 1')
    expect(ping1?.steps[0]?.command).toMatch(/^LC_ALL=C ping -6 -c 3 <address-\d+>$/)
    expect(ping2?.steps[0]?.command).toMatch(/^LC_ALL=C ping -6 -c 3 <address-\d+>$/)
    expect(ping2?.warnings).toHaveLength(1)
    expect(ping2?.warnings[0]).toMatch(
      /^server \[<address-\d+>\]:5201 answered from <address-\d+>\/24 at 12:34:56, kernel 5\.10\.0-28-amd64, iperf 3\.12, sysbench 1\.0\.20, 64\.5 MiB$/
    )
  })

  it('replaces logins, host names with ports and the short form of a host name in messages', () => {
    const finding = redacted.preflight.at(-1)
    expect(finding?.message).toBe('ssh <user>@<host-1> -p 2222 dropped once; reconnected to <host-1> from <address-1>:41022')
    expect(finding?.fix).toBe('Check the link of <host-1>-data (the storage network of <host-1>).')
    const host = envOf(redacted, 'host A')
    expect(host.hostname).toBe('<host-1>')
    expect(host.notes?.at(-1)).toBe('rbd monitors <host-3>:6789,<host-4>:6789; link/ether <mac> brd <mac>')
    expect(host.guests).toEqual({
      '<host-2>': {
        domain: '<host-2>',
        disks: [{ device: 'vdb', sourceType: 'network', sourceProtocol: 'rbd', source: 'rbd:volumes/web7-data:mon_host=<host-3>\\:6789' }]
      }
    })
    expect(envOf(redacted, 'guest 1').hostname).toBe('<host-2>')
    expect(envOf(redacted, 'guest 1').nics?.[0]?.addresses).toEqual(['<address-1>/24', expect.stringMatching(/^<address-\d+>\/64$/)])
  })

  it('maps sample labels naming a renamed target to its new name, and addresses to placeholders', () => {
    const labels = jobsOf(redacted, 'iperf3', 'guest 1')[0]?.samples[0]?.labels
    expect(labels).toEqual({ direction: 'target->peer', repetition: '1', peer: 'host A', server: '<address-2>:5201' })
  })

  it('is a valid run document that compares to the same figures', () => {
    expect(() => RunDocumentSchema.parse(redacted)).not.toThrow()
    const before = compare(comparisonInputOf(run))
    const after = compare(comparisonInputOf(redacted))
    expect(after.baseline).toBe('host A')
    expect(after.variants).toEqual(['guest 1 on <host-2>'])
    expect(figures(after)).toEqual(figures(before))
    expect(after.rows.length).toBeGreaterThan(20)
  })

  it('keeps a raw-device path a valid device path, and its confirmation equal to it', () => {
    const device = '/dev/disk/by-path/ip-10.0.0.3:3260-iscsi-iqn.2001-05.com.example:db1-lun-1'
    const withDevice: RunDocument = { ...run, plan: { ...run.plan, storage: { kind: 'device', path: device, confirm: device } } }
    const out = redactRun(withDevice).run
    expect(() => RunDocumentSchema.parse(out)).not.toThrow()
    expect(out.plan.storage).toEqual({
      kind: 'device',
      path: '/dev/disk/by-path/ip-address-1:3260-iscsi-iqn.2001-05.com.example:host-1-lun-1',
      confirm: '/dev/disk/by-path/ip-address-1:3260-iscsi-iqn.2001-05.com.example:host-1-lun-1'
    })
  })

  it('renames a test id that holds a host name, consistently', () => {
    const withId = structuredClone(run)
    const rename = (id: string): string => (id === 'mbw' ? 'mbw-on-db1' : id)
    for (const test of withId.tests) test.id = rename(test.id)
    for (const job of withId.jobs) job.testId = rename(job.testId)
    for (const test of withId.plan.tests) if ('tool' in test) test.id = rename(test.id)
    const parsed = RunDocumentSchema.parse(withId)
    const out = redactRun(parsed).run
    expect(RunDocumentSchema.safeParse(out).success).toBe(true)
    expect(out.tests.map((t) => t.id)).toEqual(['fio-randread', 'fio-write', 'dd-latency', 'ping', 'iperf3', 'redacted-test-1'])
    expect(new Set(out.jobs.filter((j) => j.tool === 'mbw').map((j) => j.testId))).toEqual(new Set(['redacted-test-1']))
    expect(out.plan.tests.flatMap((t) => ('tool' in t ? [t.id] : []))).toContain('redacted-test-1')
    expect(figures(compare(comparisonInputOf(out)))).toEqual(figures(compare(comparisonInputOf(parsed))))
  })

  it('does not change its input', () => {
    const frozen = deepFreeze(hostileRun())
    const before = JSON.stringify(frozen)
    redactRun(frozen)
    expect(JSON.stringify(frozen)).toBe(before)
  })

  it('is stable: the same run always gives the same redacted copy, and redacting it again changes nothing', () => {
    expect(redactRun(hostileRun())).toEqual(result)
    expect(redactRun(redacted).run).toEqual(redacted)
  })

  it('leaves times, versions and dotted numbers that are not addresses alone', () => {
    const text = [
      'at 12:34:56 and 00:45:10.237, on 2026-11-21T00:45:10.237Z',
      'kernel 5.10.0-28-amd64, python 3.12, sysbench 1.0.20, 64.5 MiB, 1.2.3.4.5, 10.0.0.256',
      'fio.read.iops, std::vector, 0:00:01'
    ].join('\n')
    const withWarning = structuredClone(run)
    const job = withWarning.jobs[0] as Job
    job.warnings = [text]
    expect((redactRun(withWarning).run.jobs[0] as Job).warnings).toEqual([text])
  })
})

describe('redactRun on targets named by host aliases', () => {
  /** The loopback run as people name their targets: by their ssh aliases, which name the machines. */
  function aliasedRun(): RunDocument {
    const json = JSON.stringify(LOOPBACK)
      .replaceAll('"host"', '"prod-hv-03"')
      .replaceAll('"guest (cache=none)"', '"web-vm-7 (cache=none)"')
      .replaceAll('"guest"', '"web-vm-7"')
      .replaceAll('Loopback quick comparison', 'prod-hv-03 against web-vm-7')
    const run = RunDocumentSchema.parse(JSON.parse(json))
    const job = run.jobs[0] as Job
    job.warnings = ['web-vm-7 was busy; PROD-HV-03 was idle']
    job.steps = job.steps.map((s) => ({ ...s, stdoutFile: 'raw/prod-hv-03/j0001.stdout' }))
    return RunDocumentSchema.parse(run)
  }
  const run = aliasedRun()
  const ALIASES = ['prod-hv-03', 'web-vm-7']
  const { run: redacted } = redactRun(run)

  it('gives each target a pseudonym by its role, the same in every field', () => {
    expect(redacted.targets.map((t) => [t.name, t.label])).toEqual([
      ['host A', 'host A'],
      ['guest 1', 'guest 1 (cache=none)']
    ])
    expect(redacted.name).toBe('host A against guest 1')
    expect(Object.keys(redacted.environment)).toEqual(['host A', 'guest 1'])
    expect(new Set(redacted.jobs.map((j) => `${j.target}|${j.side}`))).toEqual(new Set(['host A|host A', 'guest 1|guest 1 (cache=none)']))
    const job = redacted.jobs[0] as Job
    expect(job.warnings).toEqual(['guest 1 was busy; host A was idle'])
    expect(job.steps[0]?.stdoutFile).toBe('raw/host A/j0001.stdout')
  })

  it('leaves no alias, host name or address in the CSV, the JSON or the PDF input', () => {
    const outputs = {
      csv: runCsv(run, { redact: true }),
      json: JSON.stringify(redacted),
      pdfInput: JSON.stringify(reportInputOf(run, ReportOptionsSchema.parse({ redact: true }), { appVersion: '0.0.0', now: new Date(0) }))
    }
    for (const [what, text] of Object.entries(outputs)) {
      expect(findUnredacted(text, run), what).toEqual([])
      for (const alias of ALIASES) expect(holdsName(text, alias), `${what}: ${alias}`).toBe(false)
      expect(text.includes('127.0.0.1'), what).toBe(false)
      expect(text, what).toContain('guest 1')
    }
    // the same outputs unredacted do hold them: the checks above can fail
    expect(findUnredacted(runCsv(run), run)).toEqual(expect.arrayContaining(ALIASES))
    expect(findUnredacted(JSON.stringify(run), run)).toEqual(expect.arrayContaining([...ALIASES, '127.0.0.1']))
  })

  it('leaves words of the trade alone when targets are called host and guest', () => {
    const plain = loopbackRun()
    const warning = 'guest writes beat the host: likely host cache (cache=writeback) on the guest side'
    ;(plain.jobs[0] as Job).warnings = [warning]
    const out = redactRun(plain).run
    expect((out.jobs[0] as Job).warnings).toEqual([warning])
    expect(out.targets.map((t) => t.name)).toEqual(['host A', 'guest 1'])
    // a numbered name is one machine's: searched for in free text too
    const numbered = RunDocumentSchema.parse(JSON.parse(JSON.stringify(LOOPBACK).replaceAll('"guest"', '"vm1"')))
    ;(numbered.jobs[0] as Job).warnings = ['vm1 was slower than the host']
    expect((redactRun(numbered).run.jobs[0] as Job).warnings).toEqual(['guest 1 was slower than the host'])
  })
})

describe('placeholders', () => {
  function withHosts(address: string, envHostname: string, note: string): RunDocument {
    const run = loopbackRun()
    ;(run.targets[0] as { address?: string }).address = address
    envOf(run, 'host').hostname = envHostname
    envOf(run, 'host').notes = [note]
    return run
  }

  it('gives a machine one placeholder for its FQDN and its short name, whichever comes first', () => {
    for (const [address, name] of [
      ['db1.example.com', 'db1'],
      ['db1', 'db1.example.com']
    ] as const) {
      const out = redactRun(withHosts(address, name, 'DB1 and db1.example.com and db1')).run
      expect(out.targets[0]?.address).toBe('<host-1>')
      expect(envOf(out, 'host A').hostname).toBe('<host-1>')
      expect(envOf(out, 'host A').notes).toEqual(['<host-1> and <host-1> and <host-1>'])
    }
  })

  it('keeps two machines that share only a first label apart', () => {
    const out = redactRun(withHosts('www.example.com', 'www.example.com', 'see https://www.example.org/status and www.example.com')).run
    // <host-2> is the guest's own host name (vm)
    expect(envOf(out, 'guest 1').hostname).toBe('<host-2>')
    expect(envOf(out, 'host A').notes).toEqual(['see https://<host-3>/status and <host-1>'])
  })
})

describe('findUnredacted', () => {
  const run = hostileRun()

  it('finds every original in the original document', () => {
    const found = findUnredacted(JSON.stringify(run), run)
    expect(new Set(found)).toEqual(new Set([...HOSTILE_HOST_NAMES, ...HOSTILE_ADDRESSES, ...HOSTILE_MACS]))
    expect(found).toHaveLength(HOSTILE_HOST_NAMES.length + HOSTILE_ADDRESSES.length + HOSTILE_MACS.length)
  })

  it('finds nothing in the redacted document', () => {
    expect(findUnredacted(JSON.stringify(redactRun(run).run), run)).toEqual([])
  })

  it('matches whole names and whole addresses, case ignored', () => {
    expect(findUnredacted('db10 and 10.0.0.31 and 110.0.0.3 and kvm and fe80::10', run)).toEqual([])
    expect(findUnredacted('reached DB1.Example.COM at 10.0.0.3.', run)).toEqual(['db1.example.com', 'db1', '10.0.0.3'])
    expect(findUnredacted('link FE80::1%eth0 up', run)).toEqual(['fe80::1'])
  })
})

describe('random addresses in random text', () => {
  const noDigits = fc.string({ maxLength: 30 }).map((s) => s.replace(/[0-9]/g, ''))
  const separator = fc.constantFrom(' ', '\t', '\n', '"', "'", '=', ',', ';', ':', '/', '@', '(', ')', '[', ']', '<', '>', 'x', '-', '_')

  /** The text in a command, a warning, a sample label, an environment note and a finding (of a one-job run, for speed). */
  function embed(text: string): RunDocument {
    const run = loopbackRun()
    run.jobs = run.jobs.slice(0, 1)
    const job = run.jobs[0] as Job
    job.warnings = [text]
    job.steps = job.steps.map((s) => ({ ...s, command: `ping ${text}` }))
    job.samples = job.samples.map((s) => ({ ...s, labels: { ...s.labels, server: text } }))
    envOf(run, 'guest').notes = [text]
    run.preflight.push({ severity: 'info', code: 'note', message: text })
    return run
  }

  it('never lets an IPv4 address survive', () => {
    fc.assert(
      fc.property(noDigits, separator, fc.ipV4(), separator, noDigits, (before, left, ip, right, after) => {
        const { run } = redactRun(embed(`${before}${left}${ip}${right}${after}`))
        expect(JSON.stringify(run).includes(ip)).toBe(false)
        expect(RunDocumentSchema.safeParse(run).success).toBe(true)
      }),
      { numRuns: 200 }
    )
  })

  it('never lets an IPv6 address survive', () => {
    const noHex = fc.string({ maxLength: 30 }).map((s) => s.replace(/[0-9A-Fa-f:]/g, ''))
    fc.assert(
      fc.property(noHex, fc.constantFrom(' ', '"', "'", '=', '[', '('), fc.ipV6(), fc.constantFrom(' ', '"', "'", ']', ')', '/64', '%eth0'), noHex, (before, left, ip, right, after) => {
        const { run } = redactRun(embed(`${before}${left}${ip}${right}${after}`))
        expect(JSON.stringify(run).toLowerCase().includes(ip.toLowerCase())).toBe(false)
      }),
      { numRuns: 200 }
    )
  })
})

describe('size', () => {
  it('redacts a run with a 300 kB message quickly', () => {
    const run = loopbackRun()
    const long = `${'word '.repeat(30_000)}10.0.0.9 ${'a'.repeat(100_000)} fe80::9 ${'b-'.repeat(25_000)}`
    ;(run.jobs[0] as Job).warnings = [long]
    const started = performance.now()
    const out = redactRun(run).run
    const elapsed = performance.now() - started
    expect((out.jobs[0] as Job).warnings[0]).toContain('<address-5> ')
    expect(JSON.stringify(out).includes('10.0.0.9')).toBe(false)
    expect(elapsed).toBeLessThan(3000)
  })
})

// A Redaction is numbers only: a type-level check that nobody adds the originals to it.
const _countsOnly: Record<keyof Redaction, number> = { hostNames: 0, addresses: 0, macs: 0, users: 0, renamedTargets: 0 }
void _countsOnly
