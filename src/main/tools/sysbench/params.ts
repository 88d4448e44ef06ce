import { z } from 'zod'

export const SYSBENCH_TESTS = ['cpu', 'memory', 'fileio'] as const
export type SysbenchTest = (typeof SYSBENCH_TESTS)[number]

/** sysbench fileio --file-test-mode values. */
export const FILE_TEST_MODES = ['seqwr', 'seqrewr', 'seqrd', 'rndrd', 'rndwr', 'rndrw'] as const
export type FileTestMode = (typeof FILE_TEST_MODES)[number]

const SIZE = /^([1-9][0-9]{0,12})([KMGT]?)$/
const SIZE_FACTORS: Record<string, number> = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }

/** Bytes of a sysbench size such as `1K`, `16K`, `2G` (powers of 1024); null when it is not one. */
export function sysbenchSizeBytes(text: string): number | null {
  const m = SIZE.exec(text)
  if (!m) return null
  const bytes = Number(m[1]) * SIZE_FACTORS[m[2]!]!
  return Number.isSafeInteger(bytes) ? bytes : null
}

function sizeSchema(what: string, example: string, min: number, max: number, maxText: string) {
  return z
    .string()
    .refine((v) => sysbenchSizeBytes(v) !== null, {
      message: `${what} must be a whole number with an optional unit K, M, G or T (powers of 1024), like ${example}`
    })
    .refine((v) => (sysbenchSizeBytes(v) ?? min) >= min, { message: `${what} must be at least ${min} byte${min === 1 ? '' : 's'}` })
    .refine((v) => (sysbenchSizeBytes(v) ?? 0) <= max, { message: `${what} can be at most ${maxText}` })
}

export const sysbenchParamsSchema = z
  .object({
    test: z
      .enum(SYSBENCH_TESTS)
      .default('cpu')
      .describe('cpu: prime numbers; memory: reads or writes of memory blocks; fileio: file I/O in the work directory'),
    threads: z
      .int('threads must be a whole number')
      .min(1, 'threads must be at least 1')
      .max(1024, 'threads can be at most 1024')
      .default(1)
      .describe('Worker threads (--threads)'),
    timeSeconds: z
      .int('timeSeconds must be a whole number of seconds')
      .min(1, 'timeSeconds must be at least 1 second')
      .max(86_400, 'timeSeconds can be at most 86400 seconds')
      .default(10)
      .describe('How long the test runs (--time)'),
    cpuMaxPrime: z
      .int('cpuMaxPrime must be a whole number')
      .min(3, 'cpuMaxPrime must be at least 3')
      .max(100_000_000, 'cpuMaxPrime can be at most 100000000')
      .default(10_000)
      .describe('cpu: each event finds the primes up to this number (--cpu-max-prime)'),
    memoryBlockSize: sizeSchema('memoryBlockSize', '1K or 1M', 1, 2 ** 32, '4G')
      .default('1K')
      .describe('memory: bytes read or written per operation (--memory-block-size)'),
    memoryTotalSize: sizeSchema('memoryTotalSize', '100G', 1, 2 ** 50, '1024T')
      .default('100G')
      .describe('memory: stop after this many bytes, if the time is not up first (--memory-total-size)'),
    memoryOper: z.enum(['read', 'write']).default('write').describe('memory: read or write the blocks (--memory-oper)'),
    memoryAccessMode: z
      .enum(['seq', 'rnd'])
      .default('seq')
      .describe('memory: walk the blocks in order or at random (--memory-access-mode)'),
    fileTotalSize: sizeSchema('fileTotalSize', '2G', 1, 2 ** 44, '16T')
      .default('2G')
      .describe('fileio: total size of the test files, written by the prepare step (--file-total-size); make it larger than RAM to test the disk rather than the page cache'),
    fileNum: z
      .int('fileNum must be a whole number')
      .min(1, 'fileNum must be at least 1')
      .max(1024, 'fileNum can be at most 1024')
      .default(128)
      .describe('fileio: number of test files (--file-num)'),
    fileBlockSize: sizeSchema('fileBlockSize', '4K or 16K', 512, 2 ** 30, '1G')
      .default('16K')
      .describe('fileio: bytes per read or write (--file-block-size)'),
    fileTestMode: z
      .enum(FILE_TEST_MODES)
      .default('rndrw')
      .describe('fileio: seqwr, seqrewr, seqrd (sequential write, rewrite, read), rndrd, rndwr, rndrw (random read, write, mixed)'),
    fileExtraFlags: z
      .enum(['none', 'direct', 'sync', 'dsync'])
      .default('none')
      .describe('fileio: open the files with O_DIRECT, O_SYNC or O_DSYNC (--file-extra-flags)')
  })
  .superRefine((p, ctx) => {
    const block = sysbenchSizeBytes(p.memoryBlockSize)
    const total = sysbenchSizeBytes(p.memoryTotalSize)
    if (block !== null && total !== null && block > total) {
      ctx.addIssue({ code: 'custom', path: ['memoryBlockSize'], message: `memoryBlockSize (${p.memoryBlockSize}) is larger than memoryTotalSize (${p.memoryTotalSize})` })
    }
    const files = sysbenchSizeBytes(p.fileTotalSize)
    const fileBlock = sysbenchSizeBytes(p.fileBlockSize)
    if (files !== null && fileBlock !== null && files / p.fileNum < fileBlock) {
      ctx.addIssue({
        code: 'custom',
        path: ['fileTotalSize'],
        message: `fileTotalSize (${p.fileTotalSize}) split into ${p.fileNum} files leaves each file smaller than one block (${p.fileBlockSize})`
      })
    }
  })

export type SysbenchParams = z.output<typeof sysbenchParamsSchema>
export type SysbenchParamsInput = z.input<typeof sysbenchParamsSchema>

export const sysbenchDefaults: SysbenchParams = sysbenchParamsSchema.parse({})
