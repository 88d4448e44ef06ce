/**
 * iozone's sub-tests, in the order of its main table's columns and of its `-R` report blocks
 * (iozone.c: print_header, dump_excel). The last eight run only with -E (pread/pwrite family).
 */
export interface IozoneSubtest {
  /** Metric name part: `iozone.<id>`. */
  id: string
  /** The block title in the -R report, without its quotes. */
  report: string
  /** The column name in the main table's second header line. */
  column: string
  /** What the sub-test measures, for metric descriptions. */
  does: string
}

export const IOZONE_SUBTESTS: readonly IozoneSubtest[] = [
  { id: 'write', report: 'Writer report', column: 'write', does: 'writing a new file sequentially, including creating it and allocating its blocks' },
  { id: 'rewrite', report: 'Re-writer report', column: 'rewrite', does: 'writing over an existing file sequentially' },
  { id: 'read', report: 'Reader report', column: 'read', does: 'reading a file sequentially' },
  { id: 'reread', report: 'Re-Reader report', column: 'reread', does: 'reading a file that was just read, usually from the page cache' },
  { id: 'random_read', report: 'Random read report', column: 'read', does: 'reading records at random offsets' },
  { id: 'random_write', report: 'Random write report', column: 'write', does: 'writing records at random offsets' },
  { id: 'backward_read', report: 'Backward read report', column: 'read', does: 'reading a file from its end to its start' },
  { id: 'record_rewrite', report: 'Record rewrite report', column: 'rewrite', does: 'writing the same record over and over' },
  { id: 'stride_read', report: 'Stride read report', column: 'read', does: 'reading records at a fixed stride, 17 records by default' },
  { id: 'fwrite', report: 'Fwrite report', column: 'fwrite', does: 'writing a new file with the buffered fwrite() library call' },
  { id: 'frewrite', report: 'Re-Fwrite report', column: 'frewrite', does: 'writing over an existing file with fwrite()' },
  { id: 'fread', report: 'Fread report', column: 'fread', does: 'reading a file with the buffered fread() library call' },
  { id: 'freread', report: 'Re-Fread report', column: 'freread', does: 'reading a file that was just read with fread()' },
  { id: 'pwrite', report: 'Pwrite report', column: 'pwrite', does: 'writing a new file with pwrite(), with -E' },
  { id: 'repwrite', report: 'Re-Pwrite report', column: 'repwrite', does: 'writing over an existing file with pwrite(), with -E' },
  { id: 'pread', report: 'Pread report', column: 'pread', does: 'reading a file with pread(), with -E' },
  { id: 'repread', report: 'Re-Pread report', column: 'repread', does: 'reading a file that was just read with pread(), with -E' },
  { id: 'pwritev', report: 'Pwritev report', column: 'pwritev', does: 'writing a new file with pwritev(), with -E' },
  { id: 'repwritev', report: 'Re-Pwritev report', column: 'repwritev', does: 'writing over an existing file with pwritev(), with -E' },
  { id: 'preadv', report: 'Preadv report', column: 'preadv', does: 'reading a file with preadv(), with -E' },
  { id: 'repreadv', report: 'Re-Preadv report', column: 'repreadv', does: 'reading a file that was just read with preadv(), with -E' }
]

export const SUBTEST_BY_REPORT: ReadonlyMap<string, IozoneSubtest> = new Map(IOZONE_SUBTESTS.map((s) => [s.report, s]))

/** The report blocks each `-i <n>` test number gives (8, the mixed workload, has none). */
const BLOCKS_OF_TEST: Readonly<Record<string, readonly string[]>> = {
  '0': ['write', 'rewrite'],
  '1': ['read', 'reread'],
  '2': ['random_read', 'random_write'],
  '3': ['backward_read'],
  '4': ['record_rewrite'],
  '5': ['stride_read'],
  '6': ['fwrite', 'frewrite'],
  '7': ['fread', 'freread'],
  '9': ['pwrite', 'repwrite'],
  '10': ['pread', 'repread'],
  '11': ['pwritev', 'repwritev'],
  '12': ['preadv', 'repreadv']
}

/** The 13 blocks every run without -i prints (the pread family needs -E and a build that has it). */
const STANDARD_BLOCKS = IOZONE_SUBTESTS.slice(0, 13).map((s) => s.id)

/**
 * The report blocks a run must have printed, from its "Command line used:" line: the blocks of
 * its -i tests, or the 13 standard ones without -i. Null when the command line is not there.
 */
export function expectedBlocks(commandLine: string | null): string[] | null {
  if (commandLine === null) return null
  const words = commandLine.trim().split(/\s+/)
  const tests: string[] = []
  for (const [i, word] of words.entries()) {
    const joined = /^-[A-Za-z]*i(\d+)$/.exec(word)
    if (joined) tests.push(joined[1] ?? '')
    else if (/^-[A-Za-z]*i$/.test(word) && /^\d+$/.test(words[i + 1] ?? '')) tests.push(words[i + 1] ?? '')
  }
  if (tests.length === 0) return STANDARD_BLOCKS
  return [...new Set(tests.flatMap((t) => BLOCKS_OF_TEST[t] ?? []))]
}
