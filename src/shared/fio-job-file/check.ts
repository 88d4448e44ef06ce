import { IO_ENGINES } from './engines'
import { parseJobFile, type JobFileOption, type JobFileProblem, type JobFileSection } from './parse'
import { fioSizeBytes } from './size'

/** The job file's text is kept in presets and runs: at most this long. */
export const MAX_JOB_FILE_CHARS = 64 * 1024
/** At most this many job sections, and fio processes per section (numjobs). */
export const MAX_JOB_SECTIONS = 32
export const MAX_NUMJOBS = 64

/** What one job section asks fio to do, with its [global] options applied, as far as VirtBench plans it. */
export interface JobFileJob {
  name: string
  line: number
  /** fio processes running this section (numjobs). */
  numjobs: number
  rw: string
  /** The section's engine, when it names one (fio's default is psync). */
  ioengine?: string
  /** The largest block size it uses, in bytes. */
  blockBytes: number
  /** Bytes its files take on the work directory's disk (all its processes); 0 on the raw device. */
  fileBytes: number
  /** Bytes it moves when no runtime stops it (all its processes, all loops); undefined on a device without size. */
  ioBytes?: number
  runtimeSeconds?: number
  rampSeconds: number
  timeBased: boolean
  direct: boolean
  /** Runs after the jobs before it have ended (stonewall, wait_for_previous). */
  waitsForPrevious: boolean
  /** Files it names (relative to the work directory, fio's working directory); the device for a raw-device job. */
  files: string[]
  onDevice: boolean
}

export interface JobFileCheck {
  jobs: JobFileJob[]
  problems: JobFileProblem[]
}

/** The raw device the plan's storage names, and whether the person confirmed it may be overwritten. */
export interface JobFileDevice {
  device?: string | undefined
  deviceWriteConfirmed?: boolean | undefined
}

/** Options that run commands on the target or change it beyond the run's files. */
const REFUSED: Readonly<Record<string, string>> = {
  exec_prerun: 'runs a command on the target before the job; VirtBench runs only fio: remove it and prepare the target yourself',
  exec_postrun: 'runs a command on the target after the job; VirtBench runs only fio: remove it (VirtBench removes the test files itself)',
  trigger: 'runs a command on the target when fio is triggered; remove it',
  'trigger-file': 'makes fio run its trigger command; remove it',
  'trigger-timeout': 'makes fio run its trigger command; remove it',
  'trigger-remote': 'runs a command on the target when fio is triggered; remove it',
  ioscheduler: "switches the device's I/O scheduler for everyone on the target; remove it and set the scheduler before the run if it matters",
  cgroup: 'creates control groups on the target (as root); remove it',
  cgroup_nodelete: 'leaves control groups behind on the target; remove it',
  uid: 'switches fio to another user (needs root); remove it',
  gid: 'switches fio to another group (needs root); remove it',
  replay_redirect: 'sends a replayed I/O log to another device; remove it'
}

/** Memory options that name a file to map after a ':' (`mem=mmap:/path`). */
const MEMORY_OPTIONS = new Set(['mem', 'iomem'])

/** Options whose value is a path fio creates, reads or writes: they must stay in the work directory. */
const PATH_OPTIONS = new Set([
  'filename',
  'directory',
  'opendir',
  'filename_format',
  'read_iolog',
  'write_iolog',
  'write_bw_log',
  'write_lat_log',
  'write_iops_log',
  'write_hist_log'
])

const READ_ONLY_RW = new Set(['read', 'randread'])
const RW_VALUES = new Set(['read', 'write', 'trim', 'randread', 'randwrite', 'randtrim', 'rw', 'readwrite', 'randrw', 'trimwrite', 'randtrimwrite'])
const JOB_FILE_ENGINES = IO_ENGINES.filter((e) => e !== 'auto')
const TIME_UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400, ms: 1e-3, us: 1e-6 }
const MAX_SIZE_BYTES = 64 * 2 ** 40
const MAX_SECONDS = 86_400

/**
 * Reads an admin's fio job file and says what VirtBench will not run, section by section:
 * options that run commands or change the target, paths outside the run's work directory (fio
 * runs there; the only absolute path allowed is the plan's confirmed raw device), engines
 * VirtBench does not offer, sizes it cannot read (each file job must give its size, so preflight
 * can check the target's free space), and jobs without an end. Pure: text in, jobs and problems out.
 */
