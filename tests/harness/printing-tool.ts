import { z } from 'zod'
import { ddTool } from '../../src/main/tools/dd'
import type { AnyBenchmarkTool } from '../../src/main/tools/types'

/** The line the printing tool repeats (39 bytes with its newline). */
export const PRINTED_LINE = 'VirtBench fault test: a chatty job\n'

/**
 * A stand-in benchmark tool (in place of dd) whose one measured step prints `bytes` bytes of
 * text with the target's own `yes` and `head`, for the engine's huge-output test and bench. Its
 * parser reports how many bytes of the output it was given, as `print.parsed_bytes`.
 */
export function printingTool(bytes: number, timeoutSeconds = 120): AnyBenchmarkTool {
  return {
    ...ddTool,
    params: z.object({}).passthrough(),
    plan: () => ({
      steps: [
        {
          id: 'print',
          on: 'target',
          shell: 'sh',
          script: `yes ${JSON.stringify(PRINTED_LINE.trimEnd())} | head -c ${bytes}`,
          timeoutSeconds,
          okExitCodes: [0],
          measured: true
        }
      ],
      files: [],
      estimatedSeconds: 1
    }),
    parse: (out) => ({
      ok: true,
      samples: [{ metric: 'print.parsed_bytes', value: Buffer.byteLength(out.stdout), unit: 'B', better: 'higher', labels: {} }],
      warnings: []
    })
  }
}
