import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describeRun } from '../../src/main/tools/describe-run'
import { RunDocumentSchema, type RunDocument } from '../../src/shared/model/run'

/**
 * A real run: VirtBench's engine against two loopback sshd (host and guest (cache=none)), fio
 * random read and sequential write, dd latency, ping, iperf3 (with the network matrix) and mbw,
 * three repetitions each (tests/fixtures/runs/README.md).
 */
export function loopbackRun(): RunDocument {
  const file = path.join(__dirname, '../fixtures/runs/loopback-quick/run.json')
  // written before runs kept their metric definitions: described from today's tools, as main does when it serves a run
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))
}

/**
 * A run document a test made by hand (tests or jobs added, a tool the fixture does not use), with
 * its metric definitions and its tests' primaries taken again from today's tools, as main serves
 * every run: the renderer never sees a run without them. Primaries a test already has are kept.
 */
export function describedAgain(run: RunDocument): RunDocument {
  return describeRun({ ...run, metrics: undefined })
}

/**
 * The loopback run as if its repetitions had run grouped (all of one side in a row) instead of
 * interleaved: the same figures, compared side against side by Welch's interval instead of pair
 * by pair. Its mbw mcblock second iteration is a faster verdict, which the recorded run, compared
 * pair by pair, does not have: the results screens show a finding with it.
 */
export function groupedLoopbackRun(): RunDocument {
  const run = loopbackRun()
  return { ...run, plan: { ...run.plan, schedule: { ...run.plan.schedule, order: 'grouped' } } }
}
