import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { iperf3Defaults, iperf3ParamsSchema, type Iperf3ParamsInput } from '../../../../../src/main/tools/iperf3/params'
import { clientArgv, estimateSeconds, plan, SERVER_READY } from '../../../../../src/main/tools/iperf3/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const peer = { os: 'linux' as const, workDir: '/srv/vb', address: '10.127.100.3' }
const linux: PlanContext = { target: { os: 'linux', workDir: '/srv/vb' }, peer }

function planFor(input: Iperf3ParamsInput, ctx: PlanContext = linux) {
  return plan(iperf3ParamsSchema.parse(input), ctx)
}

function issues(input: unknown): string[] {
  const r = iperf3ParamsSchema.safeParse(input)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('iperf3 params', () => {
  it('defaults to a 10 s TCP test from the target to a server on the peer', () => {
    expect(iperf3Defaults).toEqual({ protocol: 'tcp', direction: 'target->peer', seconds: 10, omitSeconds: 0, parallel: 1, serverOn: 'peer' })
  })

  it('refuses values iperf3 would refuse or misread, with the reason', () => {
    expect(issues({ seconds: 0 })).toEqual(['seconds: seconds must be at least 1 (iperf3 reads -t 0 as "run forever")'])
    expect(issues({ seconds: 0.5 })).toEqual(['seconds: seconds must be a whole number of seconds'])
    expect(issues({ seconds: 86_401 })).toEqual(["seconds: seconds can be at most 86400 (iperf3's limit of one day)"])
    expect(issues({ parallel: 129 })).toEqual(['parallel: parallel can be at most 128 streams (iperf3 refuses more)'])
    expect(issues({ port: 70_000 })).toEqual(['port: port must be between 1 and 65535'])
    expect(issues({ bitrate: -1 })).toEqual(['bitrate: bitrate cannot be negative'])
    expect(issues({ protocol: 'udp', lengthBytes: 65_508 })).toEqual(['lengthBytes: lengthBytes can be at most 65507 for UDP (the largest datagram)'])
    expect(issues({ direction: 'sideways' })).toHaveLength(1)
    expect(issues({ serverOn: 'target' })).toEqual(['targetAddress: targetAddress is needed when the server runs on the target: the client on the peer must know where to connect'])
  })

  it('accepts only addresses for --bind and targetAddress, never options or shell', () => {
    expect(issues({ serverBind: '--help' })).toEqual(["serverBind: an address cannot start with '-': iperf would read it as an option"])
    expect(issues({ clientBind: '$(touch pwned); rm -rf ~' })).toEqual([expect.stringMatching(/^clientBind: an address must be a host name/)])
    expect(issues({ serverOn: 'target', targetAddress: "'; reboot #" })).toEqual([expect.stringMatching(/^targetAddress: an address must be a host name/)])
    for (const ok of ['10.127.100.3', 'peer.example.com', '::1', 'fe80::1%eth0']) expect(issues({ serverBind: ok, clientBind: ok })).toEqual([])
  })
})

describe('iperf3 plan', () => {
  it("study 001: `iperf3 -s --bind 10.127.100.3` on the peer, `iperf3 -c 10.127.100.3 -t 30` on the target, plus -1 --forceflush and -J", () => {
    const p = planFor({ seconds: 30, serverBind: '10.127.100.3' })
    expect(p.steps).toEqual([
      {
        id: 'server',
        on: 'peer',
        shell: 'sh',
        script: 'iperf3 -s --bind 10.127.100.3 -1 --forceflush',
        argv: ['iperf3', '-s', '--bind', '10.127.100.3', '-1', '--forceflush'],
        timeoutSeconds: 90,
        okExitCodes: [0],
        background: true,
        readyPattern: SERVER_READY
      },
      {
        id: 'client',
        on: 'target',
        shell: 'sh',
        script: 'iperf3 -c 10.127.100.3 -t 30 -J',
        argv: ['iperf3', '-c', '10.127.100.3', '-t', '30', '-J'],
        timeoutSeconds: 60,
        okExitCodes: [0],
        measured: true
      }
    ])
    expect(p.files).toEqual([])
    expect(p.estimatedSeconds).toBe(31)
  })

  it('passes every option in a fixed order, each value its own argument', () => {
    const p = planFor({ protocol: 'udp', seconds: 5, omitSeconds: 2, parallel: 4, port: 5202, bitrate: 10_000_000, lengthBytes: 1400, windowBytes: 262_144, serverBind: '10.0.0.1', clientBind: '10.0.0.2' })
    expect(p.steps[0]!.argv).toEqual(['iperf3', '-s', '-p', '5202', '--bind', '10.0.0.1', '-1', '--forceflush'])
    expect(p.steps[1]!.argv).toEqual(['iperf3', '-c', '10.127.100.3', '-p', '5202', '-t', '5', '-O', '2', '-P', '4', '-u', '-b', '10000000', '-l', '1400', '-w', '262144', '--bind', '10.0.0.2', '-J'])
    expect(p.estimatedSeconds).toBe(8)
    expect(p.steps[1]!.timeoutSeconds).toBe(37)
  })

  it.each([
    ['peer', 'target->peer', undefined],
    ['peer', 'peer->target', '-R'],
    ['peer', 'both', '--bidir'],
    ['target', 'target->peer', '-R'],
    ['target', 'peer->target', undefined],
    ['target', 'both', '--bidir']
  ] as const)('server on the %s, data %s: %s', (serverOn, direction, flag) => {
    const p = planFor({ serverOn, direction, targetAddress: '10.1.5.102' })
    const [server, client] = p.steps
    expect(server!.on).toBe(serverOn)
    expect(client!.on).toBe(serverOn === 'peer' ? 'target' : 'peer')
    expect(client!.argv).toEqual(['iperf3', '-c', serverOn === 'peer' ? '10.127.100.3' : '10.1.5.102', '-t', '10', ...(flag ? [flag] : []), '-J'])
  })

  it('runs iperf3.exe through PowerShell on a Windows machine and keeps its exit code', () => {
    const ctx: PlanContext = { target: { os: 'windows', workDir: 'C:\\vb', toolPaths: { iperf3: 'C:\\Tools\\iperf3\\iperf3.exe' } }, peer }
    const [server, client] = planFor({ seconds: 30 }, ctx).steps
    expect(server).toMatchObject({ shell: 'sh', script: 'iperf3 -s -1 --forceflush' })
    expect(client).toMatchObject({
      shell: 'powershell',
      argv: ['C:\\Tools\\iperf3\\iperf3.exe', '-c', '10.127.100.3', '-t', '30', '-J'],
      script: "& 'C:\\Tools\\iperf3\\iperf3.exe' '-c' '10.127.100.3' '-t' '30' '-J'\nexit $LASTEXITCODE"
    })
    const windowsPeer = planFor({}, { target: linux.target, peer: { ...peer, os: 'windows' } }).steps[0]!
    expect(windowsPeer.script).toBe("& 'iperf3.exe' '-s' '-1' '--forceflush'\nexit $LASTEXITCODE")
  })

  it('needs a peer, and an address to connect to', () => {
    expect(() => planFor({}, { target: linux.target })).toThrow('iperf3 needs a peer machine to run its server on or to connect to: choose a peer for this test')
    expect(() => planFor({}, { ...linux, peer: { ...peer, address: '' } })).toThrow("iperf3: the peer has no address to connect to; set the peer's address")
    expect(() => planFor({}, { ...linux, peer: { ...peer, address: '-d' } })).toThrow(`iperf3: the address "-d" starts with '-', which iperf3 would read as an option`)
    const noTarget = { ...iperf3ParamsSchema.parse({ serverOn: 'target', targetAddress: 'x' }), targetAddress: undefined }
    expect(() => plan(noTarget, linux)).toThrow('iperf3: with the server on the target, the client on the peer needs the target\'s address; set targetAddress')
  })

  it("waits for the server's ready line, which iperf3 prints with the port", () => {
    expect(SERVER_READY.test('-----------------------------------------------------------\nServer listening on 5201 (test #1)\n')).toBe(true)
    expect(SERVER_READY.test('iperf3: error - unable to start listener for connections: Address already in use\n')).toBe(false)
  })

  it('estimates the timed part plus a second', () => {
    expect(estimateSeconds(iperf3ParamsSchema.parse({ seconds: 30, omitSeconds: 3 }))).toBe(34)
  })
})

describe('iperf3 plan: hostile values stay arguments', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vb-iperf3-quote-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  /** Runs a step's sh script with a stand-in iperf3 that writes its arguments, one per line. */
  function argvSeenBySh(script: string): string[] {
    const stub = join(dir, 'fake-iperf3')
    writeFileSync(stub, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${dir}/argv"\n`)
    chmodSync(stub, 0o755)
    execFileSync('sh', ['-c', script], { cwd: dir })
    return readFileSync(join(dir, 'argv'), 'utf8').split('\n').slice(0, -1)
  }

  it.each(['$(touch pwned); rm -rf ~', "'; reboot #", '`touch pwned`', 'a b\tc'])('the peer address %j', (address) => {
    const ctx: PlanContext = { target: { os: 'linux', workDir: dir, toolPaths: { iperf3: join(dir, 'fake-iperf3') } }, peer: { ...peer, address } }
    const client = plan(iperf3ParamsSchema.parse({}), ctx).steps[1]!
    expect(client.argv).toEqual([join(dir, 'fake-iperf3'), '-c', address, '-t', '10', '-J'])
    expect(argvSeenBySh(client.script)).toEqual(client.argv!.slice(1))
    expect(readdirSync(dir).sort()).toEqual(['argv', 'fake-iperf3'])
  })

  it('a tool path with quotes and $(…) in it, for sh and PowerShell', () => {
    const bin = join(dir, "it's $(touch pwned)")
    const ctx: PlanContext = { target: { os: 'linux', workDir: dir, toolPaths: { iperf3: bin } }, peer }
    const client = plan(iperf3ParamsSchema.parse({}), ctx).steps[1]!
    expect(client.script).toBe(`'${bin.replace(/'/g, `'\\''`)}' -c 10.127.100.3 -t 10 -J`)
    const windows = plan(iperf3ParamsSchema.parse({}), { target: { os: 'windows', workDir: 'C:\\vb', toolPaths: { iperf3: "C:\\it's\\iperf3.exe" } }, peer: { ...peer, address: "'; Restart-Computer #" } })
    expect(windows.steps[1]!.script).toBe("& 'C:\\it''s\\iperf3.exe' '-c' '''; Restart-Computer #' '-t' '10' '-J'\nexit $LASTEXITCODE")
  })

  it('clientArgv keeps the address one argument even if it looks like a flag value list', () => {
    expect(clientArgv(iperf3Defaults, '10.0.0.1 -R')).toEqual(['iperf3', '-c', '10.0.0.1 -R', '-t', '10', '-J'])
  })
})
