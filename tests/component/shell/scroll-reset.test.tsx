import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { App } from '../../../src/renderer/src/app'
import { useAppStore } from '../../../src/renderer/src/store'
import { fakeApi } from '../fake-api'
import { resetStore } from '../runs/helpers'

describe('the window’s one scroller', () => {
  it('starts every screen at its top, not where the last one was scrolled to', async () => {
    const api = fakeApi({
      'presets:list': () => ({ presets: [], problems: [] }),
      'runs:list': () => ({ runs: [], problems: [], active: [] })
    })
    resetStore(api, { page: 'settings' })
    render(<App />)
    const main = screen.getByRole('main')
    // a long page read down to its end, then the user goes elsewhere
    main.scrollTop = 1747
    main.scrollLeft = 40
    await act(async () => useAppStore.getState().navigate('presets'))
    expect(main.scrollTop).toBe(0)
    expect(main.scrollLeft).toBe(0)

    main.scrollTop = 900
    await act(async () => useAppStore.getState().navigate('runs'))
    expect(main.scrollTop).toBe(0)
  })
})
