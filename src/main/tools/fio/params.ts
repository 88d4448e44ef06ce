import { z } from 'zod'
import { checkJobFile, describeJobFileProblem, MAX_JOB_FILE_CHARS } from '../../../shared/fio-job-file'
import { IO_ENGINES } from '../../../shared/fio-job-file/engines'
import { fioSizeBytes } from '../../../shared/fio-job-file/size'

export { IO_ENGINES, LINUX_ONLY_ENGINES, WINDOWS_ONLY_ENGINES, type IoEngine } from '../../../shared/fio-job-file/engines'
export { fioSizeBytes } from '../../../shared/fio-job-file/size'

/** fio's I/O patterns (`rw=`). */
export const RW_MODES = [
  'read',
  'write',
  'randread',
  'randwrite',
  'rw',
  'readwrite',
  'randrw',
  'trim',
  'randtrim',
  'trimwrite',
  'randtrimwrite'
] as const
export type RwMode = (typeof RW_MODES)[number]

/** Patterns that mix reads and writes, where `rwmixread` applies. */
export const MIXED_RW_MODES: readonly RwMode[] = ['rw', 'readwrite', 'randrw']
/** Patterns that only read: safe on a raw device that holds data. */
export const READ_ONLY_RW_MODES: readonly RwMode[] = ['read', 'randread']

function fioSize(what: string, minBytes: number, maxBytes: number) {
  return z
    .string()
    .refine((v) => fioSizeBytes(v) !== null, {
      message: `${what} must be a whole number with an optional unit k, m, g, t or p (powers of 1024), like 4k, 64k, 1m or 4g`
    })
    .refine(
      (v) => {
        const bytes = fioSizeBytes(v)
        return bytes === null || (bytes >= minBytes && bytes <= maxBytes)
      },
      { message: `${what} must be between ${describeBytes(minBytes)} and ${describeBytes(maxBytes)}` }
    )
}

