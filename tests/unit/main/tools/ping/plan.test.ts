import { describe, expect, it } from 'vitest'
import { pingDefaults, pingParamsSchema, type PingParamsInput } from '../../../../../src/main/tools/ping/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/ping/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const peer = { os: 'linux' as const, workDir: '/srv/vb', address: '10.1.4.122' }
const linux: PlanContext = { target: { os: 'linux', workDir: '/srv/vb' }, peer }
const windows: PlanContext = { target: { os: 'windows', workDir: 'C:\\vb' }, peer }

function planFor(input: PingParamsInput, ctx: PlanContext = linux) {
  return plan(pingParamsSchema.parse(input), ctx)
}

describe('ping params', () => {
  it('defaults to 10 requests to the peer, everything else left to ping', () => {
    expect(pingDefaults).toEqual({ count: 10 })
  })

  it('refuses values ping would refuse or misread', () => {
    const issues = (input: unknown) => {
      const r = pingParamsSchema.safeParse(input)
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    }
    expect(issues({ count: 0 })).toEqual(['count: count must be at least 1 packet'])
    expect(issues({ count: 2.5 })).toEqual(['count: count must be a whole number of packets'])
    expect(issues({ intervalSeconds: 0.001 })).toEqual([expect.stringMatching(/^intervalSeconds: intervalSeconds must be at least 0.002 s/)])
    expect(issues({ sizeBytes: 70000 })).toEqual(['sizeBytes: sizeBytes can be at most 65500 bytes'])
    expect(issues({ host: '-f' })).toEqual(["host: a host cannot start with '-': ping would read it as an option"])
    expect(issues({ host: '$(touch pwned); rm -rf ~' })).toEqual([expect.stringMatching(/^host: a host must be a host name/)])
    expect(issues({ host: "'; reboot #" })).toEqual([expect.stringMatching(/^host: a host must be a host name/)])
    for (const ok of ['10.1.4.122', 'itb-kvm2.mwt2.org', 'peer', '::1', 'fe80::1%eth0', '2001:db8::1']) expect(issues({ host: ok })).toEqual([])
  })
})

describe('ping plan: Linux', () => {
  it('study 000: ping -c 10 <peer address>, with LC_ALL=C, loss (exit 1) counted as success', () => {
    const p = planFor({})
    expect(p.steps).toEqual([
      {
        id: 'ping',
        on: 'target',
        shell: 'sh',
        script: 'LC_ALL=C ping -c 10 10.1.4.122',
        argv: ['ping', '-c', '10', '10.1.4.122'],
        timeoutSeconds: 50,
        okExitCodes: [0, 1],
        measured: true
      }
    ])
    expect(p.files).toEqual([])
  })

  it('adds interval, size, deadline and reply timeout, and pings an explicit host instead of the peer', () => {
    const p = planFor({ count: 3, intervalSeconds: 0.2, sizeBytes: 1000, deadlineSeconds: 5, replyTimeoutSeconds: 1, host: 'itb4.mwt2.org' })
    expect(p.steps[0]!.argv).toEqual(['ping', '-c', '3', '-i', '0.2', '-s', '1000', '-w', '5', '-W', '1', 'itb4.mwt2.org'])
  })

  it.each(['$(touch pwned); rm -rf ~', "'; reboot #"])('quotes a hostile peer address: %s', (address) => {
    const p = planFor({}, { ...linux, peer: { ...peer, address } })
    expect(p.steps[0]!.script).toBe(`LC_ALL=C ping -c 10 '${address.replace(/'/g, `'\\''`)}'`)
    expect(p.steps[0]!.argv).toEqual(['ping', '-c', '10', address])
  })

  it('refuses a peer address that ping would take for an option, and a missing host', () => {
    expect(() => planFor({}, { ...linux, peer: { ...peer, address: '-f' } })).toThrow(/starts with '-'/)
    expect(() => planFor({}, { target: linux.target })).toThrow(/ping needs a host/)
  })
})

describe('ping plan: Windows', () => {
  it('ping.exe -n 10 <peer>, as a PowerShell call that passes on its exit code', () => {
    const step = planFor({}, windows).steps[0]!
    expect(step).toMatchObject({
      shell: 'powershell',
      argv: ['ping.exe', '-n', '10', '10.1.4.122'],
      script: "& 'ping.exe' '-n' '10' '10.1.4.122'\nexit $LASTEXITCODE",
      okExitCodes: [0, 1]
    })
  })

  it('maps size to -l and the reply timeout to -w in milliseconds', () => {
    expect(planFor({ sizeBytes: 1000, replyTimeoutSeconds: 2 }, windows).steps[0]!.argv).toEqual(['ping.exe', '-n', '10', '-l', '1000', '-w', '2000', '10.1.4.122'])
  })

  it("quotes a hostile address for PowerShell", () => {
    const step = planFor({}, { ...windows, peer: { ...peer, address: "'; Restart-Computer #" } }).steps[0]!
    expect(step.script).toBe("& 'ping.exe' '-n' '10' '''; Restart-Computer #'\nexit $LASTEXITCODE")
  })

  it('refuses options ping.exe does not have', () => {
    expect(() => planFor({ intervalSeconds: 0.5 }, windows)).toThrow(/no interval option/)
    expect(() => planFor({ deadlineSeconds: 5 }, windows)).toThrow(/no deadline option/)
  })
})

describe('ping estimateSeconds', () => {
  it('is one interval per request plus the wait for the last reply, or the deadline', () => {
    expect(estimateSeconds(pingParamsSchema.parse({}))).toBe(11)
    expect(estimateSeconds(pingParamsSchema.parse({ count: 3, intervalSeconds: 0.2 }))).toBe(2)
    expect(estimateSeconds(pingParamsSchema.parse({ count: 100, deadlineSeconds: 5 }))).toBe(5)
  })
})
