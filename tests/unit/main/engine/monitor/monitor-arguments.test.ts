import { describe, expect, it } from 'vitest'
import { monitorArguments } from '../../../../../src/main/engine/monitor/monitor'

describe('monitorArguments', () => {
  it("gives diskstats.sh plain decimals: hundredths of a second, whole seconds for the limit", () => {
    expect(monitorArguments({ maxSeconds: 600 })).toEqual({ interval: '1', max: '600' })
    expect(monitorArguments({ intervalSeconds: 0.25, maxSeconds: 90.2 })).toEqual({ interval: '0.25', max: '91' })
    expect(monitorArguments({ intervalSeconds: 0.1 + 0.2, maxSeconds: 1 })).toEqual({ interval: '0.3', max: '1' })
    expect(monitorArguments({ intervalSeconds: 3600, maxSeconds: 1e6 })).toEqual({ interval: '3600', max: '1000000' })
  })

  it('refuses intervals and limits the script could not take, saying which', () => {
    for (const intervalSeconds of [0, 0.05, -1, 3601, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(monitorArguments({ intervalSeconds, maxSeconds: 10 })).toEqual({ error: `the disk monitor's interval must be 0.1 to 3600 seconds, not ${intervalSeconds}` })
    }
    for (const maxSeconds of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(monitorArguments({ maxSeconds })).toEqual({ error: `the disk monitor's safety limit (maxSeconds) must be a positive number of seconds, not ${maxSeconds}` })
    }
  })
})
