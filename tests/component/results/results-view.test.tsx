import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ResultsView } from '../../../src/renderer/src/features/results/results-view'
import { compare } from '../../../src/shared/compare'
import { formatPct, formatValue } from '../../../src/shared/format'
import type { TargetEnvironment } from '../../../src/shared/model/environment'
import type { RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { loopbackRun } from '../run-fixture'
import { cellsOf, medianOf, metricRow, valuesOf } from './helpers'

function text(element: Element | undefined | null): string {
  return element?.textContent ?? ''
}

function summary(): HTMLElement {
  return screen.getByRole('banner')
}

describe('ResultsView of the loopback run', () => {
  it('sums the run up: name, status, dates, baseline, variant with its scenario, job counts', () => {
    const run = loopbackRun()
    render(<ResultsView run={run} />)
    const head = summary()
    expect(within(head).getByRole('heading', { level: 2 }).textContent).toBe(run.name)
    expect(text(head)).toContain('Completed')
    expect(head.querySelector(`time[datetime="${run.createdAt}"]`)).toBeTruthy()
    expect(head.querySelector(`time[datetime="${run.endedAt}"]`)).toBeTruthy()
    expect(text(head)).toContain('Baselinehost')
    // The variant's label, its name and its scenario in words (describeScenario).
    expect(text(head)).toContain('guest (cache=none) (guest) · KVM, local file (raw), cache=none, 1 queue, virtio-blk')
    const succeeded = run.jobs.filter((j) => j.status === 'succeeded').length
    expect(succeeded).toBe(run.jobs.length)
    expect(text(head)).toContain(`${run.jobs.length} jobs: ${succeeded} succeeded`)
  })

  it('does not claim published figures for a measured run', () => {
    render(<ResultsView run={loopbackRun()} />)
    expect(screen.queryByText('Published figures, not measured here.')).toBeNull()
  })

  it("shows the run's preflight findings with what to do", async () => {
    const user = userEvent.setup()
    const run = loopbackRun()
    render(<ResultsView run={run} />)
    const findings = screen.getByText('Preflight findings').closest('details') as HTMLDetailsElement
    expect(text(findings)).toContain('2 warnings')
    await user.click(within(findings).getByText('Preflight findings'))
    expect(findings.open).toBe(true)
    const first = run.preflight[0]!
    expect(text(findings)).toContain(first.message)
    expect(text(findings)).toContain(`What to do: ${first.fix}`)
  })

  it('places the overhead table with the figures compare() gives for the run', () => {
    const run = loopbackRun()
    render(<ResultsView run={run} />)
    const table = screen.getAllByRole('table').find((t) => t.classList.contains('results-table'))!
    const host = medianOf(valuesOf(run, 'host', 'fio-write', 'fio.write.bandwidth'))
    const guest = medianOf(valuesOf(run, 'guest (cache=none)', 'fio-write', 'fio.write.bandwidth'))
    const { baseline, variants } = cellsOf(metricRow(table, 'fio-write', 'fio.write.bandwidth'))
    expect(text(baseline)).toContain(formatValue(host, 'B/s'))
    expect(text(variants[0])).toContain(formatValue(guest, 'B/s'))
    expect(text(variants[0])).toContain(formatPct((guest / host) * 100))
  })

  it('places the charts (drawn in the frame after the table) and the method note', async () => {
    const run = loopbackRun()
    render(<ResultsView run={run} />)
    expect(screen.queryAllByRole('region', { name: /Charts/ })).toHaveLength(0)
    expect((await screen.findAllByRole('region', { name: /Charts/ })).length).toBeGreaterThan(0)
    const method = compare(comparisonInputOf(run)).method
    expect(screen.getByText(method)).toBeTruthy()
  })

  it("shows each target's environment once opened", async () => {
    const user = userEvent.setup()
    render(<ResultsView run={loopbackRun()} />)
    expect(screen.queryByRole('group', { name: 'Environment of host' })).toBeNull()
    await user.click(screen.getByText('(baseline)'))
    const panel = screen.getByRole('group', { name: 'Environment of host' })
    expect(text(panel)).toContain('Debian GNU/Linux 12 (bookworm)')
    expect(text(panel)).toContain('6.18.44-fc-v657')
    expect(text(panel)).toContain('AMD EPYC × 2')
    expect(text(panel)).toContain(formatValue(25276510208, 'B'))
    expect(text(panel)).toContain('kvm, by systemd-detect-virt')
    expect(text(panel)).toContain('Clock sourcetsc')
    expect(text(panel)).toContain(`Steal time since boot${formatValue(0.03441936759092509, '%')}`)
    const devices = within(panel).getByRole('table', { name: 'Block devices of host' })
    const vda = within(devices).getByRole('row', { name: /vda/ })
    expect(within(vda).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      formatValue(274877906944, 'B'),
      'not reported',
      'mq-deadline',
      'yes',
      'write back',
      '1'
    ])
    const nics = within(panel).getByRole('table', { name: 'Network interfaces of host' })
    expect(text(within(nics).getByRole('row', { name: /eth0/ }))).toContain('virtio_net')
    expect(text(panel)).toContain('fio-3.33')
    expect(text(panel)).toContain('ethtool is not installed: NIC channels not read')
  })

  it('finds the two loopback targets identical where it matters (every fact reads the same)', () => {
    render(<ResultsView run={loopbackRun()} />)
    // the export panel has a status line of its own (empty until something is saved)
    expect(screen.getAllByRole('status').map(text).filter((t) => t.includes('Identical'))).toHaveLength(1)
  })
})