export function checkJobFile(text: string, device: JobFileDevice = {}): JobFileCheck {
  if (text.length > MAX_JOB_FILE_CHARS) {
    return { jobs: [], problems: [{ line: 1, section: null, option: null, message: `the job file has ${text.length} characters; VirtBench takes at most ${MAX_JOB_FILE_CHARS}` }] }
  }
  const parsed = parseJobFile(text)
  const problems = [...parsed.problems]
  const jobs: JobFileJob[] = []
  let globals: JobFileOption[] = []
  for (const section of parsed.sections) {
    const own = optionProblems(section, device)
    problems.push(...own)
    if (section.global) {
      globals = [...globals, ...section.options]
      continue
    }
    const checked = jobOf(section, globals, device)
    problems.push(...checked.problems)
    if (checked.job) jobs.push(checked.job)
  }
  if (parsed.problems.length === 0 && parsed.sections.every((s) => s.global)) {
    problems.push({ line: 1, section: null, option: null, message: 'the job file has no job section (only [global] options, or nothing): add one, like [virt]' })
  }
  if (jobs.length > MAX_JOB_SECTIONS) {
    problems.push({ line: 1, section: null, option: null, message: `the job file has ${jobs.length} job sections; VirtBench runs at most ${MAX_JOB_SECTIONS} from one file: split it into several tests` })
  }
  return { jobs, problems: problems.sort((a, b) => a.line - b.line) }
}

/** Problems of a section's own options, wherever they come from (a [global] one is checked where it is written). */
function optionProblems(section: JobFileSection, device: JobFileDevice): JobFileProblem[] {
  const problems: JobFileProblem[] = []
  const at = (option: JobFileOption, message: string): void => {
    problems.push({ line: option.line, section: section.name, option: option.key, message })
  }
  for (const option of section.options) {
    const refusal = REFUSED[option.key]
    if (refusal) at(option, `${option.key} ${refusal}`)
    else if (option.value?.includes('${')) at(option, `fio would put the target's environment variables into ${option.key}; write the value out`)
    else if (MEMORY_OPTIONS.has(option.key) && option.value?.includes(':')) {
      at(option, `${option.key}=${option.value} maps a file VirtBench does not check; give the kind of memory alone (like ${option.key}=malloc)`)
    } else if (PATH_OPTIONS.has(option.key)) {
      const why = pathProblem(option, device)
      if (why) at(option, why)
    } else if (option.key === 'ioengine' && option.value !== undefined && !(JOB_FILE_ENGINES as readonly string[]).includes(option.value)) {
      at(option, `ioengine=${option.value} is not an engine VirtBench runs (some load code or run programs, others need hardware or services it cannot check); use one of ${JOB_FILE_ENGINES.join(', ')}`)
    }
  }
  return problems
}

/** Why a path option leaves the work directory, or undefined when it stays inside. */
function pathProblem(option: JobFileOption, device: JobFileDevice): string | undefined {
  if (option.value === undefined || option.value === '') return `${option.key} needs a value`
  const parts = option.key === 'filename' || option.key === 'directory' ? splitFilenames(option.value) : [option.value]
  for (const part of parts) {
    if (isAbsolute(part)) {
      if (option.key === 'filename' && part === device.device) continue
      return option.key === 'filename' && part.startsWith('/dev/')
        ? `${part} is a device the plan has not confirmed; choose it as the plan's raw device (storage: device, with the written confirmation) or give a file name relative to the work directory`
        : `${part} is outside the run's work directory; give a path relative to it (fio runs there), like ${option.key === 'directory' ? 'data' : 'virt.dat'}`
    }
    if (part.split(/[\\/]/).includes('..')) return `${part} climbs out of the run's work directory with '..'; give a path inside it`
    if (part.startsWith('~')) return `${part} would be read as a folder named '~' in the work directory (fio does not expand it); give a path relative to the work directory`
  }
  return undefined
}

/** fio's `filename=a:b` names two files; `\:` is a literal colon. */
function splitFilenames(value: string): string[] {
  return value.split(/(?<!\\):/).map((p) => p.replace(/\\:/g, ':'))
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)
}

/** A section's options with its [global] options before them: the last one given wins, as in fio. */
function effective(globals: readonly JobFileOption[], section: JobFileSection): Map<string, JobFileOption> {
  const out = new Map<string, JobFileOption>()
  for (const option of [...globals, ...section.options]) out.set(option.key, option)
  return out
}

function flag(options: Map<string, JobFileOption>, key: string): boolean {
  const option = options.get(key)
  return option !== undefined && (option.value === undefined || !['0', 'false', 'no', 'off'].includes(option.value.toLowerCase()))
}

