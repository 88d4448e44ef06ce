import { describe, expect, it } from 'vitest'
import { ddParamsSchema } from '../../../../../src/main/tools/dd/params'
import { parse } from '../../../../../src/main/tools/dd/parse'
import { fixtureOutput, reasonOf, samplesOf, valuesOf, warningsOf } from './fixtures'

/** bytes, seconds and records out exactly as the fixture's dd printed them. */
function ddValues(bytes: number, seconds: number, records: number) {
  return { 'dd.bytes': bytes, 'dd.elapsed': seconds, 'dd.bandwidth': bytes / seconds, 'dd.lat.mean': seconds / records }
}

describe('dd parse: GNU coreutils 9.1, LC_ALL=C', () => {
  it.each([
    ['gnu-write-16m', 16777216, 0.0435032, 16],
    ['gnu-write-16m-fdatasync', 16777216, 0.0222991, 16],
    ['gnu-latency-512-direct', 512000, 0.0398238, 1000],
    ['gnu-throughput-32m-direct', 33554432, 0.029369, 1],
    ['gnu-read-16m-direct', 16777216, 0.0191355, 16],
    ['gnu-null-1g', 1073741824, 0.0604049, 16],
    ['gnu-one-byte', 1, 7.7455e-5, 1],
    ['gnu-100-bytes', 100, 5.0926e-5, 1]
  ])('%s: bytes, seconds, bytes / seconds and seconds / records', (name, bytes, seconds, records) => {
    const result = parse(fixtureOutput(name))
    expect(valuesOf(result)).toEqual(ddValues(bytes, seconds, records))
    expect(warningsOf(result)).toEqual([])
  })

  it('gives every value in base units with the metric table\'s unit and direction', () => {
    expect(samplesOf(parse(fixtureOutput('gnu-latency-512-direct')))).toEqual([
      { metric: 'dd.bytes', value: 512000, unit: 'B', better: 'higher', labels: {} },
      { metric: 'dd.elapsed', value: 0.0398238, unit: 's', better: 'lower', labels: {} },
      { metric: 'dd.bandwidth', value: 512000 / 0.0398238, unit: 'B/s', better: 'higher', labels: {} },
      { metric: 'dd.lat.mean', value: 0.0398238 / 1000, unit: 's', better: 'lower', labels: {} }
    ])
  })

  it('computes bandwidth from bytes / seconds, not from the rounded printed rate', () => {
    const values = valuesOf(parse(fixtureOutput('gnu-write-16m')))
    // dd printed "386 MB/s"; bytes / seconds is 385.65... MB/s.
    expect(values['dd.bandwidth']).toBe(16777216 / 0.0435032)
    expect(values['dd.bandwidth']).not.toBe(386e6)
  })

  it('skips the \\r-joined status=progress lines and counts partial records as operations', () => {
    const out = fixtureOutput('gnu-partial-progress')
    expect(out.stderr).toContain('\r1065536 bytes (1.1 MB, 1.0 MiB) copied, 1 s, 817 kB/s\r')
    const result = parse(out)
    expect(valuesOf(result)).toEqual(ddValues(2500000, 2.60727, 32 + 11))
    expect(warningsOf(result)).toEqual([expect.stringContaining('11 partial records')])
  })
})

