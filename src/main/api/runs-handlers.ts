import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ComparisonPlanSchema } from '../../shared/model/plan'
import { summarizeRun } from '../../shared/model/run'
import type { Target } from '../../shared/model/target'
import { standardBeforeJobs } from '../engine/before-jobs'
import { PlanError } from '../engine/planner'
import { continueRun, startRun, TargetLookupError, type RunServices, type StartedRun } from '../engine/start-run'
import { newRunId } from '../engine/runner'
import { resourcesDir, scriptsDir } from '../resources'
import type { SecretStore } from '../secrets/secrets'
import type { Session } from '../ssh/types'
import { consentNeeded, runDomainsOf } from '../scenario/run-domains'
import { describeRun } from '../tools/describe-run'
import { exportRun, importRun } from '../store/run-archive'
import { parseRunDocument, RunFileError, RunStore } from '../store/run-store'
import { TargetsStore } from '../store/targets-store'
import { ApiError } from './api-error'
import type { Handlers } from './dispatch'
import type { EventHub } from './event-hub'
import { hostKeyQuestionOf, type HostKeyDecisions } from './host-key-decisions'
import { knownHostsFiles } from '../ssh/host-key'

export type RunsHandlerNames =
  | 'runs:list'
  | 'runs:get'
  | 'runs:start'
  | 'runs:cancel'
  | 'runs:retry'
  | 'runs:resume'
  | 'runs:remove'
  | 'runs:export'
  | 'runs:import'
  | 'runs:raw'
  | 'runs:rename'
  | 'runs:example'

export interface RunsServices {
  dataDir: string
  secrets: SecretStore
  decisions: HostKeyDecisions
  openLocal: (target: Target) => Session
  homeDir?: string
  notify: (level: 'info' | 'warning' | 'error', message: string) => void
  /** The example comparison's run document (default: resources/examples/study-001-published.run.json). */
  exampleRunFile?: string
}

/** The example comparison built from study 001's published figures (scripts/example-run.ts writes it). */
export const EXAMPLE_RUN_FILE = path.join('examples', 'study-001-published.run.json')

const RAW_VIEW_LIMIT = 2 * 1024 * 1024

