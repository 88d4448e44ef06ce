import type { VersionProbe } from '../types'
import { MBW_TESTS, type MbwParams } from './params'

/** The averaged bandwidth of each copy method the test runs (study 001's "MEMCPY AVG"). */
export function mbwPrimaryMetrics(params: MbwParams): readonly string[] {
  return (params.tests ?? MBW_TESTS).map((test) => `mbw.${test}.bandwidth`)
}

/** mbw prints no version anywhere: it is found on PATH and its package says which version it is. */
export const mbwVersion: VersionProbe = { kind: 'package', command: 'mbw', package: 'mbw' }
