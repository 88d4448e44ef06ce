import { describe, expect, it } from 'vitest'
import { hostMonitorFindings, hostsToMonitor, openMonitorHost, unreachedHostWarning } from '../../../../../src/main/engine/monitor/monitor-hosts'
import { LocalSession } from '../../../../../src/main/ssh/local-session'
import type { Session } from '../../../../../src/main/ssh/types'

describe('hostsToMonitor', () => {
  it('pairs each guest with the host its target names, saying whether that host is in the run, and lists the variants that name none', () => {
    const inRun = (name: string): boolean => ['hv-guest', 'vm-guest', 'phys'].includes(name.toLowerCase())
    const pairs = hostsToMonitor(
      [
        { name: 'hv-guest', role: 'baseline', hostName: 'HV-Host' },
        { name: 'vm-guest', role: 'variant', hostName: 'phys' },
        { name: 'bare', role: 'variant' },
        { name: 'phys', role: 'peer' },
        { name: 'self', role: 'variant', hostName: 'SELF' }
      ],
      inRun
    )
    expect(pairs).toEqual({
      monitored: [
        { guest: 'hv-guest', host: 'HV-Host', inRun: false },
        { guest: 'vm-guest', host: 'phys', inRun: true }
      ],
      // a physical baseline or a peer names no host and is not listed; a target naming itself is neither
      unnamed: ['bare']
    })
  })
})

describe('hostMonitorFindings', () => {
  it('says which host is monitored and why, warns about the one not reached (with the reason), and never gives an error', () => {
    const findings = hostMonitorFindings(
      {
        monitored: [
          { guest: 'hv-guest', host: 'hv-host', inRun: false },
          { guest: 'vm-guest', host: 'phys', inRun: true },
          { guest: 'lost-guest', host: 'Lost-Host', inRun: false }
        ],
        unnamed: ['bare']
      },
      new Map([['lost-host', 'connection refused']])
    )
    expect(findings.map((f) => [f.severity, f.code, f.target])).toEqual([
      ['info', 'host-monitored', 'hv-host'],
      ['info', 'host-monitored', 'phys'],
      ['warning', 'host-monitor-unreachable', 'Lost-Host'],
      ['info', 'host-not-monitored', 'bare']
    ])
    expect(findings[0]!.message).toContain('not a target of this run, so VirtBench opened a monitoring-only session to it')
    expect(findings[1]!.message).toContain('a target of this run')
    expect(findings[2]!.message).toContain('Lost-Host, the host lost-guest runs on, could not be reached (connection refused)')
    expect(findings[2]!.fix).toContain("'virtbench targets test Lost-Host'")
  })

  it('words the job warning so the reports quote it as the host monitor’s failure', () => {
    expect(unreachedHostWarning('lost-host', 'no answer within 60 s')).toBe('host monitor on lost-host: not reached before the jobs (no answer within 60 s)')
  })
})

describe('openMonitorHost', () => {
  it('gives the session of a host that answers', async () => {
    const local = new LocalSession({ label: 'host' })
    try {
      const opened = await openMonitorHost(() => Promise.resolve(local), 'host')
      expect(opened).toEqual({ session: local })
    } finally {
      await local.close()
    }
  })

  it('gives the reason, never throws, for a host that refuses, is not POSIX or never answers', async () => {
    expect(await openMonitorHost(() => Promise.reject(new Error('connection refused')), 'h')).toEqual({ problem: 'connection refused' })
    const windows = { facts: () => Promise.resolve({ shell: 'windows', system: 'Windows' }) } as unknown as Session
    expect(await openMonitorHost(() => Promise.resolve(windows), 'h')).toEqual({ problem: "it runs Windows, and the monitor reads Linux's /proc/diskstats" })
    // a host-key question nobody answers: the deadline ends the wait
    expect(await openMonitorHost(() => new Promise<Session>(() => undefined), 'h', 20)).toEqual({ problem: 'no answer within 0.02 s' })
  })
})