/** Runs: started here, watched through `runs:event`, kept under `<data>/runs/<id>/`. */
export function createRunsHandlers(svc: RunsServices, hub: EventHub): Pick<Handlers, RunsHandlerNames> & { active: Map<string, StartedRun> } {
  const store = new RunStore(path.join(svc.dataDir, 'runs'))
  const targets = new TargetsStore(svc.dataDir, { onProblem: (message) => svc.notify('warning', message) })
  const active = new Map<string, StartedRun>()
  const homeDir = svc.homeDir ?? os.homedir()

  const services = async (): Promise<RunServices> => ({
    inventory: await targets.list(),
    secrets: svc.secrets,
    decideHostKey: (q) => svc.decisions.ask(hostKeyQuestionOf(q)),
    knownHosts: knownHostsFiles(homeDir, svc.dataDir),
    openLocal: svc.openLocal,
    scriptsDir: scriptsDir(),
    appVersion: __APP_VERSION__,
    onEvent: (event) => hub.emit('runs:event', event),
    beforeJobs: standardBeforeJobs,
    liveLog: true
  })

  const track = (id: string, started: StartedRun): void => {
    active.set(id, started)
    void started.done
      .catch((error: unknown) => svc.notify('error', `run ${id} stopped: ${(error as Error).message}`))
      .finally(() => active.delete(id))
  }

  const launchError = (error: unknown): never => {
    if (error instanceof PlanError || error instanceof TargetLookupError) throw new ApiError('invalid-request', error.message)
    if (error instanceof RunFileError) throw new ApiError('failed', error.message)
    throw error
  }

  const notRunning = (id: string): void => {
    if (active.has(id)) throw new ApiError('failed', 'that run is still going; cancel it first, or wait until it ends')
  }

  return {
    active,
    'runs:list': async () => {
      const { runs, problems } = await store.list()
      return { runs, problems, active: [...active.keys()] }
    },
    'runs:get': async ({ id }) => {
      const started = active.get(id)
      if (started) return started.engine.run
      try {
        // a run written before VirtBench kept its metric definitions gets today's
        return describeRun(await store.get(id))
      } catch (error) {
        if (error instanceof RunFileError) throw new ApiError('failed', error.message)
        throw error
      }
    },
    'runs:start': async ({ plan, changeDomains }) => {
      const id = newRunId()
      const parsed = ComparisonPlanSchema.parse(plan)
      // the same refusal as virtbench run without --change-domains, before anything happens
      const refusal = consentNeeded(parsed, 'your consent (the review step\'s box "VirtBench will edit and restart…")')
      if (refusal && changeDomains !== true) throw new ApiError('forbidden', refusal)
      if (parsed.sweep) {
        throw new ApiError('unavailable', `the app does not run sweeps yet: save the comparison as a preset and run it with virtbench run --change-domains PRESET.json (docs/scenarios.md#sweeps)`)
      }
      try {
        track(id, await startRun(parsed, store.dirOf(id), { ...(await services()), domains: runDomainsOf(changeDomains === true) }, id))
      } catch (error) {
        launchError(error)
      }
      return { id }
    },
    'runs:cancel': ({ id }) => {
      const started = active.get(id)
      started?.engine.cancel()
      return { cancelled: started !== undefined }
    },
    'runs:retry': async ({ id, jobIds }) => {
      notRunning(id)
      const run = await store.get(id).catch(launchError)
      const unknown = jobIds.filter((j) => !run.jobs.some((job) => job.id === j))
      if (unknown.length > 0) throw new ApiError('invalid-request', `run ${id} has no job ${unknown.join(', ')}`)
      try {
        track(id, await continueRun(store.dirOf(id), await services(), jobIds))
      } catch (error) {
        launchError(error)
      }
      return { id }
    },
    'runs:resume': async ({ id }) => {
      notRunning(id)
      try {
        track(id, await continueRun(store.dirOf(id), await services()))
      } catch (error) {
        launchError(error)
      }
      return { id }
    },
    'runs:remove': async ({ id }) => {
      notRunning(id)
      await store.remove(id)
      return { removed: id }
    },
    'runs:export': async ({ id, file }) => {
      notRunning(id)
      try {
        const { rawFiles } = await exportRun(store.dirOf(id), file)
        return { file, rawFiles }
      } catch (error) {
        if (error instanceof RunFileError) throw new ApiError('failed', error.message)
        throw error
      }
    },
    'runs:import': async ({ file }) => {
      try {
        const run = await importRun(file, store.root)
        return { id: run.id, name: run.name }
      } catch (error) {
        if (error instanceof RunFileError) throw new ApiError('failed', error.message)
        throw error
      }
    },
    'runs:rename': async ({ id, name }) => {
      notRunning(id)
      if (!(await store.has(id))) throw new ApiError('failed', `There is no run ${id} (it may have been removed); reload the list of runs.`)
      try {
        return summarizeRun(await store.rename(id, name))
      } catch (error) {
        if (error instanceof RunFileError) throw new ApiError('failed', error.message)
        throw error
      }
    },
    'runs:example': async () => {
      const file = svc.exampleRunFile ?? path.join(resourcesDir(), EXAMPLE_RUN_FILE)
      let text: string
      try {
        text = await fs.readFile(file, 'utf8')
      } catch (error) {
        throw new ApiError('failed', `The example comparison is missing from this installation (${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); reinstall VirtBench to get it back.`)
      }
      let doc
      try {
        doc = parseRunDocument(text, file)
      } catch (error) {
        if (error instanceof RunFileError) throw new ApiError('failed', `The example comparison that ships with VirtBench is damaged: ${error.message}. Reinstall VirtBench.`)
        throw error
      }
      if (await store.has(doc.id)) return { id: doc.id }
      // a folder without its run.json is what an interrupted copy leaves: start again
      await fs.rm(store.dirOf(doc.id), { recursive: true, force: true })
      await store.add(doc)
      return { id: doc.id }
    },
    'runs:raw': async ({ id, file }) => {
      const full = path.join(store.dirOf(id), file)
      let handle
      try {
        handle = await fs.open(full, 'r')
      } catch {
        throw new ApiError('failed', `run ${id} has no raw output ${file}`)
      }
      try {
        const { size } = await handle.stat()
        const buffer = Buffer.alloc(Math.min(size, RAW_VIEW_LIMIT))
        await handle.read(buffer, 0, buffer.length, 0)
        return { text: buffer.toString('utf8'), bytes: size, truncated: size > RAW_VIEW_LIMIT }
      } finally {
        await handle.close()
      }
    }
  }
}
