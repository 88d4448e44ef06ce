import { render, type RenderResult } from '@testing-library/react'
import { createElement } from 'react'
import type { Catalog, PlanReview, PreflightReport, ReviewJob } from '../../../src/shared/catalog-contract'
import type { TargetView } from '../../../src/shared/targets-contract'
import { ComparisonPage } from '../../../src/renderer/src/features/comparison/comparison-page'
import { useAppStore } from '../../../src/renderer/src/store'
import { wizardInitialState } from '../../../src/renderer/src/store/wizard-slice'
import { fakeApi, type FakeApi, type FakeHandlers } from '../fake-api'

const AT = '2025-03-01T10:00:00.000Z'

/** A saved SSH target as targets:list gives it. */
export function targetView(
  name: string,
  role: 'host' | 'guest',
  extra: { address?: string; addresses?: { private?: string; public?: string }; virtualization?: string; osName?: string } = {}
): TargetView {
  return {
    target: {
      id: `t-${name}`,
      createdAt: AT,
      updatedAt: AT,
      name,
      role,
      kind: 'ssh',
      address: extra.address ?? `${name}.lab`,
      port: 22,
      user: 'bench',
      auth: { method: 'agent' },
      addresses: extra.addresses ?? {},
      sudo: 'passwordless',
      labels: {},
      ...(extra.virtualization || extra.osName
        ? { os: { family: 'linux' as const, name: extra.osName ?? 'Debian GNU/Linux 12 (bookworm)', virtualization: extra.virtualization, detectedAt: AT } }
        : {})
    },
    secrets: { password: false, passphrase: false, sudo: false },
    jumpChain: []
  }
}

export const INVENTORY: TargetView[] = [
  targetView('vm1', 'guest', { virtualization: 'kvm' }),
  targetView('host-01', 'host', { address: '192.0.2.10', addresses: { private: '10.0.0.10' }, virtualization: 'none' }),
  targetView('vm2', 'guest'),
  targetView('vm3', 'guest'),
  targetView('vm4', 'guest')
]

/** Two packs and three tools, shaped as catalog:get answers (parameters as main's JSON Schema). */
export const CATALOG: Catalog = {
  packs: [
    {
      id: 'block-dd',
      name: 'Block device dd',
      study: '002: Virtual block device performance',
      description: 'Throughput: one 1 GiB write with O_DIRECT. Latency: 1000 writes of 512 bytes with O_DIRECT.',
      tools: ['dd', 'dd'],
      categories: ['storage'],
      full: {
        seconds: 40,
        tests: [
          { id: 'dd-throughput', title: 'Throughput: 1 GiB O_DIRECT write', tool: 'dd', params: { mode: 'write', blockSize: '1G', count: '1' }, seconds: 30 },
          { id: 'dd-latency', title: 'Latency: 1000 x 512 B O_DIRECT writes', tool: 'dd', params: { mode: 'write', blockSize: '512', count: '1000' }, seconds: 10 }
        ]
      },
      quick: {
        seconds: 6,
        tests: [
          { id: 'dd-throughput', title: 'Throughput: 64 MiB O_DIRECT write', tool: 'dd', params: { mode: 'write', blockSize: '64M', count: '1' }, seconds: 4 },
          { id: 'dd-latency', title: 'Latency: 200 x 512 B O_DIRECT writes', tool: 'dd', params: { mode: 'write', blockSize: '512', count: '200' }, seconds: 2 }
        ]
      }
    },
    {
      id: 'cloud-acceptance',
      name: 'Cloud acceptance',
      study: '001: Cloud platform acceptance test',
      description: 'The six fio jobs of the acceptance study, UnixBench, mbw 512 MiB and iperf3 for 30 s, best of three.',
      tools: ['fio', 'fio', 'unixbench', 'mbw', 'iperf3'],
      categories: ['storage', 'cpu', 'memory', 'network'],
      full: {
        seconds: 4000,
        tests: [
          { id: 'fio-4k-randread', title: '4 KiB random read', tool: 'fio', params: { rw: 'randread' }, seconds: 60 },
          { id: 'fio-4k-randwrite', title: '4 KiB random write', tool: 'fio', params: { rw: 'randwrite' }, seconds: 60 },
          { id: 'unixbench', title: 'UnixBench', tool: 'unixbench', params: {}, seconds: 1800 },
          { id: 'mbw', title: 'Memory bandwidth (mbw 512 MiB)', tool: 'mbw', params: { sizeMiB: 512 }, seconds: 20 },
          { id: 'iperf3', title: 'TCP bandwidth (iperf3, 30 s, best of 3)', tool: 'iperf3', params: { seconds: 30 }, repetitions: 3, aggregate: 'best', seconds: 32 }
        ]
      },
      quick: {
        seconds: 200,
        tests: [
          { id: 'fio-4k-randread', title: '4 KiB random read', tool: 'fio', params: { rw: 'randread' }, seconds: 4 },
          { id: 'fio-4k-randwrite', title: '4 KiB random write', tool: 'fio', params: { rw: 'randwrite' }, seconds: 4 },
          { id: 'unixbench', title: 'UnixBench (1 pass)', tool: 'unixbench', params: {}, seconds: 120 },
          { id: 'mbw', title: 'Memory bandwidth (mbw 64 MiB)', tool: 'mbw', params: { sizeMiB: 64 }, seconds: 3 },
          { id: 'iperf3', title: 'TCP bandwidth (iperf3, 3 s, best of 3)', tool: 'iperf3', params: { seconds: 3 }, repetitions: 3, aggregate: 'best', seconds: 4 }
        ]
      }
    }
  ],
  tools: [
    {
      id: 'fio',
      name: 'fio',
      description: 'Flexible I/O tester: IOPS, bandwidth and latency of a storage pattern.',
      category: 'storage',
      network: false,
      paramsSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          rw: { default: 'randread', description: 'I/O pattern', type: 'string', enum: ['read', 'write', 'randread', 'randwrite'] },
          bs: { default: '4k', description: 'Block size of each I/O, like 4k or 1m', type: 'string' },
          iodepth: { default: 16, description: 'I/Os each job keeps in flight', type: 'integer', minimum: 1, maximum: 1024 },
          runtime: { default: 30, description: 'Seconds to run; null lets each job run until it has moved size bytes', anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
          direct: { default: true, description: 'Bypass the page cache with O_DIRECT', type: 'boolean' },
          rampTime: { description: 'Seconds to run before measuring starts', type: 'integer', minimum: 1, maximum: 3600 }
        }
      },
      // As main gives it: without the raw-device parameters, which only the plan's storage sets.
      defaults: { rw: 'randread', bs: '4k', iodepth: 16, runtime: 30, direct: true }
    },
    {
      id: 'dd',
      name: 'dd',
      description: 'Sequential throughput and latency with dd.',
      category: 'storage',
      network: false,
      paramsSchema: {
        type: 'object',
        properties: {
          mode: { default: 'write', type: 'string', enum: ['write', 'read'] },
          blockSize: { default: '1M', description: "Bytes per read and write (dd bs=), in dd's own notation", type: 'string' },
          count: { default: '1024', type: 'string' }
        }
      },
      defaults: { mode: 'write', blockSize: '1M', count: '1024' }
    },
    {
      id: 'iperf3',
      name: 'iperf3',
      description: 'TCP and UDP bandwidth between two machines.',
      category: 'network',
      network: true,
      paramsSchema: {
        type: 'object',
        properties: { seconds: { default: 10, type: 'integer', minimum: 1, maximum: 86400 } }
      },
      defaults: { seconds: 10 }
    }
  ]
}

