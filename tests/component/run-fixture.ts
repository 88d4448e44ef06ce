import { readFileSync } from 'node:fs'
import path from 'node:path'
import { RunDocumentSchema, type RunDocument } from '../../src/shared/model/run'

/**
 * A real run: VirtBench's engine against two loopback sshd (host and guest (cache=none)), fio
 * random read and sequential write, dd latency, ping, iperf3 (with the network matrix) and mbw,
 * three repetitions each (tests/fixtures/runs/README.md).
 */
export function loopbackRun(): RunDocument {
  const file = path.join(__dirname, '../fixtures/runs/loopback-quick/run.json')
  return RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
}
