import { readFileSync } from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CSV_COLUMNS,
  CsvSyntaxError,
  csvNumber,
  findUnredacted,
  formatCsv,
  formatCsvLabels,
  guardCsvText,
  parseCsv,
  parseCsvLabels,
  redactRun,
  runCsv,
  unguardCsvText
} from '../../../../src/shared/export'
import { RunDocumentSchema, type Job, type RunDocument } from '../../../../src/shared/model/run'
import type { Sample } from '../../../../src/shared/model/sample'

function loopbackRun(): RunDocument {
  const file = path.join(__dirname, '../../../fixtures/runs/loopback-quick/run.json')
  return RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
}

const HEADER =
  'run_id,run_name,target,role,side,scenario_hypervisor,scenario_storage,scenario_cache,scenario_queues,scenario_bus,' +
  'scenario_network,scenario_os,job_kind,peer,test_id,test_title,tool,metric,unit,better,labels,repetition,value'

const col = (name: (typeof CSV_COLUMNS)[number]): number => CSV_COLUMNS.indexOf(name)

const LOOPBACK = loopbackRun()

/** A one-job run with the given names and samples, built on the loopback run's plan. */
function tinyRun(overrides: { runName?: string; title?: string; side?: string; samples?: Sample[] } = {}): RunDocument {
  const base = LOOPBACK
  const job: Job = {
    ...(base.jobs[0] as Job),
    title: overrides.title ?? 'a title',
    side: overrides.side ?? 'host',
    samples: overrides.samples ?? [{ metric: 'fio.read.iops', value: 1, unit: 'op/s', better: 'higher', labels: {} }]
  }
  return { ...base, name: overrides.runName ?? base.name, jobs: [job] }
}

function succeededSamples(run: RunDocument): { job: Job; sample: Sample }[] {
  return run.jobs.filter((j) => j.status === 'succeeded').flatMap((job) => job.samples.map((sample) => ({ job, sample })))
}

describe('runCsv on the loopback run', () => {
  const run = loopbackRun()
  const text = runCsv(run)
  const records = parseCsv(text)

  it('starts with the header, exactly, and ends every record with CRLF', () => {
    expect(text.startsWith(`${HEADER}\r\n`)).toBe(true)
    expect(records[0]).toEqual(HEADER.split(','))
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
  })

  it('has one row per sample of the succeeded jobs (472 in this run)', () => {
    expect(records.length - 1).toBe(succeededSamples(run).length)
    expect(records.length - 1).toBe(472)
    expect(records.every((r) => r.length === CSV_COLUMNS.length)).toBe(true)
  })

  it('writes the first row as the run document says', () => {
    expect(records[1]).toEqual([
      '20261121-004506-13e070',
      'Loopback quick comparison',
      'host',
      'baseline',
      'host',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      'compare',
      '',
      'fio-randread',
      '4 KiB random read',
      'fio',
      'fio.read.iops',
      'op/s',
      'higher',
      '',
      '1',
      '21055.944056'
    ])
  })

  it("fills the scenario columns from the target's scenario, with machine values", () => {
    const guestRow = records.find((r) => r[col('target')] === 'guest')
    expect(guestRow?.slice(col('role'), col('job_kind') + 1)).toEqual([
      'variant',
      'guest (cache=none)',
      'kvm',
      'file-raw',
      'none',
      '1',
      'virtio-blk',
      '',
      '',
      'compare'
    ])
  })

  it('parses back to the identical value for every (job, metric, labels, repetition), in job then sample order', () => {
    const expected = succeededSamples(run)
    const rows = records.slice(1)
    const byKey = new Map<string, string>()
    const keyOf = (fields: string[]): string => JSON.stringify(fields)
    for (const [index, row] of rows.entries()) {
      const { job, sample } = expected[index] as { job: Job; sample: Sample }
      expect(row[col('target')]).toBe(job.target)
      expect(row[col('test_id')]).toBe(job.testId)
      expect(row[col('job_kind')]).toBe(job.kind)
      expect(row[col('metric')]).toBe(sample.metric)
      expect(row[col('repetition')]).toBe(String(job.repetition))
      expect(Number(row[col('value')])).toBe(sample.value)
      const key = keyOf([job.kind, job.target, job.peer ?? '', job.testId, String(job.repetition), sample.metric, formatCsvLabels(sample.labels)])
      expect(byKey.has(key)).toBe(false)
      byKey.set(key, row[col('value')] ?? '')
    }
    // and looked up by key rather than by position
    for (const { job, sample } of expected) {
      const key = keyOf([job.kind, job.target, job.peer ?? '', job.testId, String(job.repetition), sample.metric, formatCsvLabels(sample.labels)])
      expect(Number(byKey.get(key))).toBe(sample.value)
    }
  })

  it('writes labels without the repetition label, keys sorted', () => {
    const iperfCpu = records.find((r) => r[col('metric')] === 'iperf3.cpu')
    expect(iperfCpu?.[col('labels')]).toBe('machine=target')
    const direction = records.find((r) => r[col('metric')] === 'iperf3.sent.bandwidth')
    expect(direction?.[col('labels')]).toBe('direction=target->peer')
    expect(direction?.[col('peer')]).toBe('guest')
  })

  it('leaves out jobs that did not succeed', () => {
    const failed = structuredClone(run)
    const job = failed.jobs[0] as Job
    job.status = 'failed'
    expect(parseCsv(runCsv(failed)).length - 1).toBe(472 - job.samples.length)
  })

  it('with redact, holds none of the host names or addresses and the same values', () => {
    const redacted = runCsv(run, { redact: true })
    expect(findUnredacted(redacted, run)).toEqual([])
    expect(redacted).toBe(runCsv(redactRun(run).run))
    expect(runCsv(run, { redact: redactRun(run).redaction })).toBe(redacted)
    const values = parseCsv(redacted).slice(1).map((r) => r[col('value')])
    expect(values).toEqual(records.slice(1).map((r) => r[col('value')]))
  })
})