/** A review job with one measured step on `target`. */
export function reviewJob(id: string, testId: string, target: string, command: string, repetition = 1): ReviewJob {
  return { id, testId, title: testId, tool: 'dd', repetition, target, steps: [{ on: target, command, measured: true }], seconds: 4 }
}

export function okReview(jobs: ReviewJob[], seconds = 120): PlanReview {
  return { ok: true, issues: [], jobs, seconds }
}

export const CLEAN_PREFLIGHT: PreflightReport = {
  findings: [{ severity: 'info', target: 'host-01', code: 'tool-present', message: 'dd is installed: /usr/bin/dd (coreutils 9.1)' }],
  targets: [
    { name: 'host-01', reachable: true, os: 'Debian GNU/Linux 12', virtualization: 'none' },
    { name: 'vm1', reachable: true, os: 'Debian GNU/Linux 12', virtualization: 'kvm' }
  ]
}

/** Resets the store to a fresh wizard with `handlers` behind the API, and renders the page. */
export function renderWizard(
  handlers: FakeHandlers = {},
  state: Partial<ReturnType<typeof useAppStore.getState>> = {}
): { api: FakeApi; view: RenderResult } {
  const api = fakeApi({ 'catalog:get': () => CATALOG, ...handlers })
  useAppStore.setState({
    api,
    page: 'comparison',
    targets: INVENTORY,
    targetsError: undefined,
    tests: {},
    hostKeyQuestions: [],
    ...wizardInitialState(),
    ...state
  })
  useAppStore.getState().watchTargets(api)
  const view = render(createElement(ComparisonPage))
  return { api, view }
}

/** The calls made to one channel, payloads only. */
export function callsTo(api: FakeApi, channel: string): unknown[] {
  return api.calls.filter((c) => c.channel === channel).map((c) => c.payload)
}

/** The text of the elements an element's aria-describedby names, as a screen reader reads it. */
export function description(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(/\s+/).filter(Boolean) ?? []
  return ids
    .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
    .filter(Boolean)
    .join(' ')
}

export function isChecked(element: HTMLElement): boolean {
  return (element as HTMLInputElement).checked
}

export function isDisabled(element: HTMLElement): boolean {
  return (element as HTMLButtonElement).disabled || element.getAttribute('aria-disabled') === 'true'
}
