import { runCli } from './main'

/** The `virtbench` executable: wires the CLI to this process. */
const interrupted = new Promise<string>((resolve) => {
  process.once('SIGINT', () => resolve('SIGINT'))
  process.once('SIGTERM', () => resolve('SIGTERM'))
})

runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  interrupted,
  stdoutIsTty: process.stdout.isTTY === true,
  ...(process.stdin.isTTY && process.stderr.isTTY ? { terminal: { input: process.stdin, output: process.stderr } } : {})
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`virtbench: ${String(error)}\n`)
    process.exit(1)
  }
)
