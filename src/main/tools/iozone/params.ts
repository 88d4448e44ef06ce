import { z } from 'zod'

/** Sizes as iozone's -g/-n/-y/-q read them: a number of kB, or with a k, m or g suffix. */
const SIZE = /^[1-9]\d{0,9}[kKmMgG]?$/
const SIZE_MESSAGE = 'must be a whole number of kB, or a number with a k, m or g suffix (for example 50G)'

/** A size in kB, or null when the text is not one. */
export function sizeKB(text: string): number | null {
  const m = /^(\d+)([kKmMgG]?)$/.exec(text)
  if (!m) return null
  const unit = (m[2] ?? '').toLowerCase()
  return Number(m[1]) * (unit === 'g' ? 1024 * 1024 : unit === 'm' ? 1024 : 1)
}

const size = (what: string, option: string) =>
  z
    .string()
    .regex(SIZE, `${what} ${SIZE_MESSAGE}`)
    .optional()
    .describe(`${what[0]?.toUpperCase()}${what.slice(1)} (${option}); unset: iozone's default.`)

export const iozoneParamsSchema = z
  .object({
    maxFileSize: size('the largest file size', '-g, auto mode default 512 MB'),
    minFileSize: size('the smallest file size', '-n, default 64 kB'),
    minRecordSize: size('the smallest record size', '-y, default 4 kB'),
    maxRecordSize: size('the largest record size', '-q, default 16 MB'),
    allRecordSizes: z
      .boolean()
      .default(true)
      .describe('Test small record sizes on large files too (-z). Without it iozone skips records under 64 kB for files over 16 MB.'),
    spreadsheet: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'spreadsheet must be a plain file name (letters, digits, dot, dash, underscore), like out.wks')
      .optional()
      .describe('Also write the results as an Excel file (-b) with this name in the iozone folder of the work directory.')
  })
  .refine((p) => !p.minFileSize || !p.maxFileSize || (sizeKB(p.minFileSize) ?? 0) <= (sizeKB(p.maxFileSize) ?? 0), {
    message: 'minFileSize is larger than maxFileSize',
    path: ['minFileSize']
  })
  .refine((p) => !p.minRecordSize || !p.maxRecordSize || (sizeKB(p.minRecordSize) ?? 0) <= (sizeKB(p.maxRecordSize) ?? 0), {
    message: 'minRecordSize is larger than maxRecordSize',
    path: ['minRecordSize']
  })

export type IozoneParams = z.infer<typeof iozoneParamsSchema>
