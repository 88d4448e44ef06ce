/** A mistake in how the CLI was called: printed by `usageErrorText`, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/**
 * A usage error as printed: one line when the reason is one line, else the whole reason (a plan's
 * problems, one per line) with the pointer to --help on a line of its own.
 */
export function usageErrorText(message: string, help: string): string {
  const reason = message.trim()
  if (!reason.includes('\n')) return `virtbench: ${reason.replace(/\.$/, '')}. See '${help}'.\n`
  return `virtbench: ${reason}\nSee '${help}'.\n`
}
