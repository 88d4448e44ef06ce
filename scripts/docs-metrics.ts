// Writes docs/metrics.md from the tools' metric tables: `npm run docs:metrics`.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { renderMetricsDoc } from '../src/main/tools/metrics-doc'
import { TOOLS } from '../src/main/tools/registry'

const file = path.resolve(__dirname, '../docs/metrics.md')
writeFileSync(file, renderMetricsDoc(Object.values(TOOLS)))
console.log(`wrote ${path.relative(process.cwd(), file)}`)
