import { lastDigitUnit, parseDecimal } from './decimal'

/** What a `time` wrapper printed about the command it ran. */
export interface Timing {
  /** Wall-clock seconds. */
  wall: number
  /** CPU seconds in user and kernel mode, when printed. */
  user?: number
  system?: number
  /** One unit of the last printed digit of `wall`, in seconds (0.001 for bash, 0.01 for GNU time). */
  resolution: number
  /** Which `time` printed it, for messages. */
  source: string
  line: string
}

// bash's time keyword (`real\t0m1.234s`) and BusyBox time (`real\t0m 1.23s`).
const BASH_LINE = /^(real|user|sys)\s+(?:([0-9]+)h\s*)?([0-9]+)m\s*([0-9]+(?:[.,][0-9]+)?)s$/
// `time -p` (POSIX): `real 1.23`.
const POSIX_LINE = /^(real|user|sys) ([0-9]+(?:[.,][0-9]+)?)$/
// GNU time -v.
const GNU_VERBOSE_ELAPSED = /^\s*Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([0-9:.]+)$/
const GNU_VERBOSE_USER = /^\s*User time \(seconds\): ([0-9.]+)$/
const GNU_VERBOSE_SYSTEM = /^\s*System time \(seconds\): ([0-9.]+)$/
// GNU time's default format: `0.00user 0.07system 0:00.10elapsed 70%CPU (…`.
const GNU_DEFAULT = /^([0-9.]+)user ([0-9.]+)system ([0-9:.]+)elapsed /

/** `[h:]m:ss[.cc]` as seconds. */
function clockSeconds(text: string): { seconds: number; secondsText: string } | null {
  const parts = text.split(':')
  if (parts.length < 2 || parts.length > 3) return null
  const secondsText = parts.pop()!
  const seconds = parseDecimal(secondsText)
  const whole = parts.map((p) => (/^[0-9]+$/.test(p) ? Number(p) : NaN))
  if (seconds === null || whole.some(Number.isNaN)) return null
  const [minutes, hours] = whole.reverse()
  return { seconds: (hours ?? 0) * 3600 + minutes! * 60 + seconds, secondsText }
}

function bashLikeTimings(lines: readonly string[]): Timing[] {
  const found: Timing[] = []
  lines.forEach((line, i) => {
    const real = BASH_LINE.exec(line.trim())
    if (real?.[1] === 'real') {
      const value = (m: RegExpExecArray) => Number(m[2] ?? 0) * 3600 + Number(m[3]) * 60 + parseDecimal(m[4]!)!
      const timing: Timing = {
        wall: value(real),
        resolution: lastDigitUnit(real[4]!),
        source: /m [0-9 ]/.test(line) ? 'BusyBox time' : "bash's time",
        line
      }
      for (const next of lines.slice(i + 1, i + 3)) {
        const m = BASH_LINE.exec(next.trim())
        if (m?.[1] === 'user') timing.user = value(m)
        if (m?.[1] === 'sys') timing.system = value(m)
      }
      found.push(timing)
      return
    }
    const posix = POSIX_LINE.exec(line.trim())
    if (posix?.[1] === 'real') {
      const timing: Timing = { wall: parseDecimal(posix[2]!)!, resolution: lastDigitUnit(posix[2]!), source: 'time -p', line }
      for (const next of lines.slice(i + 1, i + 3)) {
        const m = POSIX_LINE.exec(next.trim())
        if (m?.[1] === 'user') timing.user = parseDecimal(m[2]!)!
        if (m?.[1] === 'sys') timing.system = parseDecimal(m[2]!)!
      }
      found.push(timing)
    }
  })
  return found
}

function gnuTimings(lines: readonly string[]): Timing[] {
  const found: Timing[] = []
  lines.forEach((line, i) => {
    const verbose = GNU_VERBOSE_ELAPSED.exec(line)
    const clock = verbose && clockSeconds(verbose[1]!)
    if (clock) {
      const timing: Timing = { wall: clock.seconds, resolution: lastDigitUnit(clock.secondsText), source: 'GNU time -v', line }
      // GNU time -v prints the user and system times a few lines above the elapsed time.
      for (const near of lines.slice(Math.max(0, i - 4), i)) {
        const user = GNU_VERBOSE_USER.exec(near)
        const system = GNU_VERBOSE_SYSTEM.exec(near)
        if (user) timing.user = Number(user[1])
        if (system) timing.system = Number(system[1])
      }
      found.push(timing)
      return
    }
    const short = GNU_DEFAULT.exec(line)
    const shortClock = short && clockSeconds(short[3]!)
    if (short && shortClock) {
      found.push({
        wall: shortClock.seconds,
        user: Number(short[1]),
        system: Number(short[2]),
        resolution: lastDigitUnit(shortClock.secondsText),
        source: 'GNU time',
        line
      })
    }
  })
  return found
}

/** Every timing a `time` wrapper printed (bash, `time -p`, GNU time with or without -v, BusyBox). */
export function findTimings(lines: readonly string[]): Timing[] {
  return [...bashLikeTimings(lines), ...gnuTimings(lines)].filter(
    (t) => Number.isFinite(t.wall) && (t.user === undefined || Number.isFinite(t.user)) && (t.system === undefined || Number.isFinite(t.system))
  )
}
