import { describe, expect, it } from 'vitest'
import { idleJustPassed, idleSecondsOf, IDLE_FRESH_MS } from '../../../../src/main/engine/before-jobs'
import { checksSections } from '../../../../src/main/engine/target-checks'
import { ComparisonPlanSchema } from '../../../../src/shared/model/plan'
import type { Finding, RunDocument } from '../../../../src/shared/model/run'

const RS = '\x1e'

describe('checksSections', () => {
  it('splits checks.sh output into its parts with their exit codes, keeping every line of each', () => {
    const output = [
      `${RS}section preflight 0`,
      'preflight\t1',
      'idle.seconds\t1',
      'end\t1',
      `${RS}section preflight-err 0`,
      `${RS}section environment 2`,
      'virtbench-environment\t1',
      'section preflight 0',
      `${RS}section environment-err 2`,
      'environment.sh: oops',
      ''
    ].join('\n')
    const sections = checksSections(output)
    expect([...sections.keys()]).toEqual(['preflight', 'preflight-err', 'environment', 'environment-err'])
    expect(sections.get('preflight')).toEqual({ text: 'preflight\t1\nidle.seconds\t1\nend\t1', status: 0 })
    expect(sections.get('preflight-err')).toEqual({ text: '', status: 0 })
    // a line that only looks like a marker, without the record separator, is output
    expect(sections.get('environment')).toEqual({ text: 'virtbench-environment\t1\nsection preflight 0', status: 2 })
    expect(sections.get('environment-err')).toEqual({ text: 'environment.sh: oops\n', status: 2 })
  })

  it('has no part for what a cut output never reached, and ignores what comes before the first marker', () => {
    const sections = checksSections(`login banner\n${RS}section preflight 0\npreflight\t1\n`)
    expect([...sections.keys()]).toEqual(['preflight'])
    expect(checksSections('').size).toBe(0)
  })
})

const plan = (extra: Record<string, unknown>) =>
  ComparisonPlanSchema.parse({ name: 'p', baseline: { target: 'a' }, variants: [{ target: 'b' }], ...extra })

describe('idleSecondsOf', () => {
  it('is 3 s, 1 s when every test is a quick pack form, and what the plan says when it says', () => {
    expect(idleSecondsOf(plan({ tests: [{ pack: 'block-dd' }] }))).toBe(3)
    expect(idleSecondsOf(plan({ tests: [{ pack: 'block-dd', form: 'quick' }] }))).toBe(1)
    expect(idleSecondsOf(plan({ tests: [{ pack: 'block-dd', form: 'quick' }, { id: 'x', tool: 'dd', params: {} }] }))).toBe(3)
    expect(idleSecondsOf(plan({ tests: [{ pack: 'block-dd', form: 'quick' }], idleSeconds: 5 }))).toBe(5)
    expect(idleSecondsOf(plan({ tests: [{ pack: 'block-dd' }], idleSeconds: 0 }))).toBe(0)
  })

  it('refuses idle seconds that are not whole, negative or over a minute', () => {
    for (const idleSeconds of [1.5, -1, 61]) {
      expect(ComparisonPlanSchema.safeParse({ name: 'p', baseline: { target: 'a' }, variants: [{ target: 'b' }], tests: [{ pack: 'block-dd' }], idleSeconds }).success).toBe(false)
    }
  })
})

describe('idleJustPassed', () => {
  const now = Date.parse('2026-11-26T02:00:00Z')
  const at = (msAgo: number) => ({ capturedAt: new Date(now - msAgo).toISOString() })
  const run = (environment: Record<string, { capturedAt: string }>, preflight: Finding[] = []) =>
    ({ environment, preflight }) as unknown as Pick<RunDocument, 'environment' | 'preflight'>
  const finding = (target: string, code: string): Finding => ({ severity: code === 'idle-skipped' ? 'info' : 'warning', target, code, message: '' })

  it('is empty for a new run (no environment yet)', () => {
    expect(idleJustPassed(run({}), now)).toEqual(new Set())
  })

  it('names the targets this run checked within the last minutes and found idle', () => {
    expect(idleJustPassed(run({ a: at(60_000), b: at(IDLE_FRESH_MS + 1) }), now)).toEqual(new Set(['a']))
  })

  it('samples again a target found busy, unreachable or not fully checked, and one whose last check skipped it', () => {
    const env = { a: at(1000), b: at(1000), c: at(1000), d: at(1000), e: at(1000) }
    const found = [finding('a', 'not-idle'), finding('b', 'unreachable'), finding('c', 'preflight-incomplete'), finding('d', 'idle-skipped'), finding('e', 'tmpfs-dir')]
    expect(idleJustPassed(run(env, found), now)).toEqual(new Set(['e']))
  })

  it('does not trust a capture time it cannot read or one in the future', () => {
    expect(idleJustPassed(run({ a: { capturedAt: '' }, b: at(-60_000) }), now)).toEqual(new Set())
  })
})
