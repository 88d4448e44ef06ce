/**
 * Reads a JUnit XML file with a strict XML 1.0 parser (saxes, jsdom's own: any well-formedness
 * error throws) and checks it against what the JUnit schema Jenkins' junit plugin reads
 * (junit-10.xsd, also what GitLab, Azure DevOps and GitHub's reporters accept) requires:
 * `<testsuites>` of `<testsuite name tests failures errors time timestamp hostname>` (optional
 * `<properties>` first), each of `<testcase name classname time>` with at most one `<failure>` or
 * `<error>` (`message`, `type`) or `<skipped>`, then optional `<system-out>` / `<system-err>`;
 * counts are whole numbers, times decimals, the timestamp an xs:dateTime without a zone; and the
 * counts agree with the cases.
 */
import { SaxesParser } from 'saxes'

export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false })
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  parser.on('error', (error) => {
    throw error
  })
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [], text: '' }
    if (stack.length > 0) stack[stack.length - 1]!.children.push(element)
    else root = element
    stack.push(element)
  })
  parser.on('text', (t) => {
    if (stack.length > 0) stack[stack.length - 1]!.text += t
  })
  parser.on('closetag', () => {
    stack.pop()
  })
  parser.write(text).close()
  if (!root) throw new Error('no root element')
  return root
}

const WHOLE = /^\d+$/
const DECIMAL = /^\d+(\.\d+)?$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/

function need(element: XmlElement, names: string[], problems: string[], where: string): void {
  for (const n of names) if (element.attributes[n] === undefined) problems.push(`${where}: <${element.name}> lacks ${n}`)
}

/** The problems of a JUnit document (empty when it is one), and its cases. */
export function checkJunit(text: string): { problems: string[]; root: XmlElement; cases: XmlElement[] } {
  const root = parseXml(text)
  const problems: string[] = []
  if (root.name !== 'testsuites') problems.push(`the root is <${root.name}>, not <testsuites>`)
  const cases: XmlElement[] = []
  for (const [i, suite] of root.children.entries()) {
    const where = `testsuite ${i + 1}`
    if (suite.name !== 'testsuite') {
      problems.push(`${where}: <${suite.name}> in <testsuites>`)
      continue
    }
    need(suite, ['name', 'tests', 'failures', 'errors', 'time', 'timestamp', 'hostname'], problems, where)
    for (const n of ['tests', 'failures', 'errors', 'skipped']) if (suite.attributes[n] !== undefined && !WHOLE.test(suite.attributes[n]!)) problems.push(`${where}: ${n}="${suite.attributes[n]}"`)
    if (suite.attributes.time !== undefined && !DECIMAL.test(suite.attributes.time)) problems.push(`${where}: time="${suite.attributes.time}"`)
    if (suite.attributes.timestamp !== undefined && !DATE_TIME.test(suite.attributes.timestamp)) problems.push(`${where}: timestamp="${suite.attributes.timestamp}"`)
    const kids = suite.children
    kids.forEach((k, j) => {
      if (k.name === 'properties') {
        if (j !== 0) problems.push(`${where}: <properties> not first`)
        for (const p of k.children) need(p, ['name', 'value'], problems, `${where} property`)
      } else if (k.name === 'testcase') {
        cases.push(k)
        need(k, ['name', 'classname', 'time'], problems, `${where} testcase ${k.attributes.name}`)
        const outcomes = k.children.filter((c) => ['failure', 'error', 'skipped'].includes(c.name))
        if (outcomes.length > 1) problems.push(`${where} testcase ${k.attributes.name}: ${outcomes.length} outcomes`)
        for (const o of outcomes) if (o.name !== 'skipped') need(o, ['message', 'type'], problems, `${where} testcase ${k.attributes.name}`)
        const others = k.children.filter((c) => !['failure', 'error', 'skipped', 'system-out', 'system-err'].includes(c.name))
        if (others.length > 0) problems.push(`${where} testcase: unexpected <${others[0]!.name}>`)
      } else if (k.name !== 'system-out' && k.name !== 'system-err') {
        problems.push(`${where}: unexpected <${k.name}>`)
      }
    })
    const suiteCases = kids.filter((k) => k.name === 'testcase')
    const count = (tag: string): number => suiteCases.filter((c) => c.children.some((x) => x.name === tag)).length
    if (Number(suite.attributes.tests) !== suiteCases.length) problems.push(`${where}: tests="${suite.attributes.tests}" but ${suiteCases.length} cases`)
    if (Number(suite.attributes.failures) !== count('failure')) problems.push(`${where}: failures="${suite.attributes.failures}" but ${count('failure')} failed`)
    if (Number(suite.attributes.errors) !== count('error')) problems.push(`${where}: errors="${suite.attributes.errors}" but ${count('error')} errors`)
  }
  const sum = (n: string): number => root.children.reduce((s, x) => s + Number(x.attributes[n] ?? 0), 0)
  for (const n of ['tests', 'failures', 'errors']) if (root.attributes[n] !== undefined && Number(root.attributes[n]) !== sum(n)) problems.push(`testsuites ${n}="${root.attributes[n]}" but the suites add up to ${sum(n)}`)
  return { problems, root, cases }
}
