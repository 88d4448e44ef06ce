import { parseArgs } from 'node:util'
import { estimatePack, formatDuration } from '../../main/tools/pack-estimate'
import { PACKS, packTests, type PackForm } from '../../main/tools/packs'
import { TOOLS } from '../../main/tools/registry'
import type { CliCommand } from '../io'
import { UsageError } from '../usage-error'

export const packsCommand: CliCommand = {
  name: 'packs',
  summary: 'List the test packs taken from the studies, their tests and how long they take',
  usage: `Usage: virtbench packs [ID] [--quick] [--json]

Without ID: every pack with its study and its duration per target (full and quick form).
With ID: that pack's tests, tool, parameters and duration.

Options:
  --quick     show the quick form (small files, a few seconds per test)
  --json      print JSON instead of text
  -h, --help  this help`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { quick: { type: 'boolean' }, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: true
    })
    if (positionals.length > 1) throw new UsageError('name at most one pack')
    const form: PackForm = values.quick ? 'quick' : 'full'
    const id = positionals[0]
    if (id === undefined) {
      const rows = Object.values(PACKS).map((pack) => ({
        id: pack.id,
        name: pack.name,
        study: pack.study,
        tests: pack.tests.length,
        seconds: { full: estimatePack(pack, 'full').seconds, quick: estimatePack(pack, 'quick').seconds }
      }))
      if (values.json) {
        io.stdout(`${JSON.stringify(rows, null, 2)}\n`)
        return 0
      }
      const width = Math.max(...rows.map((r) => r.id.length))
      for (const r of rows) {
        io.stdout(`${r.id.padEnd(width)}  ${r.name}: ${r.tests} test${r.tests === 1 ? '' : 's'}, ${formatDuration(r.seconds.full)} (quick: ${formatDuration(r.seconds.quick)})\n${' '.repeat(width + 2)}study ${r.study}\n`)
      }
      return 0
    }
    const pack = PACKS[id as keyof typeof PACKS]
    if (!pack) throw new UsageError(`unknown pack '${id}'; known packs: ${Object.keys(PACKS).join(', ')}`)
    const estimate = estimatePack(pack, form)
    const tests = packTests(pack, form).map((test, i) => ({
      ...test,
      params: TOOLS[test.tool].params.parse(test.params) as Record<string, unknown>,
      seconds: estimate.tests[i]!.seconds
    }))
    if (values.json) {
      io.stdout(`${JSON.stringify({ id: pack.id, name: pack.name, study: pack.study, form, description: pack.description, seconds: estimate.seconds, tests }, null, 2)}\n`)
      return 0
    }
    io.stdout(`${pack.name} (${pack.id}, ${form} form): ${formatDuration(estimate.seconds)} per target\nStudy ${pack.study}\n${pack.description}\n\n`)
    for (const test of tests) {
      const reps = test.repetitions && test.repetitions > 1 ? `, ${test.repetitions} runs (${test.aggregate ?? 'mean'})` : ''
      io.stdout(`  ${test.id.padEnd(18)} ${TOOLS[test.tool].name.padEnd(9)} ${test.title} (${formatDuration(test.seconds)}${reps})\n`)
    }
    return 0
  }
}
