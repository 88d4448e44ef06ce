import type { Writable } from 'node:stream'
import type { PromptInput } from '../main/secrets/secrets'
import type { HostKeyDecision, HostKeyQuestion } from '../shared/targets-contract'
import type { CliIo } from './io'

/**
 * Asks on the terminal about an unknown host key. Without a terminal the key is refused, unless
 * the user said --accept-new-host-keys (then it is remembered, and the fingerprint printed).
 */
export async function decideOnTerminal(q: HostKeyQuestion, acceptNew: boolean, io: CliIo): Promise<HostKeyDecision> {
  const intro = `The host key of ${q.targetName} (${q.host}:${q.port}) is not known yet:\n  ${q.keyType} ${q.fingerprint}\n`
  if (acceptNew) {
    io.stderr(`${intro}Accepted and remembered (--accept-new-host-keys).\n`)
    return 'accept-and-remember'
  }
  const terminal = io.terminal
  if (!terminal) {
    io.stderr(`${intro}Refused: there is no terminal to ask on. Compare the fingerprint with 'ssh-keygen -lf' on that machine, then run again on a terminal or with --accept-new-host-keys.\n`)
    return 'reject'
  }
  terminal.output.write(`${intro}Compare it with 'ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub' on that machine.\nAccept? [o]nce, [r]emember, [N]o: `)
  const answer = await readLine(terminal.input, terminal.output)
  if (/^r/i.test(answer)) return 'accept-and-remember'
  if (/^o/i.test(answer)) return 'accept-once'
  return 'reject'
}

function readLine(input: PromptInput, output: Writable): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString()
      const nl = text.indexOf('\n')
      if (nl >= 0) done(text.slice(0, nl))
    }
    const done = (line: string): void => {
      input.off('data', onData)
      input.off('end', onEnd)
      input.pause()
      resolve(line.trim())
    }
    const onEnd = (): void => {
      output.write('\n')
      done(text)
    }
    input.on('data', onData)
    input.once('end', onEnd)
    input.resume()
  })
}