function jobOf(section: JobFileSection, globals: readonly JobFileOption[], device: JobFileDevice): { job?: JobFileJob; problems: JobFileProblem[] } {
  const problems: JobFileProblem[] = []
  const options = effective(globals, section)
  const at = (key: string | null, message: string): void => {
    const option = key === null ? undefined : options.get(key)
    problems.push({ line: option?.line ?? section.line, section: section.name, option: key, message })
  }
  const value = (key: string): string | undefined => options.get(key)?.value
  const files = options.has('filename') ? splitFilenames(value('filename') ?? '') : []
  const onDevice = files.length > 0 && files.every((f) => f === device.device)
  if (device.device !== undefined && !onDevice) {
    at(files.length > 0 ? 'filename' : null, `the plan tests the raw device ${device.device}: give filename=${device.device} in this job`)
  }
  if (!options.has('filename') && /[\\/]/.test(section.name) && !options.has('filename_format')) {
    at(null, `fio names this job's files after the section, and "${section.name}" holds a '/' or '\\' that would put them outside the work directory; rename the section`)
  }

  const rw = (value('rw') ?? value('readwrite') ?? 'read').split(':')[0]!.toLowerCase()
  if (!RW_VALUES.has(rw)) at(options.has('rw') ? 'rw' : 'readwrite', `rw=${rw} is not one of fio's I/O patterns (${[...RW_VALUES].join(', ')})`)
  if (onDevice && !READ_ONLY_RW.has(rw) && !device.deviceWriteConfirmed) {
    at('rw', `rw=${rw} writes to ${device.device} and destroys the data on it; confirm that in the plan's storage (deviceWriteConfirmed) first, or use rw=read or randread`)
  }
  const numjobs = wholeNumber(value('numjobs') ?? '1')
  if (numjobs === null || numjobs < 1 || numjobs > MAX_NUMJOBS) at('numjobs', `numjobs must be a whole number from 1 to ${MAX_NUMJOBS}`)
  const loops = wholeNumber(value('loops') ?? '1')
  if (loops === null || loops < 1) at('loops', 'loops must be a whole number of at least 1')
  const runtime = options.has('runtime') ? seconds(value('runtime')) : undefined
  if (runtime === null) at('runtime', `runtime must be a time such as 30, 30s, 2m or 1h, at most ${MAX_SECONDS / 3600} h`)
  const ramp = options.has('ramp_time') ? seconds(value('ramp_time')) : 0
  if (ramp === null) at('ramp_time', `ramp_time must be a time such as 5, 5s or 1m, at most ${MAX_SECONDS / 3600} h`)
  const timeBased = flag(options, 'time_based')
  if (timeBased && runtime === undefined) at('time_based', 'time_based needs a runtime; add runtime= (like runtime=60) or remove time_based')

  const sizeOption = options.has('size') ? 'size' : options.has('filesize') ? 'filesize' : null
  const size = sizeOption === null ? undefined : sizeBytes(value(sizeOption))
  const nrfiles = sizeOption === 'filesize' ? wholeNumber(value('nrfiles') ?? '1') ?? 1 : 1
  if (size === null) at(sizeOption, `${sizeOption}=${value(sizeOption!) ?? ''} is not a size VirtBench can check against the target's free space; give bytes with an optional unit k, m, g or t (powers of 1024), like 1g`)
  else if (size === undefined && !onDevice) at(null, "the job gives no size: add size= (like size=1g), so fio knows how large its files are and preflight can check that they fit the target's free space")
  else if (size === undefined && runtime === undefined) at(null, `the job would read or write the whole of ${device.device}: add size= or runtime= so it has an end VirtBench can wait for`)

  const blocks = (value('bs') ?? value('blocksize') ?? '4k').split(',').map((b) => (b.trim() === '' ? 4096 : fioSizeBytes(b.trim())))
  if (blocks.some((b) => b === null)) at(options.has('bs') ? 'bs' : 'blocksize', 'give the block size in bytes with an optional unit, like bs=64k (or bs=4k,64k for reads and writes)')

  if (problems.length > 0 || numjobs === null || loops === null || runtime === null || ramp === null || size === null) return { problems }
  const perJob = (size ?? 0) * nrfiles
  const engine = value('ioengine')
  return {
    problems,
    job: {
      name: section.name,
      line: section.line,
      numjobs,
      rw,
      ...(engine !== undefined ? { ioengine: engine } : {}),
      blockBytes: Math.max(...blocks.map((b) => b ?? 0)),
      fileBytes: onDevice ? 0 : perJob * numjobs,
      ...(size !== undefined ? { ioBytes: perJob * numjobs * loops } : {}),
      ...(runtime !== undefined ? { runtimeSeconds: runtime } : {}),
      rampSeconds: ramp,
      timeBased,
      direct: flag(options, 'direct') || (options.has('buffered') && !flag(options, 'buffered')),
      waitsForPrevious: flag(options, 'stonewall') || flag(options, 'wait_for_previous'),
      files,
      onDevice
    }
  }
}

function wholeNumber(text: string): number | null {
  return /^[0-9]{1,9}$/.test(text) ? Number(text) : null
}

/** fio's time values: a number with an optional unit (seconds when none). */
function seconds(text: string | undefined): number | null {
  const m = /^([0-9]{1,9})(s|m|h|d|ms|us)?$/i.exec(text ?? '')
  if (!m) return null
  const value = Number(m[1]) * TIME_UNITS[(m[2] ?? '').toLowerCase()]!
  return value <= MAX_SECONDS ? value : null
}

/** A size fio reads as bytes; a range (`filesize=1m-4m`) counts as its upper end. */
function sizeBytes(text: string | undefined): number | null {
  const upper = (text ?? '').split('-').at(-1)!.trim()
  const bytes = fioSizeBytes(upper)
  return bytes !== null && bytes <= MAX_SIZE_BYTES ? bytes : null
}