/** The loopback run with the environment of `target` changed as `change` says. */
function withEnvironment(run: RunDocument, target: 'host' | 'guest', change: Partial<TargetEnvironment>): RunDocument {
  return { ...run, environment: { ...run.environment, [target]: { ...run.environment[target]!, ...change } } }
}

/** The loopback run, with the guest's environment changed in a few places. */
function runWithDifferentGuest(): RunDocument {
  return withEnvironment(loopbackRun(), 'guest', {
    kernel: '6.1.0-18-amd64',
    cpuCount: 4,
    nics: [{ name: 'eth0', driver: 'virtio_net', speedBitsPerSecond: 10e9, addresses: ['192.0.2.2/24', 'fd00::2/64', 'fe80::fc:ff:fe00:1/64'] }, { name: 'ifb0' }, { name: 'ifb1' }]
  })
}

const MACHINE_ID = '5f3c2a9e8b7d4c1f9a0e6b2d4c8f1a37'

/**
 * The loopback run as it is: both targets are the one test machine. Its capture predates machine
 * and boot ids; here they are the ids that machine would report, with the guest's boot id given.
 */
function runOnOneMachine(guestBootId: string): RunDocument {
  const host = withEnvironment(loopbackRun(), 'host', { machineId: MACHINE_ID, bootId: 'e0b1d6a2-4c59-4f1e-9d1b-7c3a2f6e8b10' })
  return withEnvironment(host, 'guest', { machineId: MACHINE_ID, bootId: guestBootId })
}

describe('EnvironmentDiff in the results', () => {
  it('shows only the facts that differ, both values side by side', () => {
    render(<ResultsView run={runWithDifferentGuest()} />)
    const diff = screen.getByRole('table', { name: /differ between host and guest/ })
    const rows = within(diff).getAllByRole('row').slice(1)
    expect(rows.map((r) => r.getAttribute('data-field'))).toEqual(['kernel', 'cpuCount', 'nic.eth0.speed'])
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['6.18.44-fc-v657', '6.1.0-18-amd64'])
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['2', '4'])
    expect(within(rows[2]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['not reported', formatValue(10e9, 'bit/s')])
    expect(text(diff)).not.toContain('Debian')
  })

  it('compares the targets the two lists pick', async () => {
    const user = userEvent.setup()
    render(<ResultsView run={runWithDifferentGuest()} />)
    const first = screen.getByRole('combobox', { name: 'First target' })
    const second = screen.getByRole('combobox', { name: 'Second target' })
    expect((first as HTMLSelectElement).value).toBe('host')
    expect((second as HTMLSelectElement).value).toBe('guest')

    await user.selectOptions(first, 'guest')
    expect(screen.getByText('Pick two different targets.')).toBeTruthy()

    await user.selectOptions(second, 'host')
    const diff = screen.getByRole('table', { name: /differ between guest \(cache=none\) and host/ })
    const kernel = within(diff).getByRole('row', { name: /Kernel/ })
    expect(within(kernel).getAllByRole('cell').map((c) => c.textContent)).toEqual(['6.1.0-18-amd64', '6.18.44-fc-v657'])
  })
})

