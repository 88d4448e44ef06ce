import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ImportDialog } from '../../../src/renderer/src/features/targets/import-dialog'
import { useAppStore } from '../../../src/renderer/src/store'
import type { TargetView } from '../../../src/shared/targets-contract'
import { fakeApi } from '../fake-api'

const AT = '2025-03-01T10:00:00.000Z'
const candidate = (name: string) => ({ name, address: `${name}.lab`, port: 22, user: 'root', auth: { method: 'agent' as const }, jumps: [] })
const view = (name: string, role: 'host' | 'guest'): TargetView => ({
  target: { id: `t-${name}`, createdAt: AT, updatedAt: AT, name, role, kind: 'ssh', address: `${name}.lab`, port: 22, user: 'root', auth: { method: 'agent' }, addresses: {}, sudo: 'passwordless', labels: {} },
  secrets: { password: false, passphrase: false, sudo: false },
  jumpChain: []
})

describe('importing ~/.ssh/config', () => {
  it('lets each imported Host be a physical host or a guest, and sends the roles chosen', async () => {
    const user = userEvent.setup()
    const api = fakeApi({
      'targets:importPreview': () => ({ file: '/home/qa/.ssh/config', candidates: [candidate('phys-01'), candidate('vm-a'), candidate('vm-b')], warnings: [] }),
      'targets:import': ({ names, roles }) => ({ added: names.map((n) => view(n, roles?.[n] ?? 'host')), skipped: [] })
    })
    useAppStore.setState({ api, targets: [] })
    render(<ImportDialog onClose={() => undefined} />)
    const dialog = await screen.findByRole('dialog', { name: 'Import from ~/.ssh/config' })
    const role = (name: string) => within(dialog).getByRole('combobox', { name: `Role of ${name}` }) as HTMLSelectElement
    expect(await within(dialog).findByText('/home/qa/.ssh/config')).toBeTruthy()
    expect([role('phys-01').value, role('vm-a').value, role('vm-b').value]).toEqual(['host', 'host', 'host'])
    expect([...role('vm-a').options].map((o) => o.textContent)).toEqual(['Host (physical)', 'Guest (virtual machine)'])

    await user.selectOptions(role('vm-a'), 'guest')
    await user.selectOptions(role('vm-b'), 'guest')
    await user.click(within(dialog).getByRole('checkbox', { name: 'Import vm-b' }))
    await user.click(within(dialog).getByRole('button', { name: 'Import 2 targets' }))

    await within(dialog).findByText(/Added 2 targets/)
    expect(api.calls.filter((c) => c.channel === 'targets:import').map((c) => c.payload)).toEqual([{ names: ['phys-01', 'vm-a'], roles: { 'phys-01': 'host', 'vm-a': 'guest' } }])
    await waitFor(() => expect(useAppStore.getState().targets?.map((v) => [v.target.name, v.target.role])).toEqual([
      ['phys-01', 'host'],
      ['vm-a', 'guest']
    ]))
  })
})
