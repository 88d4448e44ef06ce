import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ChartPrintContext } from '../../../src/renderer/src/features/charts'
import { NetworkStudyTables } from '../../../src/renderer/src/features/studies/network-study'
import { planOf, runOf, vpcFigure } from './network-study-run'

function bodyRows(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? ''))
}

/** Study 001's VPC figures, with the EIP held at 28.7 Mbit/s (a 30 Mbit/s cap). */
const capped = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }), (job) => (job.network === 'eip' ? 28.7e6 : vpcFigure(job)))

describe('NetworkStudyTables', () => {
  it('shows the Source x Destination grid per path with its diagonal and %, the path table, and the cap it found', () => {
    render(<NetworkStudyTables run={capped} />)
    const grid = screen.getByRole('table', { name: /private\/VPC: source \(rows\) to destination \(columns\)/ })
    expect(bodyRows(grid)).toEqual([
      ['Physical', '9.19 Gbit/s (100 %)', '9.10 Gbit/s (99 %)'],
      ['VM', '9.05 Gbit/s (98.5 %)', '8.96 Gbit/s (97.5 %)']
    ])
    const eipGrid = screen.getByRole('table', { name: /public EIP: source/ })
    expect(bodyRows(eipGrid)).toEqual([
      ['Physical', 'not measured', 'not measured'],
      ['VM', 'not measured', '28.7 Mbit/s (0.3 %) (cap?)']
    ])
    // a cell without a figure says why where the mouse rests
    expect(within(eipGrid).getAllByText('not measured')[0]!.getAttribute('title')).toBe('not measured: the EIP path is measured between guests only')
    const paths = screen.getByRole('table', { name: /one row per network path/ })
    expect(bodyRows(paths)).toEqual([
      ['Physical → physical (private/VPC)', '9.19 Gbit/s (100 %)'],
      ['VM → VM (private/VPC)', '8.96 Gbit/s (97.5 %)'],
      ['VM EIP → VM EIP', '28.7 Mbit/s (0.3 %) (cap?)']
    ])
    expect(screen.getByText(/^VM EIP → VM EIP: 28\.7 Mbit\/s, just below 30 Mbit\/s: the path is probably rate-limited/)).toBeTruthy()
  })

  it('says why there is no % when physical → physical was not measured', () => {
    render(<NetworkStudyTables run={runOf(planOf({ matrix: true, paths: ['private', 'eip'] }), vpcFigure)} />)
    const paths = screen.getByRole('table', { name: /one row per network path/ })
    expect(bodyRows(paths).map((r) => r[1])).toEqual(['not measured', '8.96 Gbit/s', '5.83 Gbit/s'])
    expect(screen.getByText('no %: physical → physical has no figure (not measured: it needs a second physical machine (name one as network.peer))')).toBeTruthy()
  })

  it('offers each figure of the matrix in the app, and prints every one', async () => {
    const withPing = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }), vpcFigure)
    // a second figure of the same jobs
    for (const job of withPing.jobs) {
      if (job.kind === 'matrix') job.samples.push({ metric: 'iperf3.bandwidth', value: job.samples[0]!.value, unit: 'bit/s', better: 'higher', labels: { direction: 'target->peer' } })
    }
    const { unmount } = render(<NetworkStudyTables run={withPing} />)
    const select = screen.getByRole('combobox', { name: 'Figure' })
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'iperf3 · iperf3.received.bandwidth (target->peer)',
      'iperf3 · iperf3.bandwidth (target->peer)'
    ])
    await userEvent.selectOptions(select, 'iperf3 · iperf3.bandwidth (target->peer)')
    expect(screen.getByRole('table', { name: /^iperf3 · iperf3\.bandwidth \(target->peer\), private\/VPC/ })).toBeTruthy()
    expect(screen.getAllByRole('table')).toHaveLength(3)
    unmount()
    render(
      <ChartPrintContext.Provider value={{ width: 700 }}>
        <NetworkStudyTables run={withPing} />
      </ChartPrintContext.Provider>
    )
    expect(screen.getAllByRole('table')).toHaveLength(6)
  })
})
