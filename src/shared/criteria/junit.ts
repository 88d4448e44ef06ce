import type { AcceptanceResult, CriterionResult } from './judge'

/**
 * The acceptance verdict as JUnit XML, the shape Jenkins (junit plugin), GitLab, GitHub Actions
 * reporters, Azure DevOps and Surefire read: one `<testsuites>` holding one `<testsuite>` (the
 * run), one `<testcase>` per criterion; a failed criterion has a `<failure>`, one that could not
 * be judged an `<error>`, each with the figures in its text. Pure: the caller gives the times.
 */

export interface JunitInput {
  /** The suite's name: the run's (the plan's) name. */
  suite: string
  /** The class name of every test case (`virtbench.<preset or run>`), as CI servers group them. */
  className: string
  /** When the run started (ISO 8601). */
  timestamp: string
  /** How long the run took, in seconds. */
  seconds: number
  /** Shown as `<properties>`: the run id, its folder, the VirtBench version. */
  properties?: Record<string, string>
}

/** Text made safe for XML 1.0: the five escapes, and characters XML cannot hold left out. */
export function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  )
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('')
}

function seconds(s: number): string {
  return (Number.isFinite(s) && s > 0 ? s : 0).toFixed(3)
}

function caseXml(result: CriterionResult, className: string): string {
  const open = `    <testcase${attrs({ classname: className, name: `${result.index + 1}. ${result.name}`, time: seconds(0) })}`
  const lines = result.cells.map((c) => `${c.counts === 'fail' ? 'FAIL' : 'ok  '} ${c.text}`)
  const body = [result.summary, ...lines].join('\n')
  if (result.status === 'passed') return `${open}>\n      <system-out>${xmlText(body)}</system-out>\n    </testcase>`
  const tag = result.status === 'failed' ? 'failure' : 'error'
  const type = result.status === 'failed' ? 'criterion-failed' : 'criterion-not-judged'
  const failing = result.cells.filter((c) => c.counts === 'fail')
  const message = failing.length > 0 ? `${result.summary}: ${failing[0]!.text}${failing.length > 1 ? ` (and ${failing.length - 1} more)` : ''}` : result.summary
  return `${open}>\n      <${tag}${attrs({ message, type })}>${xmlText(body)}</${tag}>\n    </testcase>`
}

/** The JUnit XML document of an acceptance verdict. */
export function junitXml(result: AcceptanceResult, input: JunitInput): string {
  return junitDocument([suiteOf(result, input)], input.seconds)
}

/** One suite of a JUnit document: the verdict of one run, or of one combination of a sweep. */
export interface JunitSuite {
  input: JunitInput
  /** The verdict; absent when nothing was measured to judge (`notJudged` says why, as an error). */
  result?: AcceptanceResult
  notJudged?: string
}

/**
 * A sweep's verdict as JUnit XML: one `<testsuite>` per combination (its criteria as test cases),
 * and for a combination no step measured one test case in error that says so, so a pipeline never
 * reads an unmeasured combination as passed.
 */
export function junitSuitesXml(suites: readonly JunitSuite[], totalSeconds: number): string {
  return junitDocument(
    suites.map((s) =>
      s.result ? suiteOf(s.result, s.input) : notMeasuredSuite(s.input, s.notJudged ?? 'not measured')
    ),
    totalSeconds
  )
}

interface SuitePart {
  tests: number
  failures: number
  errors: number
  xml: string
}

function suiteOf(result: AcceptanceResult, input: JunitInput): SuitePart {
  const totals = { tests: result.results.length, failures: result.counts.failed, errors: result.counts.error }
  return { ...totals, xml: suiteXml(input, totals, result.results.map((r) => caseXml(r, input.className)).join('\n')) }
}

/** A suite of one test case in error: nothing was measured to judge. */
function notMeasuredSuite(input: JunitInput, why: string): SuitePart {
  const totals = { tests: 1, failures: 0, errors: 1 }
  const testcase = `    <testcase${attrs({ classname: input.className, name: 'measured', time: seconds(0) })}>\n      <error${attrs({ message: why, type: 'not-measured' })}>${xmlText(why)}</error>\n    </testcase>`
  return { ...totals, xml: suiteXml(input, totals, testcase) }
}

function suiteXml(input: JunitInput, totals: { tests: number; failures: number; errors: number }, cases: string): string {
  const properties = Object.entries(input.properties ?? {})
  const props = properties.length > 0 ? `    <properties>\n${properties.map(([name, value]) => `      <property${attrs({ name, value })}/>`).join('\n')}\n    </properties>\n` : ''
  return (
    `  <testsuite${attrs({ name: input.suite, tests: totals.tests, failures: totals.failures, errors: totals.errors, skipped: 0, time: seconds(input.seconds), timestamp: input.timestamp.replace(/\.\d+Z$/, '').replace(/Z$/, ''), hostname: 'virtbench' })}>\n` +
    props +
    (cases ? `${cases}\n` : '') +
    `  </testsuite>\n`
  )
}

function junitDocument(suites: readonly SuitePart[], totalSeconds: number): string {
  const sum = (key: 'tests' | 'failures' | 'errors'): number => suites.reduce((n, s) => n + s[key], 0)
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites${attrs({ name: 'virtbench acceptance', tests: sum('tests'), failures: sum('failures'), errors: sum('errors'), time: seconds(totalSeconds) })}>\n` +
    suites.map((s) => s.xml).join('') +
    `</testsuites>\n`
  )
}
