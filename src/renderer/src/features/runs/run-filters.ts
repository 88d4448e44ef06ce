import type { RunStatus } from '../../../../shared/model/run'
import type { ListedRun, RunFacts } from '../../store/runs-slice'

/** The history page's search and filters; '' means "any". */
export interface RunFilter {
  /** Words that must all appear in the run's name, id or target labels. */
  search: string
  /** A target label (baseline or variant). */
  target: string
  /** `pack:<id>` or `test:<id>`. */
  test: string
  status: '' | RunStatus
  /** yyyy-mm-dd (an <input type="date">), in the user's time zone, inclusive. */
  from: string
  to: string
}

export const NO_FILTER: RunFilter = { search: '', target: '', test: '', status: '', from: '', to: '' }

export function isFiltered(filter: RunFilter): boolean {
  return Object.values(filter).some((v) => v !== '')
}

function targetsOf(run: ListedRun): string[] {
  return [run.baseline, ...run.variants]
}

/** Local midnight of a yyyy-mm-dd day, as epoch ms. */
function dayStart(day: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return undefined
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime()
}

function matchesTest(facts: RunFacts | undefined, test: string): boolean {
  if (!facts) return false
  const [kind, id] = [test.slice(0, test.indexOf(':')), test.slice(test.indexOf(':') + 1)]
  return kind === 'pack' ? facts.packs.includes(id) : facts.tests.some((t) => t.id === id)
}

/** The runs the filter lets through, newest first. */
export function filterRuns(runs: readonly ListedRun[], facts: Readonly<Record<string, RunFacts>>, filter: RunFilter): ListedRun[] {
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean)
  const from = dayStart(filter.from)
  const toStart = dayStart(filter.to)
  const to = toStart === undefined ? undefined : new Date(toStart).setDate(new Date(toStart).getDate() + 1)
  return runs
    .filter((run) => {
      if (words.length > 0) {
        const haystack = [run.name, run.id, ...targetsOf(run)].join('\n').toLowerCase()
        if (!words.every((w) => haystack.includes(w))) return false
      }
      if (filter.target && !targetsOf(run).includes(filter.target)) return false
      if (filter.status && run.status !== filter.status) return false
      if (filter.test && !matchesTest(facts[run.id], filter.test)) return false
      const created = Date.parse(run.createdAt)
      if (from !== undefined && !(created >= from)) return false
      if (to !== undefined && !(created < to)) return false
      return true
    })
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id.localeCompare(a.id))
}

/** Every target label the runs name, sorted. */
export function targetOptions(runs: readonly ListedRun[]): string[] {
  return [...new Set(runs.flatMap(targetsOf))].sort((a, b) => a.localeCompare(b))
}

/** The packs and tests the runs ran, for the "Test or pack" filter. */
export function testOptions(facts: readonly RunFacts[]): { value: string; label: string; group: 'Packs' | 'Tests' }[] {
  const packs = new Set<string>()
  const tests = new Map<string, string>()
  for (const f of facts) {
    for (const p of f.packs) packs.add(p)
    for (const t of f.tests) if (!tests.has(t.id)) tests.set(t.id, t.title)
  }
  return [
    ...[...packs].sort().map((p) => ({ value: `pack:${p}`, label: p, group: 'Packs' as const })),
    ...[...tests]
      .sort((a, b) => a[1].localeCompare(b[1]))
      .map(([id, title]) => ({ value: `test:${id}`, label: title === id ? id : `${title} (${id})`, group: 'Tests' as const }))
  ]
}
