import { z } from 'zod'

/**
 * Multiplicative suffixes that both GNU dd and BusyBox dd read the same way in `bs=` and
 * `count=`: k/K, M, G are powers of 1024; kB, MB, GB powers of 1000.
 */
const SUFFIX_FACTORS: Record<string, number> = { '': 1, k: 2 ** 10, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, kB: 1e3, MB: 1e6, GB: 1e9 }
const DD_NUMBER = /^([1-9][0-9]{0,12})(k|K|M|G|kB|MB|GB)?$/

/** The value of a dd number such as `512`, `8k`, `1M` or `1G`; null when it is not one. */
export function ddNumber(text: string): number | null {
  const m = DD_NUMBER.exec(text)
  if (!m) return null
  const value = Number(m[1]) * SUFFIX_FACTORS[m[2] ?? '']!
  return Number.isSafeInteger(value) ? value : null
}

const MAX_BLOCK_BYTES = 2 ** 30
const MAX_TOTAL_BYTES = 2 ** 44

function ddNumberSchema(what: string, example: string, max: number, maxText: string) {
  return z
    .string()
    .refine((v) => ddNumber(v) !== null, {
      message: `${what} must be a whole number from 1 with an optional suffix k, M or G (powers of 1024) or kB, MB or GB (powers of 1000), like ${example}`
    })
    .refine((v) => (ddNumber(v) ?? 0) <= max, { message: `${what} can be at most ${maxText}` })
}

/** A file name inside the target's work directory (no directories). */
const fileNameSchema = z
  .string()
  .min(1, 'a file name cannot be empty')
  .max(128, 'a file name can be at most 128 characters')
  // eslint-disable-next-line no-control-regex
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { message: 'a file name cannot contain control characters or line breaks' })
  .refine((v) => !v.includes('/'), { message: "a file name cannot contain '/': give a name inside the work directory" })
  .refine((v) => !v.startsWith('-'), { message: "a file name cannot start with '-': stat and cat would read it as an option" })
  .refine((v) => v !== '.' && v !== '..', { message: "'.' and '..' are directories, not file names" })

const DEVICE = /^\/dev\/[A-Za-z0-9._+@:/-]+$/

/** A raw block device such as /dev/vdb or /dev/disk/by-id/…; never a default. */
const deviceSchema = z
  .string()
  .refine((v) => DEVICE.test(v), { message: 'a device must be a block device path such as /dev/vdb or /dev/disk/by-id/…' })
  .refine((v) => !v.split('/').includes('..'), { message: "a device path cannot contain '..'" })

export const ddParamsSchema = z
  .object({
    mode: z
      .enum(['write', 'read'])
      .default('write')
      .describe('write: copy /dev/zero to the file or device; read: copy the file or device to /dev/null'),
    blockSize: ddNumberSchema('blockSize', '512, 8k, 1M or 1G', MAX_BLOCK_BYTES, '1G (dd holds one block in memory)')
      .default('1M')
      .describe("Bytes per read and write (dd bs=), in dd's own notation: 512, 8k, 1M, 1G"),
    count: ddNumberSchema('count', '1000, 1024 or 1M', MAX_TOTAL_BYTES, '2^44 blocks')
      .default('1024')
      .describe("Number of blocks to copy (dd count=), in dd's notation: 1000, 1M (= 1048576 blocks)"),
    direct: z
      .boolean()
      .default(true)
      .describe('Bypass the page cache with O_DIRECT: oflag=direct when writing, iflag=direct when reading with dd'),
    fdatasync: z
      .boolean()
      .default(false)
      .describe('Write mode: flush the data to the disk before dd stops its clock (conv=fdatasync)'),
    fileName: fileNameSchema
      .default('ddfile')
      .describe('Name of the test file in the work directory (ignored when a device is given)'),
    device: deviceSchema
      .optional()
      .describe('Raw block device to write or read instead of a file, e.g. /dev/vdb (needs root); never chosen by default'),
    deviceWriteConfirmed: z
      .boolean()
      .default(false)
      .describe('Set only after the person running the test confirmed that the data on the device may be destroyed'),
    timer: z
      .enum(['none', 'bash', 'gnu-time'])
      .default('none')
      .describe(
        "Wrap the command in `time sh -c \"…\"` as study 004 does: bash's time keyword (needs bash on the target), or GNU /usr/bin/time -v (needs the `time` package). Needed by the cat reader and by BusyBox dd builds that print no timing"
      ),
    reader: z
      .enum(['dd', 'cat'])
      .default('dd')
      .describe('Read mode: read with dd, or with `cat file > /dev/null` (study 004; bytes come from the file size, time from the timer)'),
    dropCaches: z
      .boolean()
      .default(false)
      .describe('Read mode: empty the page cache (sync; echo 3 > /proc/sys/vm/drop_caches, as root) before reading'),
    useExistingFile: z
      .boolean()
      .default(false)
      .describe(
        'Read mode: read the file as an earlier test left it (study 004 reads the file it wrote) instead of first writing blockSize x count bytes of it with O_DIRECT'
      )
  })
  .superRefine((p, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    const bs = ddNumber(p.blockSize)
    const count = ddNumber(p.count)
    if (bs !== null && count !== null && bs * count > MAX_TOTAL_BYTES) {
      issue('count', `blockSize x count is ${bs * count} bytes; VirtBench allows at most 16 TiB in one dd run`)
    }
    if (p.mode === 'read' && p.fdatasync) issue('fdatasync', 'fdatasync flushes written data; it applies to write mode only')
    if (p.mode === 'write' && p.reader === 'cat') issue('reader', 'the cat reader reads a file; it applies to read mode only')
    if (p.mode === 'write' && p.dropCaches) issue('dropCaches', 'dropCaches empties the page cache before a read; it applies to read mode only')
    if (p.reader === 'cat' && p.timer === 'none') {
      issue('timer', 'cat prints no timing of its own: choose timer bash or gnu-time to read with cat')
    }
    if (p.reader === 'cat' && p.device !== undefined) {
      issue('reader', 'cat would read the whole device; read a device with the dd reader and a count')
    }
    if (p.reader === 'cat' && p.direct) {
      issue('direct', 'cat cannot bypass the page cache; turn direct off (and consider dropCaches) to read with cat')
    }
    if (p.useExistingFile && (p.mode !== 'read' || p.device !== undefined)) {
      issue('useExistingFile', 'useExistingFile reads a file an earlier test wrote; it applies to reading a file (read mode, no device) only')
    }
    if (p.device !== undefined && p.mode === 'write' && !p.deviceWriteConfirmed) {
      issue(
        'deviceWriteConfirmed',
        `writing to ${p.device} destroys the data on it; set deviceWriteConfirmed only after the person running the test has confirmed that`
      )
    }
  })

export type DdParams = z.output<typeof ddParamsSchema>
export type DdParamsInput = z.input<typeof ddParamsSchema>

export const ddDefaults: DdParams = ddParamsSchema.parse({})

/** Bytes one run moves: blockSize x count. */
export function ddTotalBytes(params: DdParams): number {
  return (ddNumber(params.blockSize) ?? 0) * (ddNumber(params.count) ?? 0)
}
