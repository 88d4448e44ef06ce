/**
 * The CSV line bonnie++ prints on stdout after every run (bon_time.cpp, BonTimer::DoReportIO and
 * DoReportFile). Its first field is the CSV format version; the layout depends on it:
 *
 * - format `1.97` (bonnie++ 1.97): name, concurrency, seed, file_size, io_chunk_size, then six
 *   (rate, %CPU) pairs for the I/O tests, num_files, max_size, min_size, num_dirs,
 *   file_chunk_size, six (rate, %CPU) pairs for the file tests and twelve latencies: 48 fields.
 * - format `1.96` (bonnie++ 1.96): the same 48 fields in the same order as 1.97.
 * - format `1.98` (bonnie++ 1.98, 2.00, 2.00a): the same with the number of seeks and of seeker
 *   processes after io_chunk_size: 50 fields. (2.00a's `-x` header line still names the 1.97
 *   fields, so the header is skipped, never used to find a field.)
 */

/** One of bonnie++'s twelve tests, in the order of the CSV line. */
export interface BonnieTest {
  /** Metric name part and CSV field name (`put_block` → `bonnie.put_block`, `put_block_cpu`). */
  id: string
  /** I/O tests report KiB/s; seeks and the file tests report operations per second. */
  rate: 'KiB/s' | 'op/s'
  /** What the test does, for metric descriptions. */
  does: string
  /** The option that makes the test run longer when it finished too fast to be measured. */
  longer: string
}

const IO_LONGER = 'a larger file size (-s, at least twice the RAM)'
const FILES_LONGER = 'more files (-n)'

export const BONNIE_TESTS: readonly BonnieTest[] = [
  { id: 'putc', rate: 'KiB/s', does: 'writes the file one byte at a time with putc()', longer: IO_LONGER },
  { id: 'put_block', rate: 'KiB/s', does: 'writes the file in blocks with write(2) (sequential output)', longer: IO_LONGER },
  { id: 'rewrite', rate: 'KiB/s', does: 'reads each block, changes it and writes it back (read, lseek, write)', longer: IO_LONGER },
  { id: 'getc', rate: 'KiB/s', does: 'reads the file one byte at a time with getc()', longer: IO_LONGER },
  { id: 'get_block', rate: 'KiB/s', does: 'reads the file in blocks with read(2) (sequential input)', longer: IO_LONGER },
  { id: 'seeks', rate: 'op/s', does: 'several processes seek to random blocks and read them, rewriting one in ten', longer: IO_LONGER },
  { id: 'seq_create', rate: 'op/s', does: 'creates files in name order', longer: FILES_LONGER },
  { id: 'seq_stat', rate: 'op/s', does: 'stats (and, with a file size, reads) the files in name order', longer: FILES_LONGER },
  { id: 'seq_del', rate: 'op/s', does: 'deletes the files in name order', longer: FILES_LONGER },
  { id: 'ran_create', rate: 'op/s', does: 'creates files in random order', longer: FILES_LONGER },
  { id: 'ran_stat', rate: 'op/s', does: 'stats (and, with a file size, reads) the files in random order', longer: FILES_LONGER },
  { id: 'ran_del', rate: 'op/s', does: 'deletes the files in random order', longer: FILES_LONGER }
]

export interface CsvLayout {
  format: string
  fieldCount: number
  /** Index of the first (rate, %CPU) pair of the I/O tests (putc). */
  ioPairs: number
  /** Index of the first pair of the file tests (seq_create). */
  filePairs: number
  /** Index of the first of the twelve latencies. */
  latencies: number
}

const LAYOUT_197: CsvLayout = { format: '1.97', fieldCount: 48, ioPairs: 7, filePairs: 24, latencies: 36 }
const LAYOUT_198: CsvLayout = { format: '1.98', fieldCount: 50, ioPairs: 9, filePairs: 26, latencies: 38 }

const LAYOUT_196: CsvLayout = { ...LAYOUT_197, format: '1.96' }

export const LAYOUTS: Readonly<Record<string, CsvLayout>> = { '1.96': LAYOUT_196, '1.97': LAYOUT_197, '1.98': LAYOUT_198 }

/** The index of a test's rate field; its %CPU field follows it. */
export function rateIndex(layout: CsvLayout, testIndex: number): number {
  return testIndex < 6 ? layout.ioPairs + 2 * testIndex : layout.filePairs + 2 * (testIndex - 6)
}

/** The index of a test's latency field. */
export function latencyIndex(layout: CsvLayout, testIndex: number): number {
  return layout.latencies + testIndex
}
