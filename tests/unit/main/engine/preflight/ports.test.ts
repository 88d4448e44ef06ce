import { describe, expect, it } from 'vitest'
import { evaluatePreflight } from '../../../../../src/main/engine/preflight/evaluate'
import type { PreflightFacts } from '../../../../../src/main/engine/preflight/facts'
import { parsePortFacts } from '../../../../../src/main/engine/preflight/parse'
import { serverPortsByTarget } from '../../../../../src/main/engine/preflight/ports'

const job = (tool: 'iperf3' | 'iperf' | 'ping' | 'fio', target: string, peer: string | undefined, params: Record<string, unknown> = {}) => ({ tool, target, peer, params })

describe('serverPortsByTarget', () => {
  it('puts each server port on the machine that runs the server, once, with the tool defaults', () => {
    const ports = serverPortsByTarget([
      job('iperf3', 'host', 'peer'),
      job('iperf3', 'guest', 'peer'),
      job('iperf3', 'guest', 'peer', { port: 5202 }),
      job('iperf', 'guest', 'peer'),
      job('iperf3', 'guest', 'peer', { serverOn: 'target', targetAddress: '10.0.0.3', port: 6000 }),
      job('ping', 'guest', 'peer'),
      job('fio', 'guest', undefined)
    ])
    expect(Object.fromEntries(ports)).toEqual({
      peer: [
        { port: 5201, tool: 'iperf3' },
        { port: 5202, tool: 'iperf3' },
        { port: 5001, tool: 'iperf' }
      ],
      guest: [{ port: 6000, tool: 'iperf3' }]
    })
  })
})

describe('parsePortFacts', () => {
  it('reads each asked port, and calls one it has no good line for unknown', () => {
    const text = ['port\t5201\tlistening\tiperf3 (pid 42)', 'port\t5202\tfree', 'port\tx\tfree', 'port\t5203\tmaybe'].join('\n')
    expect(parsePortFacts(text, [5201, 5202, 5203, 5204, 5201])).toEqual([
      { port: 5201, state: 'listening', program: 'iperf3 (pid 42)' },
      { port: 5202, state: 'free' },
      { port: 5203, state: 'unknown' },
      { port: 5204, state: 'unknown' }
    ])
  })
})

describe('the port findings', () => {
  const facts = (ports: PreflightFacts['ports']): PreflightFacts => ({ tools: { iperf3: { found: true } }, problems: [], ...(ports ? { ports } : {}) })
  const findings = (ports: PreflightFacts['ports']) =>
    evaluatePreflight({
      storage: { kind: 'directory', path: '/tmp' },
      targets: [{ name: 'peer', role: 'peer', facts: facts(ports), tools: ['iperf3'], servers: [{ port: 5201, tool: 'iperf3' }] }]
    }).filter((f) => f.code.startsWith('port-'))

  it('refuses a port another program listens on, saying which and what to do', () => {
    expect(findings([{ port: 5201, state: 'listening', program: 'nginx (pid 7)' }])).toEqual([
      {
        severity: 'error',
        target: 'peer',
        code: 'port-taken',
        message: `TCP port 5201, where iperf3's server must listen on peer, is taken already by nginx (pid 7): every iperf3 job with its server there would fail ("Address already in use").`,
        fix: 'Stop nginx (pid 7) on peer, or give the test another port (its "port" setting), then run the checks again.'
      }
    ])
    expect(findings([{ port: 5201, state: 'listening' }])[0]?.message).toContain("taken already by a program the login user may not see (another user's)")
  })

  it('is quiet for a free port or one not asked about, and warns when it could not be read', () => {
    expect(findings([{ port: 5201, state: 'free' }])).toEqual([])
    expect(findings(undefined)).toEqual([])
    expect(findings([{ port: 5201, state: 'unknown' }]).map((f) => [f.severity, f.code])).toEqual([['warning', 'port-not-checked']])
  })
})
