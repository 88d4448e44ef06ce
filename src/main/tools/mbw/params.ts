import { z } from 'zod'

/** mbw's tests, in the order of its -t numbers (-t0 memcpy, -t1 dumb, -t2 mcblock). */
export const MBW_TESTS = ['memcpy', 'dumb', 'mcblock'] as const
export type MbwTest = (typeof MBW_TESTS)[number]

const MIB = 2 ** 20

export const mbwParamsSchema = z
  .object({
    sizeMiB: z
      .int('sizeMiB must be a whole number of MiB')
      .min(1, 'sizeMiB must be at least 1 MiB')
      .max(65_536, 'sizeMiB can be at most 65536 MiB (mbw allocates two arrays of this size)')
      .default(512)
      .describe('Size of each of the two arrays mbw copies between, in MiB (study 001: `mbw 512`); mbw needs twice this in free memory'),
    iterations: z
      .int('iterations must be a whole number')
      .min(1, 'iterations must be at least 1 (mbw -n 0 would run for ever)')
      .max(1000, 'iterations can be at most 1000')
      .optional()
      .describe('Runs of each test (mbw -n); mbw runs 10 when not given'),
    tests: z
      .array(z.enum(MBW_TESTS))
      .min(1, 'tests must name at least one of memcpy, dumb, mcblock')
      .refine((t) => new Set(t).size === t.length, { message: 'tests lists a test twice' })
      .optional()
      .describe('Which tests to run (mbw -t0 memcpy, -t1 dumb b[i]=a[i] loop, -t2 memcpy in fixed blocks); all three when not given'),
    blockSizeBytes: z
      .int('blockSizeBytes must be a whole number of bytes')
      .min(1, 'blockSizeBytes must be at least 1 byte')
      .max(2 ** 30, 'blockSizeBytes can be at most 1 GiB')
      .optional()
      .describe('Block size of the mcblock test (mbw -b); 262144 when not given')
  })
  .superRefine((p, ctx) => {
    if (p.blockSizeBytes !== undefined && p.tests !== undefined && !p.tests.includes('mcblock')) {
      ctx.addIssue({ code: 'custom', path: ['blockSizeBytes'], message: 'blockSizeBytes applies to the mcblock test, which tests does not include' })
    }
    if (p.blockSizeBytes !== undefined && p.blockSizeBytes > p.sizeMiB * MIB) {
      ctx.addIssue({
        code: 'custom',
        path: ['blockSizeBytes'],
        message: `blockSizeBytes (${p.blockSizeBytes}) is larger than the array (${p.sizeMiB} MiB); mbw refuses that`
      })
    }
  })

export type MbwParams = z.output<typeof mbwParamsSchema>
export type MbwParamsInput = z.input<typeof mbwParamsSchema>

export const mbwDefaults: MbwParams = mbwParamsSchema.parse({})
