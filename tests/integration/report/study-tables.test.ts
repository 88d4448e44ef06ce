import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../harness/cli'
import { ROOT } from '../../harness/paths'

/**
 * The studies' own tables in the PDF, printed as `virtbench report --pdf` prints them (the built
 * report page in the system's Chromium, A4) and read back with poppler: text a page clips off is
 * not in the PDF, so a cut-off column is a missing word here.
 */

const pageText = (pdf: string, page?: number): string =>
  execFileSync('pdftotext', ['-layout', ...(page !== undefined ? ['-f', String(page), '-l', String(page)] : []), pdf, '-'], { encoding: 'utf8' })
const pageCount = (pdf: string): number => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1])
const flat = (text: string): string => text.replace(/\s+/g, ' ')
const count = (text: string, what: string): number => text.split(what).length - 1

describe('the studies’ tables in the PDF', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-study-tables-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('prints an iozone-only run whole on A4: its sub-tests on the first page, its flags once per test, every record size of its heat maps', async () => {
    // iozone -Raz -g 4M: 7 file sizes x 11 record sizes, 13 sub-tests, on a loaded machine (every cell "disturbed")
    const pdf = path.join(dir, 'iozone.pdf')
    const result = await runCli(['report', path.join(ROOT, 'tests/fixtures/runs/iozone-local'), '--pdf', pdf])
    expect(result.status, result.stderr).toBe(0)
    const first = flat(pageText(pdf, 1))
    expect(first).not.toContain('nothing to summarise')
    expect(first).not.toContain('nothing compared')
    expect(first).toContain('Every figure of this run is a file size x record size grid, compared cell by cell')
    expect(first).toMatch(/write 56 \d+ % \d+–\d+ %/)

    const text = pageText(pdf)
    // one entry per test, variant and kind of flag, not one per cell
    expect(flat(text)).toContain('Disturbed repetitions · 1 time')
    expect(flat(text)).toContain('guest · iozone -Raz up to 4 MiB files · on 728 of its 728 file size x record size cells (13 sub-tests), the first:')
    expect(count(flat(text), 'record_size=8192')).toBe(0)

    // the throughput heat maps: the header row of each lists all 11 record sizes, up to 4 MiB
    const pages = Array.from({ length: pageCount(pdf) }, (_, i) => pageText(pdf, i + 1))
    const headers = pages.flatMap((p) => p.split('\n').filter((l) => /file ↓ record →\s+4 KiB/.test(l)))
    expect(headers.length).toBeGreaterThanOrEqual(2)
    for (const header of headers) expect(header.match(/\d+ [KM]iB/g)).toEqual(['4 KiB', '8 KiB', '16 KiB', '32 KiB', '64 KiB', '128 KiB', '256 KiB', '512 KiB', '1 MiB', '2 MiB', '4 MiB'])
  })

  it("prints study 004's atop table of a guest and its host, with the logical-to-physical ratio", async () => {
    const pdf = path.join(dir, 'seq-dd.pdf')
    const result = await runCli(['report', path.join(ROOT, 'tests/fixtures/runs/seq-dd-host'), '--pdf', pdf])
    expect(result.status, result.stderr).toBe(0)
    const text = pageText(pdf)
    expect(text).toContain('Guest and host disk activity (atop, study 004)')
    expect(text).toMatch(/guest\s+DSK\s+guest\s+vda\s+5\.81 %\s+1\.61 op\/s\s+113 op\/s\s+6\.45 KiB\/s\s+103 MiB\/s\s+507 µs\s+923 KiB/)
    expect(text).toMatch(/host\s+DSK\s+host\s+vda\s+5\.22 %\s+1\.45 op\/s\s+101 op\/s\s+5\.80 KiB\/s\s+92\.8 MiB\/s\s+507 µs\s+923 KiB/)
    expect(flat(text)).toContain("Logical to physical writes: 1.0:1 (the guest's vda: 70 writes; the host's vda: 70 writes)")
  })
})
