import type { CliCommand, CliIo } from './io'
import { UsageError, usageErrorText } from './usage-error'

/** A subcommand as the top-level help lists it; its code (and zod, ssh2...) loads only when it runs. */
interface CommandEntry {
  name: string
  summary: string
  load(): Promise<CliCommand>
}

/** Every subcommand, in the order `virtbench --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'run', summary: 'Run a comparison (a preset, or targets given as ssh:// URLs) and print the overhead table', load: async () => (await import('./commands/run')).runCommand },
  { name: 'report', summary: 'Make the PDF comparison report of a run, and its CSV and JSON exports', load: async () => (await import('./commands/report')).reportCommand },
  { name: 'compare', summary: 'Compare two runs of one preset (a release against the last): how each relative % moved', load: async () => (await import('./commands/compare')).compareCommand },
  { name: 'publish', summary: "Publish finished runs to the team's PostgreSQL store (queued and retried when it cannot be reached)", load: async () => (await import('./commands/publish')).publishCommand },
  { name: 'packs', summary: 'List the test packs taken from the studies, their tests and how long they take', load: async () => (await import('./commands/packs')).packsCommand },
  { name: 'parse', summary: "Parse a benchmark tool's output (run by hand or elsewhere) into samples, as JSON", load: async () => (await import('./commands/parse')).parseCommand },
  { name: 'serve', summary: "Serve the VirtBench UI and API on this machine's loopback, for a browser or headless use", load: async () => (await import('./commands/serve')).serveCommand },
  { name: 'targets', summary: 'List, add, remove, test and import (from ~/.ssh/config) the machines to measure', load: async () => (await import('./commands/targets')).targetsCommand }
]

export function topLevelHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return `virtbench ${__APP_VERSION__}: measure what virtualization costs (guest vs physical host).

Usage: virtbench <command> [options]
       virtbench --help | --version

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run 'virtbench <command> --help' for a command's options.
`
}

/** Runs the CLI and returns the exit code: 0 ok, 1 failed, 2 usage error. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv
  let topic: string | undefined
  try {
    if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
      if (first === 'help' && rest[0]) return await showCommandHelp(rest[0], io)
      io.stdout(topLevelHelp())
      return 0
    }
    if (first === '--version' || first === '-V') {
      io.stdout(`${__APP_VERSION__}\n`)
      return 0
    }
    if (first.startsWith('-')) throw new UsageError(`unknown option '${first}'`)
    const entry = COMMANDS.find((c) => c.name === first)
    if (!entry) throw new UsageError(`unknown command '${first}'`)
    if (rest.includes('--help') || rest.includes('-h')) return await showCommandHelp(entry.name, io)
    topic = entry.name
    const command = await entry.load()
    return await command.run(rest, io)
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      const help = topic ? `virtbench ${topic} --help` : 'virtbench --help'
      io.stderr(usageErrorText((error as Error).message, help))
      return 2
    }
    io.stderr(`virtbench: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

async function showCommandHelp(name: string, io: CliIo): Promise<number> {
  const entry = COMMANDS.find((c) => c.name === name)
  if (!entry) throw new UsageError(`unknown command '${name}'`)
  io.stdout(`${(await entry.load()).usage}\n`)
  return 0
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')
}
