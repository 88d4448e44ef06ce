import { PassThrough } from 'node:stream'
import { performance } from 'node:perf_hooks'
import { SessionError, type ExecResult, type Session } from '../ssh/types'

/**
 * A server with no job for this long ends (its stdin closed): it holds a channel of the target's
 * sshd, and a target that allows few at once (MaxSessions) may have other commands waiting for one.
 */
const IDLE_MS = 1000

/** The arguments of `job.sh run DIR NONCE LIMIT KEEP` that a request to the server carries. */
export interface JobRequest {
  dir: string
  nonce: string
  limit: string
  keep: string
}

/**
 * One `job.sh serve` per target while a run lasts (issue 22): a job is a request written to its
 * stdin instead of an SSH command of its own, so it opens no channel of its own and starts no
 * login shell and no job.sh. The server answers a request exactly as `job.sh run` does (status
 * line, output, counters line) and ends the answer on each stream with "\nNONCE.<exit code>\n".
 *
 * The jobs stay what they are: detached, in their own session, nobody's child on the target. The
 * server only starts them and waits, as `job.sh run` would. It serves one job at a time; a job
 * asked for while another runs goes as a command of its own (`busy`). When anything goes wrong
 * with the server (the connection drops, it ends, a job is stopped or cancelled while it waits),
 * the server is ended and the job is treated as a `job.sh run` that was cut off: the engine waits
 * for the job again with `job.sh wait`, which reads the same files. The next job starts a new one.
 */
export class JobAgent {
  private idleTimer: NodeJS.Timeout | undefined
  private input: PassThrough | undefined
  private running: Promise<ExecResult> | undefined
  private control: AbortController | undefined
  private current: AgentRequest | undefined
  private closed = false

  constructor(
    private readonly session: Session,
    private readonly jobSh: string,
    private readonly opts: { idleMs?: number } = {}
  ) {}

  /** Whether a job is being served now (another goes as a command of its own). */
  get busy(): boolean {
    return this.current !== undefined
  }

  /**
   * Runs one job as `job.sh run DIR NONCE LIMIT KEEP` would, with `script` as its stdin; resolves
   * as session.exec would for that command: its output to `onStdout` and `onStderr` (less the
   * end markers), its exit code, `cancelled` when `signal` stopped the wait.
   */
  async run(
    args: JobRequest,
    script: string,
    opts: { signal?: AbortSignal; onStdout: (chunk: Buffer) => void | Promise<void>; onStderr: (chunk: Buffer) => void | Promise<void> }
  ): Promise<ExecResult> {
    if (this.current) throw new Error('JobAgent.run: a job is being served already')
    if (this.closed) throw new SessionError('closed', `the session to ${this.session.label} was closed`, this.session.label)
    const body = script.length === 0 || script.endsWith('\n') ? script : `${script}\n`
    const lines = body.length === 0 ? 0 : body.split('\n').length - 1
    for (const field of [args.dir, args.nonce, args.limit, args.keep]) {
      if (field.includes('\n')) throw new SessionError('invalid', `a job's folder or arguments cannot hold a line break: ${JSON.stringify(field)}`, this.session.label)
    }
    const started = performance.now()
    clearTimeout(this.idleTimer)
    const request = new AgentRequest(args.nonce, opts.onStdout, opts.onStderr)
    this.current = request
    const onAbort = (): void => this.drop(true)
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    try {
      if (opts.signal?.aborted) return cancelledResult(started)
      const running = this.start()
      this.input!.write(`run\n${args.dir}\n${args.nonce}\n${args.limit}\n${args.keep}\n${lines}\n${body}`)
      const outcome = await Promise.race([request.done, running.then((result) => ({ serverEnded: result }))])
      if ('exitCode' in outcome) return { ...outcome, durationMs: performance.now() - started }
      // the server ended before its answer did
      if (opts.signal?.aborted) return cancelledResult(started)
      const result = outcome.serverEnded
      if (result.cancelled) throw new SessionError('closed', `the session to ${this.session.label} was closed while a job ran`, this.session.label)
      throw new SessionError(
        'channel',
        `${this.session.label}: job.sh's server ended (${result.exitCode ?? result.signal}) before the job's end was told`,
        this.session.label
      )
    } catch (err) {
      this.drop(true)
      throw err
    } finally {
      opts.signal?.removeEventListener('abort', onAbort)
      this.current = undefined
      if (this.running) {
        // (a job asked for meanwhile clears it)
        this.idleTimer = setTimeout(() => this.drop(), this.opts.idleMs ?? IDLE_MS)
        this.idleTimer.unref()
      }
    }
  }

