/**
 * A program: `node --import tsx tests/harness/truth/hold-target.ts '<LimitedSshdOptions as JSON>'`
 * starts one known-truth target, prints its footprint (footprint.ts) as one JSON line, and holds
 * it until it is killed. The harness's test kills it with SIGKILL, as a crash would, and checks
 * that removeLeftovers() then finds and removes everything it made.
 */
import { footprintOf } from './footprint'
import { startLimitedSshd, type LimitedSshdOptions } from './limited-sshd'

async function main(): Promise<void> {
  const target = await startLimitedSshd(JSON.parse(process.argv[2] ?? '{}') as LimitedSshdOptions)
  process.stdout.write(`${JSON.stringify(footprintOf(target))}\n`)
  setInterval(() => undefined, 60_000)
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})
