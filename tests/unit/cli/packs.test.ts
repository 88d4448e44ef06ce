import { describe, expect, it } from 'vitest'
import { runCli } from '../../../src/cli/main'
import type { CliIo } from '../../../src/cli/io'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { DEFAULT_PLAN_REPETITIONS } from '../../../src/shared/model/tool-ids'

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {}, interrupted: new Promise(() => {}) }
  const code = await runCli(argv, io)
  return { code, stdout, stderr }
}

describe('virtbench packs', () => {
  it('lists every pack with its study and durations', async () => {
    const { code, stdout } = await cli('packs')
    expect(code).toBe(0)
    for (const id of ['everyday', 'cloud-acceptance', 'block-dd', 'cluster-fio', 'seq-dd', 'kvm-storage']) expect(stdout).toMatch(new RegExp(`^${id} `, 'm'))
    // with a plan's three repetitions, as the wizard estimates
    expect(stdout).toMatch(/^Durations per target, 3 repetitions:\n/)
    expect(stdout).toContain('Cluster fio job: 1 test, about 3 min')
    expect(stdout).toContain('Everyday quick check: 7 tests, about 2 min (quick: about 75 s)')
    const once = await cli('packs', '--repetitions', '1')
    expect(once.stdout).toContain('Cluster fio job: 1 test, about 64 s')
    expect((await cli('packs', '--repetitions', '0')).stderr).toContain("--repetitions must be a whole number from 1 to 100, not '0'")
  })

  it('estimates with the plan default a preset gets when it does not say', () => {
    const plan = ComparisonPlanSchema.parse({ name: 'p', baseline: { target: 'host' }, variants: [{ target: 'guest' }], tests: [{ pack: 'everyday' }] })
    expect(plan.repetitions).toBe(DEFAULT_PLAN_REPETITIONS)
  })

  it("counts a test's own repetitions once, whatever the plan's", async () => {
    const { stdout } = await cli('packs', 'cloud-acceptance', '--quick', '--repetitions', '5')
    expect(stdout).toContain('iperf3             iperf3    TCP bandwidth (iperf3, 3 s, best of 3) (about 4 s per run, 3 runs (its own, best))')
    expect(stdout).toContain('mbw                mbw       Memory bandwidth (mbw 64 MiB) (about 2 s per run, 5 runs)')
  })

  it('shows one pack\'s tests, and its full parameters as JSON', async () => {
    const text = await cli('packs', 'block-dd')
    expect(text.stdout).toContain('dd-latency')
    const { stdout } = await cli('packs', 'block-dd', '--json')
    const pack = JSON.parse(stdout) as { form: string; tests: { id: string; params: Record<string, unknown> }[] }
    expect(pack.form).toBe('full')
    expect(pack.tests[1]).toMatchObject({ id: 'dd-latency', params: { blockSize: '512', count: '1000', direct: true } })
  })

  it('refuses an unknown pack with exit 2', async () => {
    const { code, stderr } = await cli('packs', 'nope')
    expect(code).toBe(2)
    expect(stderr).toContain("unknown pack 'nope'")
  })
})
