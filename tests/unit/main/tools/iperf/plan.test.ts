import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { iperfDefaults, iperfParamsSchema, outputFormat, type IperfParamsInput } from '../../../../../src/main/tools/iperf/params'
import { estimateSeconds, plan, SERVER_READY, WAY_BACK_REPORTED } from '../../../../../src/main/tools/iperf/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const peer = { os: 'linux' as const, workDir: '/srv/vb', address: 'itb-kvm2.mwt2.org' }
const linux: PlanContext = { target: { os: 'linux', workDir: '/srv/vb' }, peer }

function planFor(input: IperfParamsInput, ctx: PlanContext = linux) {
  return plan(iperfParamsSchema.parse(input), ctx)
}

function issues(input: unknown): string[] {
  const r = iperfParamsSchema.safeParse(input)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('iperf params', () => {
  it('defaults to study 000: TCP both ways (-r), iperf choosing length and port', () => {
    expect(iperfDefaults).toEqual({ protocol: 'tcp', direction: 'both', parallel: 1, format: 'auto', enhanced: false, serverOn: 'peer' })
  })

  it('reads -y C for TCP and the text for UDP unless told otherwise', () => {
    expect(outputFormat({ format: 'auto', protocol: 'tcp' })).toBe('csv')
    expect(outputFormat({ format: 'auto', protocol: 'udp' })).toBe('text')
    expect(outputFormat({ format: 'csv', protocol: 'udp' })).toBe('csv')
    expect(outputFormat({ format: 'text', protocol: 'tcp' })).toBe('text')
  })

  it('refuses values iperf would refuse, and -P with both ways', () => {
    expect(issues({ seconds: 0 })).toEqual(['seconds: seconds must be at least 1'])
    expect(issues({ port: 0 })).toEqual(['port: port must be between 1 and 65535'])
    expect(issues({ listenPort: 65_536 })).toEqual(['listenPort: listenPort must be between 1 and 65535'])
    expect(issues({ parallel: 2 })).toEqual([expect.stringMatching(/^parallel: parallel streams cannot be combined with direction both: iperf 2.1 starts the way back/)])
    expect(issues({ parallel: 2, direction: 'target->peer' })).toEqual([])
    expect(issues({ protocol: 'udp', lengthBytes: 70_000 })).toEqual(['lengthBytes: lengthBytes can be at most 65507 for UDP (the largest datagram)'])
    expect(issues({ serverOn: 'target' })).toEqual(['targetAddress: targetAddress is needed when the server runs on the target: the client on the peer must know where to connect'])
    expect(issues({ serverBind: '-D' })).toEqual(["serverBind: an address cannot start with '-': iperf would read it as an option"])
    expect(issues({ clientBind: '$(touch pwned); rm -rf ~' })).toEqual([expect.stringMatching(/^clientBind: an address must be a host name/)])
  })
})

describe('iperf plan', () => {
  it('study 000 exactly, with the text output: `iperf -s` on the peer, `iperf -c <peer> -r` on the target', () => {
    const p = planFor({ format: 'text' })
    expect(p.steps).toEqual([
      {
        id: 'server',
        on: 'peer',
        shell: 'sh',
        script: 'LC_ALL=C iperf -s',
        argv: ['iperf', '-s'],
        timeoutSeconds: 81,
        okExitCodes: [0],
        background: true,
        readyPattern: SERVER_READY,
        // the way back of -r may end after the client: the engine waits for the server's report of it
        finalReport: { pattern: WAY_BACK_REPORTED.tcp, withinSeconds: 25 }
      },
      {
        id: 'client',
        on: 'target',
        shell: 'sh',
        script: 'LC_ALL=C iperf -c itb-kvm2.mwt2.org -r',
        argv: ['iperf', '-c', 'itb-kvm2.mwt2.org', '-r'],
        timeoutSeconds: 51,
        okExitCodes: [0],
        measured: true
      }
    ])
    expect(p.estimatedSeconds).toBe(21)
    expect(p.files).toEqual([])
  })

  it('study 000 on port 12000 and with UDP: `-r -p 12000`, `-r -u`, `iperf -s -u`', () => {
    expect(planFor({ format: 'text', port: 12_000 }).steps.map((s) => s.argv)).toEqual([
      ['iperf', '-s', '-p', '12000'],
      ['iperf', '-c', 'itb-kvm2.mwt2.org', '-r', '-p', '12000']
    ])
    expect(planFor({ protocol: 'udp' }).steps.map((s) => s.argv)).toEqual([
      ['iperf', '-s', '-u'],
      ['iperf', '-c', 'itb-kvm2.mwt2.org', '-r', '-u']
    ])
  })

  it('adds -y C for TCP by default (exact numbers), after the study flags', () => {
    expect(planFor({}).steps[1]!.argv).toEqual(['iperf', '-c', 'itb-kvm2.mwt2.org', '-r', '-y', 'C'])
  })

  it('passes every option in a fixed order, the buffer options on both sides', () => {
    const p = planFor({ protocol: 'udp', direction: 'target->peer', seconds: 5, port: 5002, listenPort: 5003, parallel: 2, bitrate: 10_000_000, lengthBytes: 1400, windowBytes: 262_144, enhanced: true, serverBind: '10.0.0.1', clientBind: '10.0.0.2', format: 'csv' })
    expect(p.steps[0]!.argv).toEqual(['iperf', '-s', '-u', '-p', '5002', '-B', '10.0.0.1', '-w', '262144', '-l', '1400'])
    expect(p.steps[1]!.argv).toEqual(['iperf', '-c', 'itb-kvm2.mwt2.org', '-p', '5002', '-L', '5003', '-u', '-b', '10000000', '-t', '5', '-P', '2', '-l', '1400', '-w', '262144', '-B', '10.0.0.2', '-e', '-y', 'C'])
    expect(p.estimatedSeconds).toBe(6)
  })

  it.each([
    ['peer', 'both', '-r'],
    ['peer', 'target->peer', undefined],
    ['peer', 'peer->target', '-R'],
    ['target', 'both', '-r'],
    ['target', 'target->peer', '-R'],
    ['target', 'peer->target', undefined]
  ] as const)('server on the %s, data %s: %s', (serverOn, direction, flag) => {
    const [server, client] = planFor({ serverOn, direction, targetAddress: 'itb4.mwt2.org', format: 'text' }).steps
    expect(server!.on).toBe(serverOn)
    expect(client!.on).toBe(serverOn === 'peer' ? 'target' : 'peer')
    expect(client!.argv).toEqual(['iperf', '-c', serverOn === 'peer' ? 'itb-kvm2.mwt2.org' : 'itb4.mwt2.org', ...(flag ? [flag] : [])])
  })

  it('is for Linux machines only, and needs a peer', () => {
    expect(() => planFor({}, { target: { os: 'windows', workDir: 'C:\\vb' }, peer })).toThrow(
      'iperf 2 plans run on Linux, and the target is a Windows machine: use iperf3, which VirtBench also runs on Windows'
    )
    expect(() => planFor({}, { target: linux.target, peer: { ...peer, os: 'windows' } })).toThrow(/the peer is a Windows machine/)
    expect(() => planFor({}, { target: linux.target })).toThrow('iperf needs a peer machine to run its server on or to connect to: choose a peer for this test')
  })

  it("waits for the server's ready line, TCP or UDP, 2.0 or 2.1", () => {
    expect(SERVER_READY.test('------\nServer listening on TCP port 5001\nTCP window size: 85.3 KByte (default)\n')).toBe(true)
    expect(SERVER_READY.test('Server listening on UDP port 5001 with pid 123\n')).toBe(true)
    expect(SERVER_READY.test('listener bind failed: Address already in use\n')).toBe(false)
  })

  it('estimates both ways of -r one after the other', () => {
    expect(estimateSeconds(iperfParamsSchema.parse({ seconds: 30 }))).toBe(61)
    expect(estimateSeconds(iperfParamsSchema.parse({ seconds: 30, direction: 'peer->target' }))).toBe(31)
  })
})

describe('iperf plan: hostile values stay arguments', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vb-iperf-quote-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it.each(['$(touch pwned); rm -rf ~', "'; reboot #", '`touch pwned`', 'a b\tc'])('the peer address %j reaches iperf as one argument', (address) => {
    const stub = join(dir, 'fake iperf')
    writeFileSync(stub, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${dir}/argv"\n`)
    chmodSync(stub, 0o755)
    const ctx: PlanContext = { target: { os: 'linux', workDir: dir, toolPaths: { iperf: stub } }, peer: { ...peer, address } }
    const client = plan(iperfParamsSchema.parse({}), ctx).steps[1]!
    expect(client.argv).toEqual([stub, '-c', address, '-r', '-y', 'C'])
    execFileSync('sh', ['-c', client.script], { cwd: dir })
    expect(readFileSync(join(dir, 'argv'), 'utf8').split('\n').slice(0, -1)).toEqual(['-c', address, '-r', '-y', 'C'])
    expect(readdirSync(dir).sort()).toEqual(['argv', 'fake iperf'])
  })
})
