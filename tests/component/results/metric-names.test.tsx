import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { OverheadTable } from '../../../src/renderer/src/features/results/overhead-table'
import { metricName } from '../../../src/renderer/src/lib/metric-name'
import { compare } from '../../../src/shared/compare'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { loopbackRun } from '../run-fixture'

const comparison = compare(comparisonInputOf(loopbackRun()))

describe('metrics by people’s names', () => {
  it('words the ids of every tool', () => {
    expect(
      ['fio.read.iops', 'fio.write.clat.p99.9', 'fio.read.lat.mean', 'dd.lat.mean', 'ping.rtt.avg', 'iperf3.received.bandwidth', 'mbw.mcblock.bandwidth', 'sysbench.cpu.events', 'stress-ng.vm.ops-per-second', 'bonnie.put_block'].map(metricName)
    ).toEqual([
      'Read IOPS',
      'Write completion latency p99.9',
      'Mean read latency',
      'Mean latency',
      'Average round trip',
      'Received bandwidth',
      'Block memcpy bandwidth',
      'CPU events',
      'VM operations/s',
      'Block write'
    ])
    // a part no table knows stays as it is, never hidden behind a wrong name
    expect(metricName('newtool.foo_bar')).toBe('Foo bar')
  })

  it('labels the overhead table’s rows with names, and the ids on demand', async () => {
    const user = userEvent.setup()
    render(<OverheadTable comparison={comparison} />)
    const row = screen.getByRole('table').querySelector('tr[data-metric="fio.read.iops"]')!
    const name = within(row as HTMLElement).getByText('Read IOPS')
    expect(name.getAttribute('title')).toBe("fio.read.iops (the metric's id)")
    // the ids are in the page for whoever asks: hidden until "Metric ids" is ticked
    const table = screen.getByRole('table')
    expect(table.classList.contains('results-show-ids')).toBe(false)
    await user.click(screen.getByRole('checkbox', { name: 'Metric ids' }))
    expect(table.classList.contains('results-show-ids')).toBe(true)
    expect(row.querySelector('.results-metric-id')?.textContent).toBe('fio.read.iops')
    // no row is headed by a raw id any more
    const heads = [...table.querySelectorAll('.results-metric-name')].map((e) => e.textContent ?? '')
    expect(heads.length).toBeGreaterThan(0)
    expect(heads.filter((h) => /^[a-z0-9-]+\.[a-z0-9._-]+$/.test(h))).toEqual([])
  })
})
