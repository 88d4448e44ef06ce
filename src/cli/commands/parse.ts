import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { findTool, TOOLS } from '../../main/tools/registry'
import type { StepOutput } from '../../main/tools/types'
import type { CliCommand } from '../io'
import { UsageError } from '../usage-error'

export const parseCommand: CliCommand = {
  name: 'parse',
  usage: `Usage: virtbench parse --tool ID [--stderr FILE] [--exit-code N] FILE|-

Reads the output of one run of a benchmark tool and prints, on stdout:
  {"tool": ID, "samples": [{"metric", "value", "unit", "better", "labels"}], "warnings": [...]}
Values are in base units (B/s, bit/s, s, op/s, B, %, count, or the tool's score unit);
docs/metrics.md lists every metric.

FILE is the tool's standard output; '-' reads standard input. Tools that report on
standard error (dd, time) can be given one file holding both (2>&1).

Options:
  --tool ID        ${Object.keys(TOOLS).join(', ')}
  --stderr FILE    the tool's standard error, when kept apart
  --exit-code N    the tool's exit code (default 0)
  -h, --help       this help

Exit codes: 0 parsed; 2 the input could not be read or is not that tool's output
(the reason is printed on stderr).`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        tool: { type: 'string' },
        stderr: { type: 'string' },
        'exit-code': { type: 'string' }
      },
      strict: true,
      allowPositionals: true
    })
    if (!values.tool) throw new UsageError('--tool is required')
    const tool = findTool(values.tool)
    if (!tool) throw new UsageError(`unknown tool '${values.tool}'; known tools: ${Object.keys(TOOLS).join(', ')}`)
    if (positionals.length !== 1) throw new UsageError('give exactly one input: a file, or - for standard input')
    const exitCode = values['exit-code'] === undefined ? 0 : Number(values['exit-code'])
    if (!Number.isInteger(exitCode) || exitCode < 0 || exitCode > 255) {
      throw new UsageError(`--exit-code must be a whole number from 0 to 255, not "${values['exit-code']}"`)
    }

    const input = positionals[0]!
    let stdout: string
    let stderr = ''
    try {
      stdout = await readInput(input, io)
      if (values.stderr) stderr = await readInput(values.stderr, io)
    } catch (error) {
      io.stderr(`virtbench parse: cannot read ${(error as { path?: string }).path ?? input}: ${reason(error)}\n`)
      return 2
    }

    const out: StepOutput = { stdout, stderr, exitCode }
    const result = tool.parse(out)
    if (!result.ok) {
      const where = input === '-' ? 'standard input' : input
      io.stderr(
        `virtbench parse: ${where} is not readable as ${tool.name} output: ${result.error.reason}\n` +
          `  near: ${result.error.excerpt}\n`
      )
      return 2
    }
    io.stdout(`${JSON.stringify({ tool: tool.id, samples: result.samples, warnings: result.warnings }, null, 2)}\n`)
    return 0
  }
}

async function readInput(file: string, io: { readStdin?: () => Promise<Buffer> }): Promise<string> {
  const bytes = file === '-' ? await (io.readStdin ?? readProcessStdin)() : await readFile(file)
  return bytes.toString('utf8')
}

async function readProcessStdin(): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function reason(error: unknown): string {
  const code = (error as { code?: string }).code
  if (code === 'ENOENT') return 'no such file'
  if (code === 'EACCES') return 'permission denied'
  if (code === 'EISDIR') return 'it is a directory'
  return error instanceof Error ? error.message : String(error)
}
