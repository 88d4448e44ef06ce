/** Where a command writes; the tests pass their own to read what a user would see. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
  /** Resolves when the user asks the command to stop (Ctrl+C, SIGTERM). */
  interrupted: Promise<string>
}

export interface CliCommand {
  name: string
  summary: string
  usage: string
  run(args: string[], io: CliIo): Promise<number>
}
