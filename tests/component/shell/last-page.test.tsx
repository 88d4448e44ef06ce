import { beforeEach, describe, expect, it } from 'vitest'
import { LAST_PAGE_KEY, lastPage, useAppStore } from '../../../src/renderer/src/store'

describe('the last screen is remembered', () => {
  beforeEach(() => localStorage.clear())

  it('opens on the screen the app was last on', () => {
    useAppStore.getState().navigate('presets')
    expect(localStorage.getItem(LAST_PAGE_KEY)).toBe('presets')
    expect(lastPage()).toBe('presets')
  })

  it('reopens the run history rather than one run or a comparison of runs', () => {
    useAppStore.getState().openRun('r1')
    expect(lastPage()).toBe('runs')
    useAppStore.getState().openRunComparison(['r1', 'r2'])
    expect(lastPage()).toBe('runs')
  })

  it('opens on the start screen when nothing (or nonsense) was saved', () => {
    expect(lastPage()).toBe('home')
    localStorage.setItem(LAST_PAGE_KEY, 'run; alert(1)')
    expect(lastPage()).toBe('home')
  })
})
