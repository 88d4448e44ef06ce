import { compareCommand } from './commands/compare'
import { packsCommand } from './commands/packs'
import { parseCommand } from './commands/parse'
import { runCommand } from './commands/run'
import { reportCommand } from './commands/report'
import { serveCommand } from './commands/serve'
import { targetsCommand } from './commands/targets'
import type { CliCommand, CliIo } from './io'
import { UsageError, usageErrorText } from './usage-error'

/** Every subcommand; `report` joins with the export issue. */
export const COMMANDS: CliCommand[] = [runCommand, reportCommand, compareCommand, packsCommand, parseCommand, serveCommand, targetsCommand]

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
      if (first === 'help' && rest[0]) return showCommandHelp(rest[0], io)
      io.stdout(topLevelHelp())
      return 0
    }
    if (first === '--version' || first === '-V') {
      io.stdout(`${__APP_VERSION__}\n`)
      return 0
    }
    if (first.startsWith('-')) throw new UsageError(`unknown option '${first}'`)
    const command = COMMANDS.find((c) => c.name === first)
    if (!command) throw new UsageError(`unknown command '${first}'`)
    if (rest.includes('--help') || rest.includes('-h')) return showCommandHelp(command.name, io)
    topic = command.name
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

function showCommandHelp(name: string, io: CliIo): number {
  const command = COMMANDS.find((c) => c.name === name)
  if (!command) throw new UsageError(`unknown command '${name}'`)
  io.stdout(`${command.usage}\n`)
  return 0
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')
}
