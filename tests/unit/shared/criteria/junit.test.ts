import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare'
import { acceptanceText, judgeAcceptance, junitSuitesXml, junitXml, xmlText } from '../../../../src/shared/criteria'
import { AcceptanceSchema } from '../../../../src/shared/model/criteria'
import { checkJunit, parseXml } from '../../../harness/junit-xml'
import { factsOf, repetitions } from '../compare/build-input'

/** host 1000 IOPS, guest 87 % of it (<b> & "quotes" in the test title, to be escaped). */
function result() {
  const comparison = compare({
    baseline: 'host',
    variants: ['guest'],
    tests: [
      { id: 'disk', title: 'fio <4k> & "read"', aggregate: 'median' },
      { id: 'cpu', title: 'sysbench cpu', aggregate: 'median' }
    ],
    measurements: [
      ...repetitions('host', 'disk', 'fio.read.iops', [1000, 1010, 990], 'op/s', 'higher'),
      ...repetitions('guest', 'disk', 'fio.read.iops', [870, 872, 868], 'op/s', 'higher'),
      ...repetitions('host', 'cpu', 'sysbench.cpu.events', [500, 502, 498], 'op/s', 'higher'),
      ...repetitions('guest', 'cpu', 'sysbench.cpu.events', [495, 497, 493], 'op/s', 'higher')
    ],
    factsOf: factsOf({ disk: ['fio.read.iops'], cpu: ['sysbench.cpu.events'] })
  })
  return judgeAcceptance(
    AcceptanceSchema.parse({
      criteria: [
        { scope: { category: 'storage' }, atLeastPct: 90 },
        { scope: { category: 'cpu' }, atLeastPct: 95 },
        { scope: { test: 'gone' }, noSlower: true }
      ]
    }),
    comparison
  )
}

const INPUT = { suite: 'release gate', className: 'virtbench.release_gate', timestamp: '2026-11-26T01:02:03.456Z', seconds: 42.5, properties: { 'virtbench.run.id': 'r1' } }

describe('junitXml', () => {
  it('is well-formed XML of the JUnit shape, one test case per criterion, with the counts', () => {
    const xml = junitXml(result(), INPUT)
    const { problems, root, cases } = checkJunit(xml)
    expect(problems).toEqual([])
    expect(root.attributes).toMatchObject({ tests: '3', failures: '1', errors: '1', time: '42.500' })
    const suite = root.children[0]!
    expect(suite.attributes).toMatchObject({ name: 'release gate', tests: '3', failures: '1', errors: '1', skipped: '0', timestamp: '2026-11-26T01:02:03' })
    expect(suite.children[0]!.children.map((p) => p.attributes)).toEqual([{ name: 'virtbench.run.id', value: 'r1' }])
    expect(cases.map((c) => [c.attributes.name, c.children.map((x) => x.name)])).toEqual([
      ['1. storage primary figures at least 90 % of the baseline', ['failure']],
      ['2. cpu primary figures at least 95 % of the baseline', ['system-out']],
      ['3. primary figures (test gone): none slower', ['error']]
    ])
    const failure = cases[0]!.children[0]!
    // the figures, with the title's markup escaped and read back intact
    expect(failure.attributes.message).toBe('1 of 1 figure failed: guest, fio <4k> & "read" fio.read.iops: 87 % [95 % interval 85 % to 89.1 %], slower: below 90 %')
    expect(failure.attributes.type).toBe('criterion-failed')
    expect(failure.text).toContain('FAIL guest, fio <4k> & "read" fio.read.iops: 87 %')
    expect(cases[1]!.children[0]!.text).toMatch(/^1 of 1 figure passed\nok {3}guest, sysbench cpu sysbench\.cpu\.events: 99 %/)
    expect(cases[2]!.children[0]!.attributes.type).toBe('criterion-not-judged')
  })

  it('escapes markup and leaves out characters XML cannot hold', () => {
    expect(xmlText(`a<b>&"c"'\u0001\u0008d\ttab\n`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d\ttab\n')
    const xml = junitXml({ ...result(), results: [] , counts: { passed: 0, failed: 0, error: 0 } }, { ...INPUT, suite: 'bell \u0007 & <x>' })
    expect(parseXml(xml).children[0]!.attributes.name).toBe('bell  & <x>')
  })

  it('is refused by the checker when it is not well-formed or the counts lie', () => {
    expect(() => parseXml('<testsuites><testsuite></testsuites>')).toThrow()
    const lying = junitXml(result(), INPUT).replace('failures="1" errors="1" skipped', 'failures="0" errors="1" skipped')
    expect(checkJunit(lying).problems).toContain('testsuite 1: failures="0" but 1 failed')
  })
})

describe('junitSuitesXml (a sweep: a suite per combination)', () => {
  it('sums every suite into the document, and gives a combination nothing measured a test case in error', () => {
    const xml = junitSuitesXml(
      [
        { input: { ...INPUT, suite: 'release gate · cache=none' }, result: result() },
        { input: { ...INPUT, suite: 'release gate · cache=writeback' }, notJudged: 'cache=writeback was not measured: the sweep ended before any step of it completed' }
      ],
      61
    )
    const { problems, root, cases } = checkJunit(xml)
    expect(problems).toEqual([])
    expect(root.attributes).toMatchObject({ tests: '4', failures: '1', errors: '2', time: '61.000' })
    expect(root.children.map((s) => [s.attributes.name, s.attributes.tests, s.attributes.failures, s.attributes.errors])).toEqual([
      ['release gate · cache=none', '3', '1', '1'],
      ['release gate · cache=writeback', '1', '0', '1']
    ])
    const unmeasured = cases.at(-1)!
    expect(unmeasured.attributes.name).toBe('measured')
    expect(unmeasured.children.map((c) => [c.name, c.attributes.type, c.attributes.message])).toEqual([
      ['error', 'not-measured', 'cache=writeback was not measured: the sweep ended before any step of it completed']
    ])
    // one run's document is the same with either writer
    expect(junitSuitesXml([{ input: INPUT, result: result() }], INPUT.seconds)).toBe(junitXml(result(), INPUT))
  })
})

describe('acceptanceText', () => {
  it('gives the overall verdict, each criterion and the failing figures', () => {
    expect(acceptanceText(result())).toBe(
      [
        'Acceptance: FAILED (1 of 3 criteria passed)',
        'FAIL  1. storage primary figures at least 90 % of the baseline: 1 of 1 figure failed',
        '        guest, fio <4k> & "read" fio.read.iops: 87 % [95 % interval 85 % to 89.1 %], slower: below 90 %',
        'PASS  2. cpu primary figures at least 95 % of the baseline: 1 of 1 figure passed',
        'ERROR 3. primary figures (test gone): none slower: not judged: no compared figure matches its scope: check the category, test, metric and variant, and that the test produced results',
        ''
      ].join('\n')
    )
  })
})
