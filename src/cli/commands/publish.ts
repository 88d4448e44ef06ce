import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { defaultDataDir } from '../../main/data-dir'
import { readRun, RunFileError } from '../../main/store/run-store'
import { parseTeamStoreUrl, TeamStoreError } from '../../main/team-store/connection'
import { RAW_MODES, unpublishableReason, type PublishOptions, type RawMode } from '../../main/team-store/publish'
import { PublishQueue, publishOrQueue, retryQueue, type PublishOutcome } from '../../main/team-store/queue'
import type { RunDocument } from '../../shared/model/run'
import type { CliCommand, CliIo } from '../io'
import { UsageError } from '../usage-error'

const USAGE = `Usage: virtbench publish DIR... --to postgres://USER@HOST[:PORT]/DATABASE [options]
       virtbench publish --retry [--to URL]

Publishes finished runs (each a run's folder or its run.json) to the team's PostgreSQL store
(docs/team-store.md): the run, its targets and environment, tests, jobs, every sample, the
comparison rows with their verdicts and the raw outputs (a pointer, or a copy with --raw copy), in
one transaction. Publishing a run twice changes nothing. VirtBench creates and upgrades its tables
(schema "virtbench") and refuses a store set up by a newer VirtBench.

The password never goes on the command line or in the URL: it comes from PGPASSWORD, a .pgpass
file (PGPASSFILE or ~/.pgpass, mode 0600) or, in the app, the keychain. TLS as libpq's sslmode
(default prefer: TLS when the server offers it); ?sslmode=require|verify-ca|verify-full&sslrootcert=FILE.

A publish that fails (the server down, the network cut, a password to correct) is kept in a local
queue (<data>/team-store/queue/) and retried by --retry, and after each later publish to the same
store.

Options:
  --to URL           the team store (required unless --retry)
  --raw MODE         pointer (default): the raw outputs stay here, the store names host:folder;
                     copy: their bytes go into the store too
  --author NAME      who published (default user@host)
  --release NAME     the release the runs measure, for the dashboards (default: each run's name)
  --retry            publish what the queue holds (only for --to URL when given)
  --data-dir DIR     where the queue is kept (default: the app's folder)

Exit status: 0 every run is in the store; 1 a run was queued (the reason on stderr) or could not
be read; 2 bad arguments (a password in the URL among them).`

export const publishCommand: CliCommand = {
  name: 'publish',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        to: { type: 'string' },
        raw: { type: 'string' },
        author: { type: 'string' },
        release: { type: 'string' },
        retry: { type: 'boolean' },
        'data-dir': { type: 'string' }
      },
      strict: true,
      allowPositionals: true
    })
    const url = values.to
    if (url !== undefined) checkUrl(url)
    const raw = values.raw ?? 'pointer'
    if (!(RAW_MODES as readonly string[]).includes(raw)) throw new UsageError(`--raw must be pointer or copy, not "${raw}"`)
    const queue = PublishQueue.inDataDir(values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir(io.env))
    const sources = { env: io.env }
    if (values.retry) {
      if (positionals.length > 0) throw new UsageError('--retry publishes the queue; give no run folders with it')
      const results = await retryQueue(queue, sources, __APP_VERSION__, url)
      if (results.length === 0) io.stdout(`Nothing queued${url ? ` for ${url}` : ''}.\n`)
      let failed = 0
      for (const r of results) failed += report(io, r.runId, r.url, r.outcome) ? 0 : 1
      return failed > 0 ? 1 : 0
    }
    if (url === undefined) throw new UsageError('give the team store with --to postgres://USER@HOST[:PORT]/DATABASE')
    if (positionals.length === 0) throw new UsageError('give the run folders to publish (each a folder with a run.json)')
    const runs = await Promise.all(positionals.map(readRunAt))
    const options: PublishOptions = {
      raw: raw as RawMode,
      appVersion: __APP_VERSION__,
      ...(values.author !== undefined ? { author: values.author } : {}),
      ...(values.release !== undefined ? { release: values.release } : {})
    }
    let failed = 0
    for (const { run, dir } of runs) {
      const outcome = await publishOrQueue({ url, run, runDir: dir, options }, queue, sources)
      failed += report(io, run.id, url, outcome) ? 0 : 1
    }
    if (failed === 0) {
      // the store answers: what an earlier failure left in the queue for it goes now
      for (const r of await retryQueue(queue, sources, __APP_VERSION__, url)) report(io, r.runId, r.url, r.outcome, 'queued earlier: ')
    }
    return failed > 0 ? 1 : 0
  }
}

function checkUrl(url: string): void {
  try {
    parseTeamStoreUrl(url)
  } catch (error) {
    if (error instanceof TeamStoreError) throw new UsageError(`--to: ${error.message}`)
    throw error
  }
}

/** Prints one outcome; true when the run is in the store. */
function report(io: CliIo, runId: string, url: string, outcome: PublishOutcome | { status: 'unreadable'; error: string }, prefix = ''): boolean {
  const where = url.replace(/\?.*$/, '')
  switch (outcome.status) {
    case 'published':
      io.stdout(`${prefix}${runId}: published to ${where}\n`)
      return true
    case 'already-published':
      io.stdout(`${prefix}${runId}: already in ${where}; nothing changed\n`)
      return true
    case 'queued':
      io.stderr(`virtbench publish: ${prefix}${runId}: ${outcome.error}\n  queued (attempt ${outcome.entry.attempts}); 'virtbench publish --retry' publishes it, as does the next publish to this store\n`)
      return false
    case 'unreadable':
      io.stderr(`virtbench publish: ${prefix}${runId}: ${outcome.error}\n`)
      return false
  }
}

async function readRunAt(given: string): Promise<{ run: RunDocument; dir: string }> {
  const source = path.resolve(given)
  const isFile = existsSync(source) && statSync(source).isFile()
  if (isFile && path.basename(source) !== 'run.json') throw new UsageError(`${source} is not a run.json; give the run's folder or its run.json`)
  const dir = isFile ? path.dirname(source) : source
  let run: RunDocument
  try {
    run = await readRun(dir)
  } catch (error) {
    throw new UsageError(`cannot read the run at ${source}: ${error instanceof RunFileError ? error.message : (error as Error).message}`)
  }
  const why = unpublishableReason(run)
  if (why) throw new UsageError(`${dir}: ${why}`)
  return { run, dir }
}