describe('ResultsView of other runs', () => {
  it('labels published figures as not measured here, with their source', () => {
    const run: RunDocument = {
      ...loopbackRun(),
      source: {
        kind: 'published',
        title: 'Study 001: cloud platform acceptance test',
        citation: 'seeds/001_ff534fec0fc2706a.txt',
        note: 'Typed in from the study; one value per cell, no raw output.'
      }
    }
    render(<ResultsView run={run} />)
    const banner = screen.getByRole('note', { name: 'Published figures, not measured here' })
    expect(text(banner)).toContain('Published figures, not measured here.')
    expect(text(banner)).toContain('Typed in from the study; one value per cell, no raw output.')
    expect(text(banner)).toContain('Study 001: cloud platform acceptance test')
    expect(text(banner)).toContain('seeds/001_ff534fec0fc2706a.txt')
  })

  it('shows a declared-vs-detected scenario mismatch loudly, with both values', async () => {
    const user = userEvent.setup()
    const message = 'guest is declared cache=none, but the host runs its disk vda with cache=writeback'
    const run = withEnvironment(loopbackRun(), 'guest', { scenarioMismatches: [{ field: 'cache', declared: 'none', detected: 'writeback', message }] })
    render(<ResultsView run={run} />)

    const section = screen.getByRole('region', { name: 'Check these first' })
    const mismatch = within(section).getByRole('table', { name: 'Declared and detected setup of guest (cache=none)' })
    const cache = within(mismatch).getByRole('row', { name: /cache/ })
    expect(within(cache).getAllByRole('cell').map((c) => c.textContent)).toEqual(['none', '≠ writeback'])

    await user.click(within(section).getByText('Declared setup differs from the detected one'))
    expect(text(section)).toContain(message)
    expect(text(section)).toContain('correct the plan')
  })
})

describe('Check these first: the baseline and the machines', () => {
  it('says first that the baseline is itself a virtual machine, as its capture found, and what that means', async () => {
    const user = userEvent.setup()
    const run = loopbackRun()
    expect([run.environment.host!.virtualization, run.environment.host!.virtualizationSource]).toEqual(['kvm', 'systemd-detect-virt'])
    render(<ResultsView run={run} />)
    const section = screen.getByRole('region', { name: 'Check these first' })
    const banner = section.querySelector('[data-baseline]') as HTMLElement
    expect(banner.dataset.baseline).toBe('host')
    expect(text(banner.querySelector('strong'))).toBe(' host (baseline)')
    // the loopback guest is not flagged: the capture of this run had no machine or boot ids
    expect(section.querySelector('[data-variant]')).toBeNull()

    const details = within(banner).getByText('The baseline is a virtual machine').closest('details') as HTMLDetailsElement
    expect(details.open).toBe(false)
    expect(text(details)).toContain('· host (baseline)')
    await user.click(within(banner).getByText('The baseline is a virtual machine'))
    expect(details.open).toBe(true)
    expect(text(details)).toContain('the overhead of virtualization is hidden in the baseline')
    expect(text(details)).toContain('What was seen: The baseline host is itself a virtual machine (kvm, by systemd-detect-virt).')
  })

  it('has nothing to check first when the baseline is bare metal and every setup matches', () => {
    render(<ResultsView run={withEnvironment(loopbackRun(), 'host', { virtualization: 'none' })} />)
    expect(screen.queryByRole('region', { name: 'Check these first' })).toBeNull()
    expect(screen.queryByText('The baseline is a virtual machine')).toBeNull()
  })

  it('warns that the guest is the baseline machine itself when both report one machine id and boot id', async () => {
    const user = userEvent.setup()
    render(<ResultsView run={runOnOneMachine('e0b1d6a2-4c59-4f1e-9d1b-7c3a2f6e8b10')} />)
    const section = screen.getByRole('region', { name: 'Check these first' })
    const banner = section.querySelector('[data-variant="guest (cache=none)"]') as HTMLElement
    expect(text(banner.querySelector('strong'))).toBe(' guest (cache=none)')
    await user.click(within(banner).getByText('One machine measured twice'))
    expect(text(banner)).toContain('What was seen: guest (cache=none) and the baseline host are the same machine (same machine id and boot id).')
    expect(text(banner)).toContain('they share one kernel, one CPU and one disk')
    // the baseline's own warning stays
    expect(section.querySelector('[data-baseline="host"]')).not.toBeNull()
  })

  it('says the two targets are one machine in the environment difference, instead of "Identical"', () => {
    render(<ResultsView run={runOnOneMachine('e0b1d6a2-4c59-4f1e-9d1b-7c3a2f6e8b10')} />)
    const warning = screen.getAllByRole('status').find((s) => s.classList.contains('results-env-same-machine'))!
    expect(text(warning)).toBe(
      'host and guest (cache=none) are the same machine: the same machine id and boot id. Comparing them measures that machine against itself, not a guest against its host.'
    )
    expect(screen.getAllByRole('status').map(text).filter((t) => t.includes('Identical'))).toEqual([])
  })

  it('takes one machine id with two boot ids for two systems (a cloned image), with no warning', () => {
    render(<ResultsView run={runOnOneMachine('9a4e7c21-0d3b-4b8f-a6e2-51c9f0d7b344')} />)
    expect(screen.queryByText('One machine measured twice')).toBeNull()
    expect(document.querySelector('.results-env-same-machine')).toBeNull()
    expect(screen.getAllByRole('status').map(text).filter((t) => t.includes('Identical'))).toHaveLength(1)
  })
})
