import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { DomainStageEvent } from '../../../src/shared/sweep/stage-event'
import { domainStages } from '../../../src/renderer/src/features/runs/domain-stages'
import { DomainStagesView } from '../../../src/renderer/src/features/runs/domain-stages-view'

/** A stage event of domain vm1-dom on phys for guest vm1 (as src/main/scenario sends them), with its message. */
const stage = (message: string, e: Pick<DomainStageEvent, 'kind' | 'status' | 'detail'> & Partial<DomainStageEvent>): { message: string; target: string; domain: DomainStageEvent } => ({
  message,
  target: 'vm1',
  domain: { domain: 'vm1-dom', host: 'phys', guest: 'vm1', ...e }
})

/** The stages of a run whose guest vm1 gets cache=none on domain vm1-dom, then is put back. */
const APPLIED = [
  { message: 'Connecting to the targets' },
  stage('Applying the scenario of vm1 to domain vm1-dom on phys', { kind: 'define', status: 'running' }),
  stage('vm1-dom: vda cache: writeback -> none', { kind: 'define', status: 'done', detail: 'vda cache: writeback -> none' }),
  stage('vm1-dom: restarting', { kind: 'restart', status: 'running' })
]
const VERIFIED = [
  ...APPLIED,
  stage("vm1-dom: waiting for vm1 to answer SSH", { kind: 'ssh', status: 'running' }),
  stage('vm1-dom: verified (3 checks)', { kind: 'verify', status: 'done', detail: 'host vda cache none' }),
  stage('vm1 is measured with vm1', { kind: 'jobs', status: 'running' })
]
const RESTORED = [
  ...VERIFIED,
  stage('Restoring domain vm1-dom on phys', { kind: 'restore', status: 'running' }),
  stage('vm1-dom: restoring its original configuration', { kind: 'restore', status: 'running', detail: 'virsh define of the saved original, restart' }),
  stage('Domain vm1-dom has its original configuration again', { kind: 'restore', status: 'done' })
]

describe('the domain changes of a run, as stages', () => {
  it('follows a setup through define, restart, SSH, verify and its jobs, then the restore', () => {
    expect(domainStages(APPLIED)).toEqual([
      {
        kind: 'setup',
        guest: 'vm1',
        domain: 'vm1-dom',
        host: 'phys',
        steps: [
          { step: 'define', state: 'done', detail: 'vda cache: writeback -> none' },
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
          { step: 'define', state: 'done', detail: 'vda cache: writeback -> none' },
          { step: 'restart', state: 'done' },
          { step: 'ssh', state: 'done' },
          { step: 'verify', state: 'done', detail: 'host vda cache none' },
          { step: 'jobs', state: 'done' }
        ]
      },
      { kind: 'restore', guest: 'vm1', domain: 'vm1-dom', host: 'phys', steps: [{ step: 'restore', state: 'done', detail: 'virsh define of the saved original, restart' }] }
    ])
  })

  it('a setup the domain already has restarts nothing; a restore that fails says why; a sweep step is named by its combination', () => {
    const stages = [
      stage('Applying the scenario of vm1 to domain vm1-dom on phys', { kind: 'define', status: 'running', combination: 'cache=none', step: { index: 1, total: 2 } }),
      stage('vm1-dom: has this setup already, no restart', { kind: 'define', status: 'skipped', detail: 'nothing to change', combination: 'cache=none', step: { index: 1, total: 2 } }),
      stage('vm1-dom: verified (2 checks)', { kind: 'verify', status: 'done', combination: 'cache=none', step: { index: 1, total: 2 } }),
      stage('vm1 is measured with cache=none', { kind: 'jobs', status: 'running', combination: 'cache=none', step: { index: 1, total: 2 } }),
      stage('Restoring domain vm1-dom on phys', { kind: 'restore', status: 'running' }),
      stage('domain vm1-dom could not be restored: virsh define failed. Its original XML is /runs/x/domains/vm1-dom.xml: virsh define it on phys.', {
        kind: 'restore',
        status: 'failed',
        detail: 'virsh define failed'
      })
    ]
    const [setup, restore] = domainStages(stages)
    expect(setup!.combination).toBe('cache=none')
    expect(setup!.steps.map((s) => [s.step, s.state])).toEqual([
      ['define', 'skipped'],
      ['restart', 'skipped'],
      ['ssh', 'skipped'],
      ['verify', 'done'],
      ['jobs', 'done']
    ])
    expect(restore!.steps).toEqual([{ step: 'restore', state: 'failed', detail: 'virsh define failed' }])
    render(<DomainStagesView stages={stages} ended={true} />)
    expect(screen.getByRole('listitem', { name: 'Step 1 of 2: cache=none on vm1-dom (phys)' })).toBeTruthy()
  })

  it('shows each reconfiguration with its steps and progress; a step cut short by the end of the run is stopped', () => {
    const { rerender } = render(<DomainStagesView stages={APPLIED} ended={false} />)
    const setup = screen.getByRole('listitem', { name: 'vm1: set up vm1-dom on phys' })
    expect(within(setup).getByRole('progressbar').getAttribute('aria-valuetext')).toBe('1 of 5 steps')
    expect(within(setup).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '✓ Define the new XML (virsh define) (done)vda cache: writeback -> none',
      '… Restart the guest (running)',
      "○ Wait for the guest's SSH (to do)",
      '○ Verify on the host and in the guest (to do)',
      '○ Run the jobs under this setup (to do)'
    ])
    rerender(<DomainStagesView stages={APPLIED} ended={true} />)
    expect(screen.getByText('Restart the guest', { exact: false }).textContent).toBe('■ Restart the guest (stopped)')

    rerender(<DomainStagesView stages={RESTORED} ended={true} />)
    expect(screen.getByRole('listitem', { name: 'Restore vm1-dom on phys' }).querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('100')
  })

  it('shows nothing for a run that changes no domain', () => {
    const { container } = render(<DomainStagesView stages={[{ message: 'Connecting to the targets' }]} ended={false} />)
    expect(container.textContent).toBe('')
  })
})
