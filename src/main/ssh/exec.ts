/**
 * One command on one ssh2 channel: opens it, sends stdin, drains both streams through the
 * preamble filters into the sinks, and reports how the channel ended. Knows nothing of
 * reconnecting, queueing or cancelling; session.ts does that.
 */
import type { Client, ClientChannel } from 'ssh2'
import { PreambleFilter, type StreamSink } from './output'
import { parseProcessIds, sendStdin, stderrMarker, stdoutMarker, type ProcessIds } from './remote-command'
import type { StdinSource } from './types'

export interface ChannelEnd {
  exitCode: number | null
  /** Signal name without SIG ('TERM'), from the server's exit-signal message. */
  signal: string | null
  /** The channel closed without exit-status or exit-signal (the connection dropped, or we closed it). */
  noStatus: boolean
}

export interface RunningChannel {
  /** The command's pid and process group, once its marker arrived; undefined if it never did. */
  processIds: Promise<ProcessIds | undefined>
  /** Settles when both streams ended and the channel closed. Never rejects. */
  ended: Promise<ChannelEnd>
  /** Sends a signal request (OpenSSH signals the session's process group). Best effort. */
  signal(name: string): void
  /** Closes the channel from our side. */
  close(): void
}

export interface ChannelCommand {
  /** The command line for the target's login shell. */
  command: string
  /** Bytes for stdin (stdin is closed after them, or at once when empty), or a stream piped to it. */
  stdin: StdinSource
  /** Marker nonce of the wrapper; absent for raw commands (no preamble filtering). */
  nonce?: string
  /** With a nonce: whether stdout has a marker too (default true); not for a quiet login (remote-command.ts). */
  stdoutMarked?: boolean
  stdout: StreamSink
  stderr: StreamSink
  /**
   * Told what came on stdout before the wrapper's marker (a probe printed there), or undefined at
   * the end when no marker came; then, unlike other commands, nothing of either stream is passed
   * on (it was no output of the command's: it did not start).
   */
  onPreamble?: (preamble: Buffer | undefined) => void
}

/** Opens a session channel and runs `command`; rejects only when the channel cannot be opened. */
export function openExecChannel(client: Client, cmd: ChannelCommand): Promise<RunningChannel> {
  return new Promise((resolve, reject) => {
    try {
      client.exec(cmd.command, (err, channel) => {
        if (err) reject(err)
        else resolve(runOnChannel(channel, cmd))
      })
    } catch (err) {
      reject(err)
    }
  })
}

const EMPTY = Buffer.alloc(0)

function runOnChannel(channel: ClientChannel, cmd: ChannelCommand): RunningChannel {
  let resolveIds: (ids: ProcessIds | undefined) => void = () => undefined
  const processIds = new Promise<ProcessIds | undefined>((resolve) => (resolveIds = resolve))

  const outFilter = cmd.nonce === undefined || cmd.stdoutMarked === false ? undefined : new PreambleFilter(stdoutMarker(cmd.nonce), (_rest, preamble) => cmd.onPreamble?.(preamble))
  /** What the filters hold when a stream ends without its marker: passed on, or dropped for a probing command. */
  const unmarked = (held: Buffer): Buffer => (cmd.onPreamble ? EMPTY : held)
  const errFilter =
    cmd.nonce === undefined ? undefined : new PreambleFilter(stderrMarker(cmd.nonce), (rest) => resolveIds(parseProcessIds(rest)))
  if (errFilter === undefined) resolveIds(undefined)

  const ended = new Promise<ChannelEnd>((resolve) => {
    let exitCode: number | null = null
    let signal: string | null = null
    let gotStatus = false
    let closed = false
    let stdoutEnded = false
    let stderrEnded = false

    const settle = (): void => {
      if (!closed || !stdoutEnded || !stderrEnded) return
      resolveIds(undefined)
      resolve({ exitCode, signal, noStatus: !gotStatus })
    }

    const deliver = (stream: NodeJS.ReadableStream, sink: StreamSink, bytes: Buffer): void => sink.pushFrom(stream, bytes)

    channel.on('data', (chunk: Buffer) => deliver(channel, cmd.stdout, outFilter ? outFilter.write(chunk) : chunk))
    channel.stderr.on('data', (chunk: Buffer) =>
      deliver(channel.stderr, cmd.stderr, errFilter ? errFilter.write(chunk) : chunk)
    )
    channel.on('end', () => {
      if (outFilter) {
        const marked = outFilter.passing
        deliver(channel, cmd.stdout, unmarked(outFilter.end()))
        if (!marked) cmd.onPreamble?.(undefined)
      }
      stdoutEnded = true
      settle()
    })
    channel.stderr.on('end', () => {
      if (errFilter) deliver(channel.stderr, cmd.stderr, unmarked(errFilter.end()))
      stderrEnded = true
      settle()
    })
    channel.on('exit', (code: number | null, sig?: string) => {
      gotStatus = true
      if (typeof code === 'number') exitCode = code
      else if (typeof sig === 'string') signal = sig.replace(/^SIG/, '')
    })
    channel.on('close', () => {
      closed = true
      // a channel torn down with the connection may never emit 'end' on its streams
      if (!channel.readable) stdoutEnded = true
      if (!channel.stderr.readable) stderrEnded = true
      settle()
    })
    channel.on('error', () => undefined)
  })

  sendStdin(cmd.stdin, channel)

  return {
    processIds,
    ended,
    signal: (name) => {
      try {
        channel.signal(name)
      } catch {
        // channel already gone
      }
    },
    close: () => {
      try {
        channel.close()
      } catch {
        // already closed
      }
    }
  }
}
