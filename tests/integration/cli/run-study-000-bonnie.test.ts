import { describe, expect, it } from 'vitest'
import { bonnieStudies, bonnieStudyText } from '../../../src/shared/studies/bonnie-study'
import { comparedRun, sectionOf, useLocalCli } from '../../harness/local-cli'

const SECTION = "bonnie++ per machine (study 000's table)"

/**
 * Study 000's bonnie++ table through the CLI: the real bonnie++ (Debian's) on two "This computer"
 * targets, a host and a guest, with a tiny file. `virtbench run` prints, beside the overhead
 * table, one line per machine with bonnie++'s figures and %CPU, the guest's % of the host, and
 * "+++++" where bonnie++ could not time a test, exactly as the run document gives them.
 */
describe('virtbench run: study 000’s bonnie++ table', () => {
  const local = useLocalCli('vb-cli-000-bonnie-')

  it('prints a line per machine with the figures of the run document, and says +++++ where bonnie++ printed it', { timeout: 300_000 }, async () => {
    await local.addTargets(['host', 'guest'])
    const { result, out } = await local.run({
      name: 'study 000 bonnie++',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      tests: [{ id: 'bonnie', title: 'bonnie++ 64 MiB', tool: 'bonnie', params: { fileSize: '64', ramMiB: 32, numFiles: 0 } }],
      repetitions: 1
    })

    const { run, comparison } = comparedRun(out)
    const studies = bonnieStudies(run, comparison)
    expect(studies).toHaveLength(1)
    const section = sectionOf(result.stdout, SECTION)
    expect(section.startsWith(bonnieStudyText(studies))).toBe(true)

    const [host, guest] = studies[0]!.rows
    expect([host!.machine, guest!.machine]).toEqual(['host', 'guest'])
    // per character, bonnie++ is slow enough to time at any size: a figure in B/s with its %CPU on both, the guest's with its %
    const putc = [host!.figures[0]!, guest!.figures[0]!]
    for (const f of putc) expect(f).toMatchObject({ id: 'putc', unit: 'B/s', runs: 1, tooFastRuns: 0 })
    expect(putc[0]!.value).toBeGreaterThan(0)
    expect(putc[1]!.relativePct).toBeCloseTo((putc[1]!.value! / putc[0]!.value!) * 100, 9)
    expect(section).toMatch(/^host\s+[\d.]+ [KM]iB\/s\s+[\d.]+ %/m)
    expect(section).toMatch(/^guest\s+[\d.]+ [KM]iB\/s \([\d.]+ %\)\s+[\d.]+ %/m)
    // a test bonnie++ could not time (the page cache holds a 64 MiB file): said so, with no number, in the table and its notes
    const tooFast = studies[0]!.rows.flatMap((r) => r.figures.filter((f) => f.missing === 'too-fast').map((f) => `${r.machine}:${f.id}`))
    for (const side of ['host', 'guest']) {
      const warned = run.jobs.find((j) => j.side === side)!.warnings.filter((w) => w.includes('bonnie++ printed +++++'))
      expect(tooFast.filter((t) => t.startsWith(`${side}:`)).map((t) => `bonnie.${t.slice(side.length + 1)} not measured`)).toEqual(
        warned.map((w) => w.slice(0, w.indexOf(':')))
      )
    }
    if (tooFast.length > 0) {
      expect(section).toContain('+++++ (too fast)')
      expect(section).toContain('the test took under 0.5 s, too fast to time, so there is no figure')
    }
  })
})
