import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { domainStages } from '../../../src/renderer/src/features/runs/domain-stages'
import { DomainStagesView } from '../../../src/renderer/src/features/runs/domain-stages-view'

/** The stage events of a run whose guest vm1 gets cache=none on domain vm1-dom, then is put back, as src/main/scenario words them. */
const APPLIED = [
  { message: 'Connecting to the targets' },
  { message: 'Applying the scenario of vm1 to domain vm1-dom on phys', target: 'vm1' },
  { message: 'vm1-dom: vda cache: writeback -> none', target: 'vm1' },
  { message: 'vm1-dom: restarting', target: 'vm1' }
]
const VERIFIED = [...APPLIED, { message: 'vm1-dom: verified (3 checks)', target: 'vm1' }]
const RESTORED = [
  ...VERIFIED,
  { message: 'Restoring domain vm1-dom on phys', target: 'vm1' },
  { message: 'vm1-dom: restoring its original configuration', target: 'vm1' },
  { message: 'Domain vm1-dom has its original configuration again', target: 'vm1' }
]

describe('the domain changes of a run, as stages', () => {
  it('follows a setup through apply, restart and SSH, verify, then the restore', () => {
    expect(domainStages(APPLIED)).toEqual([
      {
        kind: 'setup',
        guest: 'vm1',
        domain: 'vm1-dom',
        host: 'phys',
        steps: [
          { step: 'apply', state: 'done', detail: 'vda cache: writeback -> none' },
          { step: 'restart', state: 'running' }
        ]
      }
    ])
    expect(domainStages(RESTORED)).toEqual([
      {
        kind: 'setup',
        guest: 'vm1',
        domain: 'vm1-dom',
        host: 'phys',
        steps: [
          { step: 'apply', state: 'done', detail: 'vda cache: writeback -> none' },
          { step: 'restart', state: 'done' },
          { step: 'verify', state: 'done', detail: 'verified (3 checks)' }
        ]
      },
      { kind: 'restore', guest: 'vm1', domain: 'vm1-dom', host: 'phys', steps: [{ step: 'restore', state: 'done', detail: 'restoring its original configuration' }] }
    ])
  })

  it('a setup the domain already has restarts nothing; a restore that fails says why', () => {
    const stages = [
      { message: 'Applying the scenario of vm1 to domain vm1-dom on phys', target: 'vm1' },
      { message: 'vm1-dom: verified (2 checks)', target: 'vm1' },
      { message: 'Restoring domain vm1-dom on phys', target: 'vm1' },
      { message: 'domain vm1-dom could not be restored: virsh define failed. Its original XML is /runs/x/domains/vm1-dom.xml: virsh define it on phys.', target: 'vm1' }
    ]
    const [setup, restore] = domainStages(stages)
    expect(setup!.steps.map((s) => [s.step, s.state])).toEqual([
      ['apply', 'done'],
      ['restart', 'skipped'],
      ['verify', 'done']
    ])
    expect(restore!.steps).toEqual([{ step: 'restore', state: 'failed', detail: 'virsh define failed. Its original XML is /runs/x/domains/vm1-dom.xml: virsh define it on phys.' }])
  })

  it('shows each reconfiguration with its steps and progress; a step cut short by the end of the run is stopped', () => {
    const { rerender } = render(<DomainStagesView stages={APPLIED} ended={false} />)
    const setup = screen.getByRole('listitem', { name: 'vm1: set up vm1-dom on phys' })
    expect(within(setup).getByRole('progressbar').getAttribute('aria-valuetext')).toBe('1 of 3 steps')
    expect(within(setup).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '✓ Apply the setup (virsh define) (done)vda cache: writeback -> none',
      '… Restart, wait for SSH (running)',
      '○ Verify on the host and in the guest (to do)'
    ])
    rerender(<DomainStagesView stages={APPLIED} ended={true} />)
    expect(screen.getByText('Restart, wait for SSH', { exact: false }).textContent).toBe('■ Restart, wait for SSH (stopped)')

    rerender(<DomainStagesView stages={RESTORED} ended={true} />)
    expect(screen.getByRole('listitem', { name: 'Restore vm1-dom on phys' }).querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('100')
  })

  it('shows nothing for a run that changes no domain', () => {
    const { container } = render(<DomainStagesView stages={[{ message: 'Connecting to the targets' }]} ended={false} />)
    expect(container.textContent).toBe('')
  })
})
