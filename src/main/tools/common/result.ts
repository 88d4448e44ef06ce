import { metricDefFinder, type MetricDef } from '../../../shared/model/metric-def'
import type { Better, Labels, Sample, Unit } from '../../../shared/model/sample'
import type { ParseResult } from '../types'

const EXCERPT_MAX = 160

/** A short, single-line-safe quote of the offending text, around `at` when given. */
export function excerpt(text: string, at = 0, max = EXCERPT_MAX): string {
  const start = Math.max(0, Math.min(at, text.length) - Math.floor(max / 4))
  let part = text.slice(start, start + max)
  // Control bytes other than tab/newline are shown escaped so garbage input prints safely.
  // eslint-disable-next-line no-control-regex
  part = part.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
  return (start > 0 ? '…' : '') + part + (start + max < text.length ? '…' : '')
}

export function parseFailure(reason: string, offending: string, at = 0): ParseResult {
  return { ok: false, error: { reason, excerpt: excerpt(offending, at) } }
}

export function parseSuccess(samples: Sample[], warnings: string[] = []): ParseResult {
  return { ok: true, samples, warnings }
}

/** Builds a sample; throws on a non-finite value so a bug can never become a number. */
export function sample(metric: string, value: number, unit: Unit, better: Better, labels: Labels = {}): Sample {
  if (!Number.isFinite(value)) throw new Error(`${metric}: not a finite number (${value})`)
  return { metric, value, unit, better, labels }
}

/**
 * Builds samples from a tool's metric table, so unit and direction come from one place. The
 * definition is the one the concrete name is an instance of (`fio.read.iops` of
 * `fio.<dir>.iops`), else the one named by `pattern`.
 */
export function sampler(defs: readonly MetricDef[]) {
  const byName = new Map(defs.map((d) => [d.name, d]))
  const find = metricDefFinder(defs)
  return (name: string, value: number, labels: Labels = {}, pattern = name): Sample => {
    const def = find(name) ?? byName.get(pattern)
    if (!def) throw new Error(`no metric definition for ${name}`)
    return sample(name, value, def.unit, def.better, labels)
  }
}
