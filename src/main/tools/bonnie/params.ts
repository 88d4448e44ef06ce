import { z } from 'zod'

/** `-s` as bonnie++ reads it: MiB, or a number with a `g` (GiB) or `t` (TiB) suffix. */
const FILE_SIZE = /^(0|[1-9]\d{0,9})([gGtT]?)$/
const MAX_FILE_SIZE_MIB = 2 ** 31 - 1

/** The file size in MiB, or null when the text is not a size bonnie++ accepts. */
export function fileSizeMiB(text: string): number | null {
  const m = FILE_SIZE.exec(text)
  if (!m) return null
  const n = Number(m[1])
  const unit = (m[2] ?? '').toLowerCase()
  return unit === 't' ? n * 1024 * 1024 : unit === 'g' ? n * 1024 : n
}

export const bonnieParamsSchema = z
  .object({
    fileSize: z
      .string()
      .refine((s) => FILE_SIZE.test(s), 'fileSize must be a whole number of MiB, or a number followed by g or t (for example 50g)')
      .refine((s) => (fileSizeMiB(s) ?? 0) <= MAX_FILE_SIZE_MIB, 'fileSize must be under 2 PiB (bonnie++ keeps it in an int of MiB)')
      .optional()
      .describe(
        'Size of the test file (-s): MiB, or with a g/t suffix, like 50g. Unset lets bonnie++ pick twice the RAM. ' +
          'It must be at least twice the RAM (or set ramMiB); 0 skips the I/O tests.'
      ),
    ramMiB: z
      .number()
      .int('ramMiB must be a whole number of MiB')
      .min(0, 'ramMiB cannot be negative')
      .max(MAX_FILE_SIZE_MIB, 'ramMiB is too large')
      .optional()
      .describe('RAM size bonnie++ assumes (-r), in MiB; 0 turns off its "file size should be double RAM" check. Unset: the real RAM.'),
    numFiles: z
      .number()
      .int('numFiles must be a whole number')
      .min(0, 'numFiles cannot be negative')
      .max(100_000, 'numFiles is at most 100000 (thousands of files)')
      .default(16)
      .describe('Files for the file creation tests (-n), in multiples of 1024; 0 skips those tests. bonnie++ defaults to 16.'),
    repetitions: z
      .number()
      .int('repetitions must be a whole number')
      .min(1, 'repetitions must be at least 1')
      .max(1000, 'repetitions is at most 1000')
      .default(1)
      .describe('How many times bonnie++ runs all its tests (-x); each run gives samples with its own labels.repetition.'),
    skipPerChar: z.boolean().default(false).describe('Skip the slow per-character putc/getc tests (-f).'),
    directIo: z.boolean().default(false).describe('Open the test file with O_DIRECT (-D), bypassing the page cache (needs -f: per-character O_DIRECT writes fail).'),
    runAs: z
      .string()
      .min(1, 'runAs cannot be empty')
      .max(64, 'runAs is at most 64 characters')
      .regex(/^[^\s:]+(:[^\s:]+)?$/, 'runAs must be a user, uid or user:group without spaces')
      .optional()
      .describe('User bonnie++ switches to (-u). Unset: the user VirtBench logs in as (`-u "$(id -u)"`), which bonnie++ requires when that is root.')
  })
  .refine((p) => p.fileSize === undefined || fileSizeMiB(p.fileSize) !== 0 || p.numFiles > 0, {
    message: 'fileSize 0 and numFiles 0 would skip every bonnie++ test; set one of them above 0',
    path: ['fileSize']
  })
  .refine((p) => !p.directIo || p.skipPerChar, {
    message: 'directIo needs skipPerChar: bonnie++ cannot write single bytes with O_DIRECT ("disk full?")',
    path: ['directIo']
  })

export type BonnieParams = z.infer<typeof bonnieParamsSchema>