describe('values', () => {
  it.each([
    [0.1 + 0.2, '0.30000000000000004'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [123456789012345680000, '123456789012345680000'],
    [1e21, '1e+21'],
    [-2.5, '-2.5'],
    [-0, '-0'],
    [86245146, '86245146']
  ])('writes %s as %s, which parses back to the same double', (value, written) => {
    expect(csvNumber(value)).toBe(written)
    expect(Object.is(Number(written), value)).toBe(true)
  })

  it('round-trips any double through the CSV', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = runCsv(tinyRun({ samples: [{ metric: 'fio.read.iops', value, unit: 'op/s', better: 'higher', labels: {} }] }))
        expect(Object.is(Number(parseCsv(text)[1]?.[col('value')]), value)).toBe(true)
      })
    )
  })

  it('keeps -0 when the run is redacted first', () => {
    const run = tinyRun({ samples: [{ metric: 'fio.read.iops', value: -0, unit: 'op/s', better: 'higher', labels: {} }] })
    expect(runCsv(run, { redact: true }).endsWith(',1,-0\r\n')).toBe(true)
  })

  it('leaves a value that is not finite empty rather than writing a number', () => {
    expect(csvNumber(Number.NaN)).toBe('')
    expect(csvNumber(Number.POSITIVE_INFINITY)).toBe('')
  })
})

describe('quoting (RFC 4180)', () => {
  it('quotes fields holding a comma, a quote, CR or LF, doubling the quotes', () => {
    const text = runCsv(tinyRun({ runName: 'Lab, "north"\r\nrack 2', title: 'plain', side: 'side\nwith newline' }))
    const dataLine = text.slice(text.indexOf('\r\n') + 2)
    expect(dataLine.startsWith('20261121-004506-13e070,"Lab, ""north""\r\nrack 2",host,baseline,"side\nwith newline",')).toBe(true)
    const row = parseCsv(text)[1]
    expect(row?.[col('run_name')]).toBe('Lab, "north"\r\nrack 2')
    expect(row?.[col('side')]).toBe('side\nwith newline')
    expect(row?.[col('test_title')]).toBe('plain')
  })

  it('writes plain fields as they are', () => {
    expect(formatCsv([['a', 'b c', ''], ['1']])).toBe('a,b c,\r\n1\r\n')
    expect(formatCsv([['x"y', 'p,q', 'l\rm']])).toBe('"x""y","p,q","l\rm"\r\n')
  })
})

