import { describe, expect, it } from 'vitest'
import { mbwDefaults, mbwParamsSchema, type MbwParamsInput } from '../../../../../src/main/tools/mbw/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/mbw/plan'
import type { PlanContext } from '../../../../../src/main/tools/types'

const ctx: PlanContext = { target: { os: 'linux', workDir: '/srv/vb' } }

function planFor(input: MbwParamsInput, context: PlanContext = ctx) {
  return plan(mbwParamsSchema.parse(input), context)
}

function issues(input: unknown): string[] {
  const r = mbwParamsSchema.safeParse(input)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('mbw params', () => {
  it("defaults to study 001's 512 MiB, with mbw's own defaults for the rest", () => {
    expect(mbwDefaults).toEqual({ sizeMiB: 512 })
  })

  it('refuses values mbw would refuse or loop on', () => {
    expect(issues({ sizeMiB: 0 })).toEqual(['sizeMiB: sizeMiB must be at least 1 MiB'])
    expect(issues({ iterations: 0 })).toEqual(['iterations: iterations must be at least 1 (mbw -n 0 would run for ever)'])
    expect(issues({ tests: [] })).toEqual(['tests: tests must name at least one of memcpy, dumb, mcblock'])
    expect(issues({ tests: ['memcpy', 'memcpy'] })).toEqual(['tests: tests lists a test twice'])
    expect(issues({ tests: ['memcpy'], blockSizeBytes: 4096 })).toEqual(['blockSizeBytes: blockSizeBytes applies to the mcblock test, which tests does not include'])
    expect(issues({ sizeMiB: 1, blockSizeBytes: 4194304 })).toEqual([expect.stringMatching(/^blockSizeBytes: blockSizeBytes \(4194304\) is larger than the array \(1 MiB\)/)])
  })
})

describe('mbw plan', () => {
  it('study 001: mbw 512, after the version probe line', () => {
    const p = planFor({})
    expect(p.steps).toEqual([
      {
        id: 'run',
        on: 'target',
        shell: 'sh',
        script: 'mbw -h 2>&1 | head -n 1; mbw 512',
        argv: ['mbw', '512'],
        timeoutSeconds: Math.ceil(1 + ((2 + 30) * 512) / 200 + 60),
        okExitCodes: [0],
        measured: true
      }
    ])
    expect(p.files).toEqual([])
  })

  it('adds -n, one -t per test (in mbw numbering) and -b', () => {
    const p = planFor({ sizeMiB: 16, iterations: 2, tests: ['mcblock', 'memcpy'], blockSizeBytes: 65536 })
    expect(p.steps[0]!.argv).toEqual(['mbw', '-n', '2', '-t2', '-t0', '-b', '65536', '16'])
  })

  it("uses the target's mbw path, quoted", () => {
    const p = planFor({}, { target: { ...ctx.target, toolPaths: { mbw: "/opt/$(touch pwned)/it's mbw" } } })
    expect(p.steps[0]!.script).toBe(`'/opt/$(touch pwned)/it'\\''s mbw' -h 2>&1 | head -n 1; '/opt/$(touch pwned)/it'\\''s mbw' 512`)
  })

  it('refuses Windows targets', () => {
    expect(() => planFor({}, { target: { os: 'windows', workDir: 'C:\\vb' } })).toThrow(/Linux targets only/)
  })

  it('estimates filling both arrays and every copy', () => {
    expect(estimateSeconds(mbwDefaults)).toBe(Math.ceil(1 + 1024 / 2000 + (30 * 512) / 2000))
    expect(estimateSeconds(mbwParamsSchema.parse({ sizeMiB: 16, iterations: 2, tests: ['memcpy'] }))).toBe(2)
  })
})