  /**
   * Lets go of the server (its jobs run on), and the next job starts a new one. Its stdin is
   * closed, which ends an idle server the gentle way (no command needed to stop it); `abort` also
   * stops its command, for a server waiting for a job's end, which reads no stdin meanwhile.
   */
  private drop(abort = false): void {
    if (abort) this.control?.abort()
    this.input?.end()
    this.input = undefined
    this.running = undefined
    this.control = undefined
  }

  /** Ends the server and waits until its command has ended; later jobs fail. */
  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.idleTimer)
    const running = this.running
    this.drop()
    await running?.catch(() => undefined)
  }

  private start(): Promise<ExecResult> {
    if (this.running) return this.running
    this.input = new PassThrough()
    this.control = new AbortController()
    const running = this.session.exec(
      { argv: ['sh', this.jobSh, 'serve'] },
      {
        stdin: this.input,
        signal: this.control.signal,
        onStdout: (chunk) => this.current?.stdout(chunk),
        onStderr: (chunk) => this.current?.stderr(chunk)
      }
    )
    // once it has ended of itself, the next job starts a new one; a failure is the current job's
    // to tell (run() races it), and with no job, nobody's
    const ended = (): void => {
      if (this.running === running) this.drop()
    }
    running.then(ended, ended)
    this.running = running
    return running
  }
}

function cancelledResult(started: number): ExecResult {
  return { exitCode: null, signal: null, durationMs: performance.now() - started, stdoutBytes: 0, stderrBytes: 0, timedOut: false, cancelled: true }
}

/** One request's answer: each stream passed on up to its end marker. */
class AgentRequest {
  readonly done: Promise<ExecResult>
  private readonly out: MarkedStream
  private readonly err: MarkedStream
  private settle: (result: ExecResult) => void = () => undefined

  constructor(nonce: string, onStdout: (chunk: Buffer) => void | Promise<void>, onStderr: (chunk: Buffer) => void | Promise<void>) {
    this.done = new Promise((resolve) => (this.settle = resolve))
    const check = (): void => {
      if (this.out.code === undefined || this.err.code === undefined) return
      this.settle({
        exitCode: this.out.code,
        signal: null,
        durationMs: 0,
        stdoutBytes: this.out.bytes,
        stderrBytes: this.err.bytes,
        timedOut: false,
        cancelled: false
      })
    }
    this.out = new MarkedStream(nonce, onStdout, check)
    this.err = new MarkedStream(nonce, onStderr, check)
  }

  stdout(chunk: Buffer): Promise<void> {
    return this.out.write(chunk)
  }

  stderr(chunk: Buffer): Promise<void> {
    return this.err.write(chunk)
  }
}

/**
 * A stream of one answer up to its end marker "\nNONCE.<code>\n": what comes before it goes to
 * `sink` as it arrives (all but the few last bytes, which could be the marker's start).
 */
export class MarkedStream {
  /** The exit code the marker gave, once it came. */
  code: number | undefined
  /** Bytes passed on. */
  bytes = 0
  private held: Buffer = Buffer.alloc(0)
  private readonly marker: Buffer
  /** The last write's end: each chunk is taken in turn, whenever the sink lets the one before it go. */
  private queue: Promise<void> = Promise.resolve()

  constructor(
    nonce: string,
    private readonly sink: (chunk: Buffer) => void | Promise<void>,
    private readonly ended: () => void
  ) {
    this.marker = Buffer.from(`\n${nonce}.`)
  }

  write(chunk: Buffer): Promise<void> {
    this.queue = this.queue.then(() => this.take(chunk))
    return this.queue
  }

  private async take(chunk: Buffer): Promise<void> {
    // after the marker nothing belongs to this answer
    if (this.code !== undefined) return
    const data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk])
    const at = data.indexOf(this.marker)
    if (at >= 0) {
      const eol = data.indexOf(0x0a, at + this.marker.length)
      if (at > 0) await this.pass(data.subarray(0, at))
      if (eol < 0) {
        this.held = Buffer.from(data.subarray(at))
        return
      }
      const digits = data.toString('latin1', at + this.marker.length, eol)
      this.held = Buffer.alloc(0)
      this.code = /^\d{1,3}$/.test(digits) ? Number(digits) : 1
      this.ended()
      return
    }
    const keep = Math.min(data.length, this.marker.length - 1)
    const pass = data.subarray(0, data.length - keep)
    this.held = Buffer.from(data.subarray(data.length - keep))
    if (pass.length > 0) await this.pass(pass)
  }

  private async pass(bytes: Buffer): Promise<void> {
    this.bytes += bytes.length
    await this.sink(bytes)
  }
}
