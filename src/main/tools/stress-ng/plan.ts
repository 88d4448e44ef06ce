import { quoteSh, shJoin } from '../../../shared/shell-quote'
import { linuxToolDir } from '../common/work-dir'
import type { Plan, PlanContext, TargetFacts } from '../types'
import type { StressNgParams } from './params'

/** Starting the workers and writing the report. */
const STARTUP_SECONDS = 1
/** stress-ng stops its workers at the timeout; unmapping a large vm mapping on a busy guest can take a while. */
const TIMEOUT_GRACE_SECONDS = 120
/** The YAML report stress-ng writes (--yaml), in the tool's folder of the work directory. */
export const YAML_FILE = 'stress-ng.yaml'

/** The run plus starting and reporting. */
export function estimateSeconds(params: StressNgParams): number {
  return Math.ceil(STARTUP_SECONDS + params.timeoutSeconds)
}

/** Where the YAML report goes: `<workDir>/stress-ng`, removed by cleanup. */
export function stressNgDir(target: TargetFacts): string {
  return linuxToolDir(target, 'stress-ng', 'stress-ng runs')
}

/** The options of the one stressor the test runs. */
function stressorOptions(params: StressNgParams): string[] {
  switch (params.stressor) {
    case 'cpu':
      return ['--cpu-method', params.cpuMethod]
    case 'vm':
      return ['--vm-bytes', params.vmBytes, '--vm-method', params.vmMethod, ...(params.vmKeep ? ['--vm-keep'] : [])]
  }
}

/** `stress-ng --<stressor> N <its options> --timeout Ts --metrics-brief --yaml <file>`. */
export function stressNgArgv(params: StressNgParams, target: TargetFacts, yamlFile: string): string[] {
  return [
    target.toolPaths?.['stress-ng'] ?? 'stress-ng',
    `--${params.stressor}`,
    String(params.workers),
    ...stressorOptions(params),
    '--timeout',
    `${params.timeoutSeconds}s`,
    '--metrics-brief',
    '--yaml',
    yamlFile
  ]
}

/**
 * One measured step: stress-ng writes its metrics as YAML (exact figures, six decimals) into the
 * tool's folder of the work directory and its log, with the `--metrics-brief` table (two
 * decimals), on stderr; the script then prints the YAML on stdout and ends with stress-ng's own
 * exit status, so the parser reads both and the run keeps both as raw output.
 */
export function plan(params: StressNgParams, ctx: PlanContext): Plan {
  const dir = stressNgDir(ctx.target)
  const yaml = `${dir}/${YAML_FILE}`
  const argv = stressNgArgv(params, ctx.target, yaml)
  const file = quoteSh(yaml)
  const script = `mkdir -p -- ${quoteSh(dir)} && rm -f -- ${file} && ${shJoin(argv)}; rc=$?; if [ -f ${file} ]; then cat -- ${file}; fi; exit "$rc"`
  return {
    steps: [
      {
        id: 'run',
        on: 'target',
        shell: 'sh',
        script,
        argv,
        timeoutSeconds: Math.ceil(STARTUP_SECONDS + params.timeoutSeconds + TIMEOUT_GRACE_SECONDS),
        okExitCodes: [0],
        measured: true
      }
    ],
    files: [{ on: 'target', path: dir }],
    estimatedSeconds: estimateSeconds(params)
  }
}