function describeBytes(bytes: number): string {
  for (const [unit, factor] of [['TiB', 2 ** 40], ['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor} ${unit}`
  }
  return `${bytes} bytes`
}

/**
 * Characters a job name may not hold, with the reason a person reads. The name becomes a
 * job-file section header (`[name]`), a command-line value and the start of fio's file names.
 */
const NAME_RULES: readonly { test: (v: string) => boolean; message: string }[] = [
  // eslint-disable-next-line no-control-regex
  { test: (v) => /[\u0000-\u001f\u007f]/.test(v), message: 'a job name cannot contain line breaks, tabs or other control characters' },
  { test: (v) => /[[\]]/.test(v), message: "a job name cannot contain '[' or ']': in a job file they would start a new job section" },
  { test: (v) => /[;#]/.test(v), message: "a job name cannot contain ';' or '#': fio reads the rest of a job-file line as a comment" },
  { test: (v) => /[/\\]/.test(v), message: "a job name cannot contain '/' or '\\': fio names its data files after the job" },
  { test: (v) => v !== v.trim(), message: 'a job name cannot start or end with a space: fio strips those from job files' },
  { test: (v) => v.startsWith('global'), message: "a job name cannot start with 'global': fio treats such a section as global options, not a job" }
]

export const jobNameSchema = z
  .string()
  .min(1, 'a job name cannot be empty')
  .max(64, 'a job name can be at most 64 characters')
  .superRefine((value, ctx) => {
    for (const rule of NAME_RULES) if (rule.test(value)) ctx.addIssue({ code: 'custom', message: rule.message })
  })

/** A file name inside the target's work directory (no directories). */
const fileNameSchema = z
  .string()
  .min(1, 'a file name cannot be empty')
  .max(128, 'a file name can be at most 128 characters')
  // eslint-disable-next-line no-control-regex
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { message: 'a file name cannot contain control characters or line breaks' })
  .refine((v) => !/[/\\:]/.test(v), { message: "a file name cannot contain '/', '\\' or ':': give a name inside the work directory" })
  .refine((v) => !/[;#$]/.test(v), { message: "a file name cannot contain ';', '#' or '$': fio reads them as a comment or a variable" })
  .refine((v) => v === v.trim(), { message: 'a file name cannot start or end with a space' })
  .refine((v) => !['.', '..', '-'].includes(v), { message: "'.', '..' and '-' are not file names fio can use ('-' means stdin/stdout)" })

const LINUX_DEVICE = /^\/dev\/[A-Za-z0-9._+@:/-]+$/
const WINDOWS_DEVICE = /^\\\\\.\\PhysicalDrive[0-9]{1,3}$/

/** A raw block device: `/dev/...` on Linux, `\\.\PhysicalDriveN` on Windows. */
const deviceSchema = z
  .string()
  .refine((v) => LINUX_DEVICE.test(v) || WINDOWS_DEVICE.test(v), {
    message: 'a device must be a block device path such as /dev/vdb or /dev/disk/by-id/… on Linux, or \\\\.\\PhysicalDrive1 on Windows'
  })
  .refine((v) => !v.split('/').includes('..'), { message: "a device path cannot contain '..'" })

export function isWindowsDevice(device: string): boolean {
  return WINDOWS_DEVICE.test(device)
}

const seconds = (what: string, max: number) =>
  z
    .int(`${what} must be a whole number of seconds`)
    .min(1, `${what} must be at least 1 second`)
    .max(max, `${what} can be at most ${max} seconds`)

export const fioParamsSchema = z
  .object({
    style: z
      .enum(['command-line', 'job-file'])
      .default('command-line')
      .describe('How fio gets the job: as --options on the command line, or as a job file written next to the test files'),
    name: jobNameSchema.default('virtbench').describe('Job name (fio --name, or the [section] of the job file); also names the data files'),
    ioengine: z
      .enum(IO_ENGINES)
      .default('auto')
      .describe('I/O engine; auto means libaio on Linux and windowsaio on Windows'),
    rw: z.enum(RW_MODES).default('randread').describe('I/O pattern: sequential or random reads, writes, trims, or a mix'),
    rwmixread: z
      .int('rwmixread must be a whole percentage')
      .min(0, 'rwmixread must be between 0 and 100')
      .max(100, 'rwmixread must be between 0 and 100')
      .optional()
      .describe('Percentage of reads in a mixed pattern (rw, readwrite, randrw); fio uses 50 when not given'),
    bs: fioSize('bs (block size)', 512, 256 * 2 ** 20).default('4k').describe('Block size of each I/O, like 4k or 1m'),
    size: fioSize('size', 4096, 64 * 2 ** 40).default('1g').describe('Bytes each job reads or writes (its file size), like 1g'),
    numjobs: z
      .int('numjobs must be a whole number')
      .min(1, 'numjobs must be at least 1')
      .max(64, 'numjobs can be at most 64')
      .default(1)
      .describe('Number of identical jobs running at once, each with its own file'),
    iodepth: z
      .int('iodepth must be a whole number')
      .min(1, 'iodepth must be at least 1')
      .max(1024, 'iodepth can be at most 1024')
      .default(16)
      .describe('I/Os each job keeps in flight (asynchronous engines only)'),
    runtime: seconds('runtime', 86_400)
      .nullable()
      .default(30)
      .describe('Seconds to run; null lets each job run until it has moved size bytes'),
    timeBased: z.boolean().default(true).describe('Keep running for the whole runtime even after size bytes (fio --time_based)'),
    rampTime: seconds('rampTime', 3_600).optional().describe('Seconds to run before measuring starts (fio --ramp_time)'),
    direct: z.boolean().default(true).describe('Bypass the page cache with O_DIRECT (fio --direct=1)'),
    endFsync: z.boolean().default(false).describe('fsync the file when writing ends, inside the measured time (fio --end_fsync=1)'),
    groupReporting: z
      .boolean()
      .default(false)
      .describe('Report all jobs as one (fio --group_reporting); needed for latency percentiles over several jobs'),
    outputFormat: z
      .enum(['json', 'json+'])
      .default('json')
      .describe('fio report format; json+ adds the full completion-latency histogram'),
    filename: fileNameSchema
      .optional()
      .describe('One file in the work directory shared by all jobs, instead of a file per job'),
    device: deviceSchema
      .optional()
      .describe('Raw block device to test instead of files (needs root); never chosen by default'),
    deviceWriteConfirmed: z
      .boolean()
      .default(false)
      .describe('Set only after the person running the test confirmed that the data on the device may be destroyed'),
    jobFile: z
      .string()
      .min(1, 'the job file is empty')
      .max(MAX_JOB_FILE_CHARS, `a job file can be at most ${MAX_JOB_FILE_CHARS} characters`)
      .optional()
      .describe(
        "The text of your own fio job file, run as written (fio runs in the run's work directory); the other job options are then not used. Checked before the run: no options that run commands, paths only inside the work directory or the plan's confirmed raw device, sizes given (docs/cli.md, your own fio job file)"
      )
  })
  .superRefine((p, ctx) => {
    if (p.jobFile !== undefined) {
      for (const problem of checkJobFile(p.jobFile, p).problems) ctx.addIssue({ code: 'custom', path: ['jobFile'], message: describeJobFileProblem(problem) })
      if (p.filename !== undefined) ctx.addIssue({ code: 'custom', path: ['filename'], message: 'with a job file, name the files in the job file (filename=), not in filename' })
      return
    }
    if (p.timeBased && p.runtime === null) {
      ctx.addIssue({ code: 'custom', path: ['timeBased'], message: 'timeBased needs a runtime: give runtime in seconds, or turn timeBased off' })
    }
    if (p.rwmixread !== undefined && !MIXED_RW_MODES.includes(p.rw)) {
      ctx.addIssue({
        code: 'custom',
        path: ['rwmixread'],
        message: `rwmixread applies only to mixed patterns (${MIXED_RW_MODES.join(', ')}), not to rw=${p.rw}`
      })
    }
    const bs = fioSizeBytes(p.bs)
    const size = fioSizeBytes(p.size)
    if (bs !== null && size !== null && bs > size) {
      ctx.addIssue({ code: 'custom', path: ['bs'], message: `bs (${p.bs}) is larger than size (${p.size}): no I/O would fit` })
    }
    if (p.filename !== undefined && p.device !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['filename'], message: 'give either filename (a file in the work directory) or device, not both' })
    }
    if (p.device !== undefined && !READ_ONLY_RW_MODES.includes(p.rw) && !p.deviceWriteConfirmed) {
      ctx.addIssue({
        code: 'custom',
        path: ['deviceWriteConfirmed'],
        message: `rw=${p.rw} writes to ${p.device} and destroys the data on it; set deviceWriteConfirmed only after the person running the test has confirmed that`
      })
    }
  })

export type FioParams = z.output<typeof fioParamsSchema>
export type FioParamsInput = z.input<typeof fioParamsSchema>

export const fioDefaults: FioParams = fioParamsSchema.parse({})