describe('dd parse: other locales and versions', () => {
  it('reads LC_ALL=de_DE output: German words and decimal commas', () => {
    const out = fixtureOutput('gnu-de-locale-latency')
    expect(out.stderr).toContain('512000 Bytes (512 kB, 500 KiB) kopiert, 0,0418645 s, 12,2 MB/s')
    const result = parse(out)
    expect(valuesOf(result)).toEqual(ddValues(512000, 0.0418645, 1000))
    expect(warningsOf(result)).toEqual([])
    expect(valuesOf(parse(fixtureOutput('gnu-de-locale-write-16m')))).toEqual(ddValues(16777216, 0.0431555, 16))
  })

  it('reads English words with decimal commas (LC_NUMERIC=de_DE only)', () => {
    expect(valuesOf(parse(fixtureOutput('gnu-de-numeric-write-16m')))).toEqual(ddValues(16777216, 0.0082524, 16))
  })

  it("reads coreutils before 8.24 (no IEC size) and before 6.4 ('seconds')", () => {
    expect(valuesOf(parse(fixtureOutput('constructed-coreutils-8.22-study002')))).toEqual(ddValues(1073741824, 2.30412, 1))
    expect(valuesOf(parse(fixtureOutput('constructed-coreutils-5.97')))).toEqual(ddValues(1073741824, 2.30412, 16))
  })

  it("reads BusyBox dd's transfer line (1024-based units, %f seconds)", () => {
    const result = parse(fixtureOutput('constructed-busybox-transfer-line'))
    expect(valuesOf(result)).toEqual(ddValues(512000, 0.005123, 1000))
    expect(warningsOf(result)).toEqual([])
  })

  it('warns when dd copied another amount than the parameters asked for', () => {
    expect(warningsOf(parse(fixtureOutput('gnu-write-16m'), ddParamsSchema.parse({ blockSize: '1M', count: '16' })))).toEqual([])
    expect(warningsOf(parse(fixtureOutput('gnu-write-16m'), ddParamsSchema.parse({ blockSize: '1M', count: '32' })))).toEqual([
      'the test asked for 33554432 bytes (bs=1M x count=32) but 16777216 were copied; the figures are for what was copied'
    ])
  })

  it('warns when the printed rate disagrees with bytes / seconds, and still uses bytes / seconds', () => {
    const out = { stdout: '', stderr: '16+0 records in\n16+0 records out\n16777216 bytes (17 MB, 16 MiB) copied, 0.0435032 s, 999 MB/s\n', exitCode: 0 }
    const result = parse(out)
    expect(valuesOf(result)['dd.bandwidth']).toBe(16777216 / 0.0435032)
    expect(warningsOf(result)).toEqual([expect.stringContaining('printed a rate of 999 MB/s')])
  })
})

describe('dd parse: timed commands (study 004)', () => {
  it("keeps dd's own bytes and seconds and adds bash's real, user and sys times", () => {
    const result = parse(fixtureOutput('time-bash-dd-write'))
    expect(valuesOf(result)).toEqual({
      ...ddValues(67108864, 0.0318571, 8192),
      'dd.wall': 0.034,
      'dd.cpu.user': 0.001,
      'dd.cpu.system': 0.033
    })
    expect(warningsOf(result)).toEqual([])
  })

  it('reads GNU time -v around dd (wall clock h:mm:ss or m:ss); a 0.00 CPU time is left out', () => {
    expect(valuesOf(parse(fixtureOutput('time-gnu-verbose-dd-write')))).toEqual({
      ...ddValues(67108864, 0.045534, 8192),
      'dd.wall': 0.05,
      'dd.cpu.system': 0.05
    })
  })

  it('reads the cat form: bytes from the file size line, time from bash', () => {
    const out = fixtureOutput('time-bash-cat-read')
    expect(out.stdout).toBe('virtbench-file-bytes: 67108864\n')
    const result = parse(out)
    expect(valuesOf(result)).toEqual({
      'dd.bytes': 67108864,
      'dd.elapsed': 0.125,
      'dd.bandwidth': 67108864 / 0.125,
      'dd.wall': 0.125,
      'dd.cpu.user': 0.001,
      'dd.cpu.system': 0.095
    })
    expect(warningsOf(result)).toEqual([])
    // cat reads the whole file: the block size and count it does not use ask for no amount
    const asPlanned = ddParamsSchema.parse({ mode: 'read', reader: 'cat', direct: false, fileName: 'ddfile2', timer: 'bash', useExistingFile: true })
    expect(warningsOf(parse(out, asPlanned))).toEqual([])
  })

  it.each([
    ['time-gnu-verbose-cat-read', 0.1, { 'dd.cpu.system': 0.07 }, 'GNU time -v', '±10 %'],
    ['time-gnu-default-cat-read', 0.02, {}, 'GNU time', '±50 %'],
    ['time-posix-cat-read', 0.02, {}, 'time -p', '±50 %'],
    ['time-busybox-cat-read', 0.02, {}, 'BusyBox time', '±50 %']
  ])('reads the cat form timed by %s and warns about the 10 ms resolution', (name, wall, cpu, source, uncertainty) => {
    const result = parse(fixtureOutput(name))
    expect(valuesOf(result)).toEqual({ 'dd.bytes': 67108864, 'dd.elapsed': wall, 'dd.bandwidth': 67108864 / wall, 'dd.wall': wall, ...cpu })
    expect(warningsOf(result)).toEqual([expect.stringMatching(new RegExp(`^${source} timed the command to 0.01 s .*${uncertainty}`))])
  })

  it('fails when the timer measured 0 s instead of dividing by zero', () => {
    expect(reasonOf(parse(fixtureOutput('time-busybox-cat-read-cached')))).toMatch(/BusyBox time measured 0 s .* read a larger file/)
  })
})

