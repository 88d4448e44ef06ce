import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { TargetsPage } from '../../../src/renderer/src/features/targets/targets-page'
import { useAppStore } from '../../../src/renderer/src/store'
import { ApiCallError } from '../../../src/shared/contract'
import type { TargetList } from '../../../src/shared/targets-contract'
import { fakeApi, type FakeApi, type FakeHandlers } from '../fake-api'

const initial = useAppStore.getState()

const SESSION = 'No keyring answered, and the only encryption left uses a fixed key; secrets are kept until VirtBench quits.'
const SAVING = 'Secrets are saved in secrets.json with a fixed key, because you chose to.'

function listWith(secretsBackend: TargetList['secretsBackend']): TargetList {
  return { targets: [], secretsBackend }
}

function setup(backend: TargetList['secretsBackend'], handlers: FakeHandlers = {}): FakeApi {
  const api = fakeApi({ 'targets:list': () => listWith(backend), ...handlers })
  useAppStore.setState(initial, true)
  useAppStore.setState({ api, page: 'targets' })
  useAppStore.getState().watchTargets(api)
  render(<TargetsPage />)
  return api
}

const choice = (): HTMLInputElement => screen.getByRole('checkbox', { name: /Save secrets in secrets\.json anyway, with the fixed key/ })

describe('the secrets banner on the Targets screen', () => {
  it('keeps secrets for the session until the user ticks the fixed-key choice, then says they are saved', async () => {
    const api = setup({ name: 'basic_text', warning: SESSION, savesWithFixedKey: false }, {
      'targets:secretsStorage': ({ saveWithFixedKey }) => {
        const list = listWith({ name: 'basic_text', warning: SAVING, savesWithFixedKey: saveWithFixedKey })
        api.emit('targets:changed', list)
        return list
      }
    })
    const banner = await screen.findByRole('status')
    expect(banner.textContent).toContain(`Secrets are kept for this session only. ${SESSION}`)
    expect(choice().checked).toBe(false)

    await userEvent.click(choice())
    expect(api.calls.filter((c) => c.channel === 'targets:secretsStorage').map((c) => c.payload)).toEqual([{ saveWithFixedKey: true }])
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain(`Secrets are not well protected here. ${SAVING}`))
    expect(choice().checked).toBe(true)
  })

  it('says why when the choice cannot be changed', async () => {
    setup({ name: 'basic_text', warning: SESSION, savesWithFixedKey: false }, {
      'targets:secretsStorage': () => {
        throw new ApiCallError('targets:secretsStorage', { code: 'failed', message: 'secrets.json could not be written: EACCES' })
      }
    })
    await screen.findByRole('status')
    await userEvent.click(choice())
    expect((await screen.findByRole('alert')).textContent).toBe('The choice was not changed: secrets.json could not be written: EACCES')
    expect(choice().checked).toBe(false)
  })

  it('offers no choice where there is a keyring, or nothing to encrypt with', async () => {
    setup({ name: 'memory', warning: 'Passwords and passphrases entered here are kept in memory only, until virtbench serve stops.' })
    expect((await screen.findByRole('status')).textContent).toContain('Secrets are not well protected here.')
    expect(screen.queryByRole('checkbox')).toBeNull()
  })
})
