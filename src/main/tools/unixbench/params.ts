import { z } from 'zod'
import { RUN_TEST_WORDS } from './tests'

export const unixbenchParamsSchema = z.object({
  tests: z
    .array(z.enum(RUN_TEST_WORDS as [string, ...string[]], { error: (issue) => `"${String(issue.input)}" is not a UnixBench test or test group` }))
    .max(60, 'at most 60 tests')
    .default(['whetstone-double', 'dhry2reg', 'fsdisk'])
    .describe(
      "Tests and groups for ./Run, by UnixBench's own names (dhry2reg, whetstone-double, fsdisk, shell8, index, system...). " +
        'Empty runs the full index (about 30 minutes per copies value). Default: the CPU and disk tests of study 001.'
    ),
  copies: z
    .array(z.number().int('copies must be whole numbers').min(1, 'copies must be at least 1').max(4096, 'copies is at most 4096'))
    .max(8, 'at most 8 copies values')
    .default([1])
    .describe('Parallel copies of each test, one run per value (-c). Empty lets UnixBench run 1 copy and then one per CPU.'),
  iterations: z
    .number()
    .int('iterations must be a whole number')
    .min(1, 'iterations must be at least 1')
    .max(100, 'iterations is at most 100')
    .optional()
    .describe('Passes of the long tests (-i; UnixBench default 10); the short tests make (iterations + 1) / 3 passes (default 3).'),
  unixbenchDir: z
    .string()
    .min(1, 'unixbenchDir cannot be empty')
    .max(4096, 'unixbenchDir is too long')
    .refine((s) => !s.includes('\0'), 'unixbenchDir cannot contain a NUL byte')
    .refine((s) => s.startsWith('/') || s === '~' || s.startsWith('~/'), 'unixbenchDir must be an absolute path or start with ~/')
    .optional()
    .describe(
      'The UnixBench folder that holds ./Run. Unset: the path found on the target (toolPaths.unixbench), else ~/byte-unixbench/UnixBench.'
    )
})

export type UnixbenchParams = z.infer<typeof unixbenchParamsSchema>
