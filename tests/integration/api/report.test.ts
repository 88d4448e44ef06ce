import { execFileSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi, type Api } from '../../../src/main/api/handlers'
import { printWithChromium } from '../../../src/main/report/chromium-printer'
import { findBrowser } from '../../../src/main/report/find-browser'
import type { Envelope } from '../../../src/shared/contract'
import { RENDERER_DIR } from '../../harness/paths'

/** runs:report: the PDF of a stored run, printed by the host's printer, handed to the renderer as bytes. */

let dataDir: string
const call = (api: Api, channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<Envelope<unknown>> => dispatch(api.handlers, channel, payload)

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-report-api-'))
})
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
})

describe('runs:report', () => {
  it('prints the example run (published figures) to a Letter PDF that says where its figures come from', async () => {
    const api = createApi({
      transport: 'bridge',
      dataDir,
      versions: { node: process.versions.node },
      homeDir: dataDir,
      printReport: (input) => printWithChromium({ browser: findBrowser(), rendererDir: RENDERER_DIR, input })
    })
    const example = await call(api, 'runs:example')
    expect(example.ok).toBe(true)
    const id = (example as { value: { id: string } }).value.id
    const result = await call(api, 'runs:report', { id, options: { paper: 'letter', author: 'Capacity planning' } })
    expect(result.ok, JSON.stringify(result)).toBe(true)
    const value = (result as { value: { fileName: string; pdf: string; bytes: number; pages?: number; charts: number } }).value
    // the run's name, date and id: two runs of one day never share a file name
    expect(value.fileName).toMatch(/^virtbench-.+-\d{4}-\d{2}-\d{2}-example-study-001\.pdf$/)
    const file = path.join(dataDir, value.fileName)
    await fs.writeFile(file, Buffer.from(value.pdf, 'base64'))
    expect((await fs.stat(file)).size).toBe(value.bytes)
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' })
    expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/)
    expect(info).toContain(`Pages:           ${value.pages}`)
    // a short report (issue 18): the answer first, a page per category, no chart with nothing to draw
    expect(value.charts).toBeGreaterThanOrEqual(2)
    expect(value.pages).toBeLessThanOrEqual(12)
    // the title page (eight variants and their scenarios run onto a second page)
    const first = execFileSync('pdftotext', ['-l', '2', file, '-'], { encoding: 'utf8' })
    expect(first).toContain('Published figures, not measured here.')
    expect(first).toContain('Capacity planning')
  })

  it('refuses bad options by name, and says what to do where nothing can print', async () => {
    const api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
    const example = (await call(api, 'runs:example')) as { value: { id: string } }
    const bad = await call(api, 'runs:report', { id: example.value.id, options: { paper: 'a3' } })
    expect(bad.ok).toBe(false)
    expect((bad as { error: { code: string; message: string } }).error).toMatchObject({ code: 'invalid-request', message: expect.stringContaining('options.paper') })
    const none = await call(api, 'runs:report', { id: example.value.id, options: {} })
    expect((none as { error: { code: string; message: string } }).error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('virtbench report <run> --pdf <file>') })
  })
})
