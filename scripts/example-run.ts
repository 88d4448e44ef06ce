// Writes resources/examples/study-001-published.run.json, the example comparison built from study
// 001's published local storage figures: `npx tsx scripts/example-run.ts`. Deterministic: running it
// again gives the same file (for the same VirtBench version).
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { buildStudy001Example, renderExampleRun } from './data/study-001-example'

const root = path.resolve(__dirname, '..')
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
const file = path.join(root, 'resources/examples/study-001-published.run.json')
writeFileSync(file, renderExampleRun(buildStudy001Example(version)))
console.log(`wrote ${path.relative(process.cwd(), file)}`)
