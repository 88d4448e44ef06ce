import path from 'node:path'

export const ROOT = path.resolve(__dirname, '../..')
export const CLI = path.join(ROOT, 'bin', 'virtbench.js')
export const OUT = path.join(ROOT, 'out')
export const RENDERER_DIR = path.join(OUT, 'renderer')
export const RESULTS_DIR = path.join(ROOT, 'test-results')