describe('dd parse: BusyBox dd without its transfer line', () => {
  const study004 = ddParamsSchema.parse({ blockSize: '8k', count: '8k', direct: false, timer: 'bash' })

  it('derives bytes from full records x block size and time from the timer, and says so', () => {
    const result = parse(fixtureOutput('time-bash-busybox-dd-write'), study004)
    expect(valuesOf(result)).toEqual({
      'dd.bytes': 8192 * 8192,
      'dd.elapsed': 0.067,
      'dd.bandwidth': (8192 * 8192) / 0.067,
      'dd.lat.mean': 0.067 / 8192,
      'dd.wall': 0.067,
      'dd.cpu.user': 0.004,
      'dd.cpu.system': 0.052
    })
    expect(warningsOf(result)).toEqual([
      expect.stringContaining('dd.bytes is 8192 records x 8192 B'),
      expect.stringContaining("bash's time timed the command to 0.001 s and it took only 0.067 s")
    ])
  })

  it('reads BusyBox time around BusyBox dd', () => {
    const values = valuesOf(parse(fixtureOutput('time-busybox-busybox-dd-write'), study004))
    expect(values).toEqual({
      'dd.bytes': 67108864,
      'dd.elapsed': 0.07,
      'dd.bandwidth': 67108864 / 0.07,
      'dd.lat.mean': 0.07 / 8192,
      'dd.wall': 0.07,
      'dd.cpu.system': 0.04
    })
  })

  it('fails with what to do when there is no timer, no block size, or partial records', () => {
    expect(reasonOf(parse(fixtureOutput('busybox-write-16m')))).toMatch(/only its record counts.*run it with a timer/)
    expect(reasonOf(parse(fixtureOutput('time-bash-busybox-dd-write')))).toMatch(/needs the test's block size/)
    const partial = fixtureOutput('busybox-partial')
    const timed = { ...partial, stderr: `${partial.stderr}\nreal\t0m0.400s\nuser\t0m0.000s\nsys\t0m0.001s\n` }
    expect(reasonOf(parse(timed, ddParamsSchema.parse({ blockSize: '64k', timer: 'bash' })))).toMatch(/2 of the records were partial/)
  })
})

describe('dd parse: failures', () => {
  it('quotes the error dd printed', () => {
    const full = parse(fixtureOutput('gnu-error-full'))
    expect(reasonOf(full)).toBe("the command reported an error: dd: error writing '/dev/full': No space left on device")
    expect(reasonOf(parse(fixtureOutput('gnu-error-missing-input')))).toContain("dd: failed to open 'does-not-exist'")
  })

  it('refuses a run that copied nothing rather than reporting 0 B/s', () => {
    expect(reasonOf(parse(fixtureOutput('gnu-empty')))).toMatch(/copied 0 bytes/)
  })

  it('refuses 0 seconds (Infinity B/s)', () => {
    const out = { stdout: '', stderr: '1+0 records in\n1+0 records out\n512 bytes copied, 0 s, Infinity B/s\n', exitCode: 0 }
    expect(reasonOf(parse(out))).toMatch(/clock did not advance/)
  })

  it('refuses a non-zero exit, a signal, two reports and empty output', () => {
    const good = fixtureOutput('gnu-write-16m')
    expect(reasonOf(parse({ ...good, exitCode: 1 }))).toMatch(/exited with code 1/)
    expect(reasonOf(parse({ ...good, exitCode: null, signal: 'SIGKILL' }))).toMatch(/signal SIGKILL/)
    expect(reasonOf(parse({ ...good, stderr: good.stderr + good.stderr }))).toMatch(/found 2 dd reports/)
    expect(reasonOf(parse({ stdout: '', stderr: '\n', exitCode: 0 }))).toMatch(/output is empty/)
  })

  it('names what it looked for when given another tool\'s output', () => {
    const result = parse({ stdout: fixtureText(), stderr: '', exitCode: 0 })
    expect(reasonOf(result)).toMatch(/no dd report found/)
  })
})

function fixtureText(): string {
  return 'PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.\n3 packets transmitted, 3 received, 0% packet loss, time 405ms\n'
}
