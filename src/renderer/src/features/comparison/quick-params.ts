import type { ToolId } from '../../../../shared/model/tool-ids'

/**
 * The quick form of a custom test: the lengths the study packs use in their quick forms
 * (src/main/tools/packs.ts: 64 MiB files, 3 s runs, 5 pings, one UnixBench pass), put over the
 * tool's defaults, so a custom test starts in seconds instead of at full length (fio 1 GiB for
 * 30 s). Only sizes, counts and durations: what the test measures stays the tool's default.
 */
const QUICK: Record<ToolId, Record<string, unknown>> = {
  fio: { size: '64m', runtime: 3 },
  dd: { blockSize: '1M', count: '64' },
  bonnie: { fileSize: '64', ramMiB: 32, numFiles: 1 },
  iozone: { maxFileSize: '4M' },
  iperf3: { seconds: 3 },
  iperf: { seconds: 2 },
  ping: { count: 5 },
  unixbench: { iterations: 1 },
  sysbench: { timeSeconds: 3 },
  'stress-ng': { timeoutSeconds: 3 },
  mbw: { sizeMiB: 64, iterations: 3 }
}

export type CustomForm = 'quick' | 'full'

/** A custom test's starting parameters in `form`: the tool's defaults, shortened for the quick form. */
export function paramsInForm(tool: ToolId, defaults: Record<string, unknown>, form: CustomForm): Record<string, unknown> {
  return form === 'quick' ? { ...defaults, ...QUICK[tool] } : defaults
}
