import { parseArgs } from 'node:util'
import { estimatePack, formatDuration } from '../../main/tools/pack-estimate'
import { PACKS, packTests, type PackForm } from '../../main/tools/packs'
import { TOOLS } from '../../main/tools/registry'
import type { CliCommand } from '../io'
import { DEFAULT_PLAN_REPETITIONS } from '../../shared/model/tool-ids'
import { UsageError } from '../usage-error'

export const packsCommand: CliCommand = {
  name: 'packs',
  usage: `Usage: virtbench packs [ID] [--quick] [--json]

Without ID: every pack with its study and its duration per target (full and quick form).
With ID: that pack's tests, tool, parameters and duration.
Durations are per target with each test repeated as a run would (3 times, a plan's default, or
the test's own count; --repetitions N for another plan), as the app's wizard shows them.

Options:
  --quick            show the quick form (small files, a few seconds per test)
  --repetitions N    the plan's repetitions to estimate with (default 3)
  --json             print JSON instead of text
  -h, --help         this help`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { quick: { type: 'boolean' }, json: { type: 'boolean' }, repetitions: { type: 'string' } },
      strict: true,
      allowPositionals: true
    })
    if (positionals.length > 1) throw new UsageError('name at most one pack')
    const form: PackForm = values.quick ? 'quick' : 'full'
    const reps = values.repetitions === undefined ? DEFAULT_PLAN_REPETITIONS : Number(values.repetitions)
    if (!Number.isInteger(reps) || reps < 1 || reps > 100) throw new UsageError(`--repetitions must be a whole number from 1 to 100, not '${values.repetitions}'`)
    const per = `per target, ${reps} repetition${reps === 1 ? '' : 's'}`
    const id = positionals[0]
    if (id === undefined) {
      const rows = Object.values(PACKS).map((pack) => ({
        id: pack.id,
        name: pack.name,
        study: pack.study,
        tests: pack.tests.length,
        repetitions: reps,
        seconds: { full: estimatePack(pack, 'full', reps).seconds, quick: estimatePack(pack, 'quick', reps).seconds }
      }))
      if (values.json) {
        io.stdout(`${JSON.stringify(rows, null, 2)}\n`)
        return 0
      }
      const width = Math.max(...rows.map((r) => r.id.length))
      io.stdout(`Durations ${per}:\n`)
      for (const r of rows) {
        io.stdout(`${r.id.padEnd(width)}  ${r.name}: ${r.tests} test${r.tests === 1 ? '' : 's'}, ${formatDuration(r.seconds.full)} (quick: ${formatDuration(r.seconds.quick)})\n${' '.repeat(width + 2)}study ${r.study}\n`)
      }
      return 0
    }
    const pack = PACKS[id as keyof typeof PACKS]
    if (!pack) throw new UsageError(`unknown pack '${id}'; known packs: ${Object.keys(PACKS).join(', ')}`)
    const estimate = estimatePack(pack, form, reps)
    const onePass = estimatePack(pack, form, 1)
    const tests = packTests(pack, form).map((test, i) => ({
      ...test,
      params: TOOLS[test.tool].params.parse(test.params) as Record<string, unknown>,
      seconds: estimate.tests[i]!.seconds,
      secondsPerRun: onePass.tests[i]!.seconds / (test.repetitions ?? 1)
    }))
    if (values.json) {
      io.stdout(`${JSON.stringify({ id: pack.id, name: pack.name, study: pack.study, form, description: pack.description, repetitions: reps, seconds: estimate.seconds, tests }, null, 2)}\n`)
      return 0
    }
    io.stdout(`${pack.name} (${pack.id}, ${form} form): ${formatDuration(estimate.seconds)} ${per}\nStudy ${pack.study}\n${pack.description}\n\n`)
    for (const test of tests) {
      const runs = test.repetitions ?? reps
      const own = test.repetitions !== undefined ? ` (its own, ${test.aggregate ?? 'mean'})` : ''
      io.stdout(`  ${test.id.padEnd(18)} ${TOOLS[test.tool].name.padEnd(9)} ${test.title} (${formatDuration(test.secondsPerRun)} per run, ${runs} run${runs === 1 ? '' : 's'}${own})\n`)
    }
    return 0
  }
}