describe('spreadsheet formula guard', () => {
  it.each([
    ['=HYPERLINK("http://evil.example/x")', `'=HYPERLINK("http://evil.example/x")`],
    ['+1+2', `'+1+2`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\tcmd', `'\tcmd`],
    ['\rcmd', `'\rcmd`],
    [`'=already`, `''=already`],
    [`'plain`, `'plain`],
    ['plain = text', 'plain = text']
  ])('guards %j as %j', (text, guarded) => {
    expect(guardCsvText(text)).toBe(guarded)
    expect(unguardCsvText(guarded)).toBe(text)
  })

  it('guards text fields of the CSV but never the value column', () => {
    const text = runCsv(
      tinyRun({
        runName: '=cmd|"/c calc"!A1',
        title: '@title',
        side: '+side',
        samples: [{ metric: 'fio.read.iops', value: -5, unit: 'op/s', better: 'higher', labels: { '-k': 'v' } }]
      })
    )
    const row = parseCsv(text)[1] ?? []
    expect(row[col('run_name')]).toBe(`'=cmd|"/c calc"!A1`)
    expect(row[col('test_title')]).toBe(`'@title`)
    expect(row[col('side')]).toBe(`'+side`)
    expect(row[col('labels')]).toBe(`'-k=v`)
    expect(row[col('value')]).toBe('-5')
    expect(row.filter((field, i) => i !== col('value') && /^[=+\-@\t\r]/.test(field))).toEqual([])
  })

  it('is always undone by unguardCsvText, and no guarded text starts a formula', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const guarded = guardCsvText(text)
        expect(unguardCsvText(guarded)).toBe(text)
        expect(/^[=+\-@\t\r]/.test(guarded)).toBe(false)
      })
    )
  })
})

describe('labels', () => {
  it('joins key=value with ";", keys sorted, without repetition', () => {
    expect(formatCsvLabels({ repetition: '2', z: '1', a: 'x', direction: 'target->peer' })).toBe('a=x;direction=target->peer;z=1')
    expect(formatCsvLabels({ repetition: '1' })).toBe('')
  })

  it('escapes %, ; and = so the labels read back', () => {
    const labels = { 'a=b': 'c;d', 'p%': '=', q: '' }
    const field = formatCsvLabels(labels)
    expect(field).toBe('a%3Db=c%3Bd;p%25=%3D;q=')
    expect(parseCsvLabels(field)).toEqual(labels)
  })

  it('keeps a __proto__ label a plain label', () => {
    const parsed = parseCsvLabels('__proto__=x')
    expect(Object.keys(parsed)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
  })
})

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, empty fields and both line ends', () => {
    expect(parseCsv('a,"b,c","d""e"\r\n,,\nlast,"multi\r\nline"')).toEqual([
      ['a', 'b,c', 'd"e'],
      ['', '', ''],
      ['last', 'multi\r\nline']
    ])
  })

  it('does not add a record for the final line end, skips a byte order mark, and reads nothing from nothing', () => {
    expect(parseCsv('x\r\n')).toEqual([['x']])
    expect(parseCsv('\uFEFFx,y\r\n')).toEqual([['x', 'y']])
    expect(parseCsv('')).toEqual([])
    expect(parseCsv('a,')).toEqual([['a', '']])
    expect(parseCsv('a\r\n\r\nb')).toEqual([['a'], [''], ['b']])
  })

  it.each([
    ['a,"open\r\nstill open', 'CSV line 1, column 3: a quoted field is not closed'],
    ['ok\r\nab"c', 'CSV line 2, column 3: a field that holds a quote must be quoted'],
    ['"closed"x,y', 'CSV line 1, column 9: "x" follows a closing quote']
  ])('refuses %j, naming the line and column', (text, message) => {
    expect(() => parseCsv(text)).toThrow(CsvSyntaxError)
    expect(() => parseCsv(text)).toThrow(message)
  })
})

describe('round trip of arbitrary names and labels', () => {
  const text = fc.string({ unit: 'grapheme', maxLength: 40 })

  it('gives back every name, title, side and label as written', () => {
    fc.assert(
      fc.property(text, text, text, text, fc.dictionary(text, text, { maxKeys: 4 }), (runName, title, side, target, labels) => {
        const run = tinyRun({ runName, title, side, samples: [{ metric: 'fio.read.iops', value: 7, unit: 'op/s', better: 'higher', labels }] })
        const withTarget = { ...run, jobs: run.jobs.map((j) => ({ ...j, target })) }
        const records = parseCsv(runCsv(withTarget))
        expect(records).toHaveLength(2)
        const row = (records[1] ?? []).map(unguardCsvText)
        expect(row[col('run_name')]).toBe(runName)
        expect(row[col('test_title')]).toBe(title)
        expect(row[col('side')]).toBe(side)
        expect(row[col('target')]).toBe(target)
        const { repetition: _, ...withoutRepetition } = labels
        expect(parseCsvLabels(row[col('labels')] ?? '')).toEqual(withoutRepetition)
        expect(row[col('value')]).toBe('7')
      })
    )
  })
})
