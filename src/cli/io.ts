import type { Writable } from 'node:stream'
import type { PromptInput } from '../main/secrets/secrets'

/** Where a command writes; the tests pass their own to read what a user would see. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
  /** Resolves when the user asks the command to stop (Ctrl+C, SIGTERM). */
  interrupted: Promise<string>
  /** All of standard input ('-' arguments); tests pass their own. */
  readStdin?: () => Promise<Buffer>
  /** Standard output is a terminal (progress bars are redrawn in place). */
  stdoutIsTty?: boolean
  /** The terminal to ask questions on (secrets, host keys); absent when stdin is not a TTY. */
  terminal?: { input: PromptInput; output: Writable }
}

/** A subcommand's code, loaded when it runs (main.ts lists the commands and their summaries). */
export interface CliCommand {
  name: string
  usage: string
  run(args: string[], io: CliIo): Promise<number>
}
