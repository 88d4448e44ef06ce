import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ComparisonPlanSchema } from '../../shared/model/plan'
import { deepFreeze, markChecked } from '../../shared/checked-values'
import { RunDocumentSchema, type RunDocument, type RunEvent } from '../../shared/model/run'
import type { Target } from '../../shared/model/target'
import { standardBeforeJobs } from '../engine/before-jobs'
import { toolSourcesOf } from '../engine/tool-archives'
import { beforeJobsWithToolSources } from '../engine/tool-provision'
import type { ToolArchive } from '../tools/provision'
import { PlanError } from '../engine/planner'
import type { ComparisonPlan } from '../../shared/model/plan'
import { continueRun, startRun, TargetLookupError, type RunServices, type StartedRun } from '../engine/start-run'
import { newRunId } from '../engine/runner'
import { resourcesDir, scriptsDir } from '../resources'
import type { SecretStore } from '../secrets/secrets'
import type { Session } from '../ssh/types'
import { consentNeeded, runDomainsOf } from '../scenario/run-domains'
import { runSweep } from '../scenario/sweep-run'
import { describeRun } from '../tools/describe-run'
import { exportRun, importRun } from '../store/run-archive'
import { exportSweep, parseRunDocument, RunDocumentCache, RunFileError, RunStore } from '../store/run-store'
import { TargetsStore } from '../store/targets-store'
import { ApiError } from './api-error'
import type { Handlers } from './dispatch'
import type { EventHub } from './event-hub'
import { hostKeyQuestionOf, type HostKeyDecisions } from './host-key-decisions'
import { knownHostsFiles } from '../ssh/host-key'
import { checkedToolArchives } from './tool-archive-handlers'

export type RunsHandlerNames =
  | 'runs:list'
  | 'runs:get'
  | 'runs:sweep'
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

/** A run going in this process: a run of its own, or a sweep (its step under way). */
export interface ActiveRun {
  /** The run document as it is now (a sweep's: its step under way, under the sweep's id and plan). */
  run: () => RunDocument
  cancel: () => void
  done: Promise<unknown>
  /** It changes libvirt domains (a sweep, a variant's setup): the app puts them back before it quits. */
  changesDomains: boolean
}

function activeOf(started: StartedRun): ActiveRun {
  const plan = started.run.plan
  return { run: () => started.engine.run, cancel: () => started.engine.cancel(), done: started.done, changesDomains: plan.variants.some((v) => v.scenario.setup !== undefined) }
}

/** Runs: started here, watched through `runs:event`, kept under `<data>/runs/<id>/` (a sweep as one run, docs/runs.md). */
export function createRunsHandlers(
  svc: RunsServices,
  hub: EventHub
): Pick<Handlers, RunsHandlerNames> & { active: Map<string, ActiveRun>; beforeQuit: () => Promise<void> | undefined } {
  // runs:get is asked again and again while a run is on screen: an unchanged run folder is not checked again
  const store = new RunStore(path.join(svc.dataDir, 'runs'), { cache: new RunDocumentCache() })
  const targets = new TargetsStore(svc.dataDir, { onProblem: (message) => svc.notify('warning', message) })
  const active = new Map<string, ActiveRun>()
  const homeDir = svc.homeDir ?? os.homedir()

  /** A run's services; the tools come from the files brought (runs:start) and the targets' own tool paths, as in the CLI. */
  const services = async (archives: readonly ToolArchive[] = []): Promise<RunServices> => {
    const inventory = await targets.list()
    return {
      inventory,
      secrets: svc.secrets,
      decideHostKey: (q) => svc.decisions.ask(hostKeyQuestionOf(q)),
      knownHosts: knownHostsFiles(homeDir, svc.dataDir),
      openLocal: svc.openLocal,
      scriptsDir: scriptsDir(),
      appVersion: __APP_VERSION__,
      onEvent: (event) => hub.emit('runs:event', event),
      beforeJobs: beforeJobsWithToolSources(toolSourcesOf(archives, inventory), standardBeforeJobs),
      liveLog: true
    }
  }

  const track = (id: string, started: ActiveRun): void => {
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

  /** runs:get's answers for the documents the store's cache gave (frozen, checked), as long as it keeps them. */
  const described = new WeakMap<RunDocument, RunDocument>()
  /**
   * A run written before VirtBench kept its metric definitions gets today's (describeRun); for a
   * document of the cache, once: the answer is checked, frozen and kept, so dispatch does not
   * check it again at every poll.
   */
  const describedOnce = (run: RunDocument): RunDocument => {
    if (!Object.isFrozen(run)) return describeRun(run)
    let answer = described.get(run)
    if (!answer) {
      const full = describeRun(run)
      answer = full === run ? run : markChecked(deepFreeze(RunDocumentSchema.parse(full)), RunDocumentSchema)
      described.set(run, answer)
    }
    return answer
  }

  const notRunning = (id: string): void => {
    if (active.has(id)) throw new ApiError('failed', 'that run is still going; cancel it first, or wait until it ends')
  }

  /**
   * Runs the plan's sweep in `<data>/runs/<id>/` with runSweep, as `virtbench run --change-domains`
   * does: each step a run of its own, the domain put back after the last step or the first that
   * does not complete (a cancel too). Its events are the sweep's (the steps' own ends left out);
   * resolves when the first step has started, or the sweep ended before it.
   */
  const startSweep = async (id: string, plan: ComparisonPlan, opts: { consent: boolean; resume: boolean; archives?: readonly ToolArchive[] }): Promise<ActiveRun> => {
    let current: StartedRun | undefined
    let stopping = false
    const base = await services(opts.archives)
    const emit = (event: RunEvent): void => hub.emit('runs:event', { ...event, runId: id })
    const sweepServices: RunServices = {
      ...base,
      domains: runDomainsOf(opts.consent),
      onEvent: (event) => {
        if (event.type !== 'run-finished') emit(event)
      }
    }
    let firstStarted!: () => void
    const started = new Promise<void>((resolve) => (firstStarted = resolve))
    const done = runSweep(plan, store.dirOf(id), sweepServices, {
      stopped: () => stopping,
      onStep: (index, total, variant) => emit({ type: 'stage', runId: id, message: `Sweep step ${index + 1} of ${total}: ${plan.sweep!.target} with ${variant.label}` }),
      onStarted: (step) => {
        current = step
        firstStarted()
      }
    }, { resume: opts.resume }).then(async (results) => {
      // from now on runs:get reads the sweep from its folder, with the sweep's own state
      active.delete(id)
      const summary = (await store.sweep(id))?.summary
      emit({ type: 'run-finished', runId: id, status: summary?.status ?? 'failed', ...(results.length === 0 ? { error: 'the sweep stopped before its first step' } : {}) })
    })
    // a plan the engine refuses fails runs:start, as a run's does
    await Promise.race([started, done])
    return {
      run: () => {
        if (!current) throw new ApiError('failed', `sweep ${id} has not started a step yet`)
        return { ...current.engine.run, id, plan }
      },
      cancel: () => {
        stopping = true
        current?.engine.cancel()
      },
      done,
      changesDomains: true
    }
  }

  /**
   * Before the app quits: the runs that changed libvirt domains are cancelled and awaited, so their
   * domains are put back as after a cancel (as the CLI does on Ctrl+C); undefined when there are none.
   */
  const beforeQuit = (): Promise<void> | undefined => {
    const changing = [...active.entries()].filter(([, run]) => run.changesDomains)
    if (changing.length === 0) return undefined
    svc.notify('info', `Putting back the libvirt domains of ${changing.map(([id]) => id).join(', ')} before VirtBench quits…`)
    for (const [, run] of changing) run.cancel()
    return Promise.allSettled(changing.map(([, run]) => run.done)).then(() => undefined)
  }

  return {
    active,
    beforeQuit,
    'runs:sweep': async ({ id }) => {
      try {
        const sweep = await store.sweep(id)
        if (!sweep) return { sweep: false as const }
        return { sweep: true as const, plan: sweep.record.plan, total: sweep.total, steps: sweep.steps, record: sweep.record }
      } catch (error) {
        if (error instanceof RunFileError) throw new ApiError('failed', error.message)
        throw error
      }
    },
    'runs:list': async () => {
      const { runs, problems } = await store.list()
      return { runs, problems, active: [...active.keys()] }
    },
    'runs:get': async ({ id }) => {
      const started = active.get(id)
      if (started) return started.run()
      try {
        return describedOnce(await store.get(id))
      } catch (error) {
        if (error instanceof RunFileError) throw new ApiError('failed', error.message)
        throw error
      }
    },
    'runs:start': async ({ plan, changeDomains, toolArchives }) => {
      const id = newRunId()
      const parsed = ComparisonPlanSchema.parse(plan)
      const archives = await checkedToolArchives(toolArchives)
      // the same refusal as virtbench run without --change-domains, before anything happens
      const refusal = consentNeeded(parsed, 'your consent (the review step\'s box "VirtBench will edit and restart…")')
      if (refusal && changeDomains !== true) throw new ApiError('forbidden', refusal)
      try {
        if (parsed.sweep) track(id, await startSweep(id, parsed, { consent: changeDomains === true, resume: false, archives }))
        else track(id, activeOf(await startRun(parsed, store.dirOf(id), { ...(await services(archives)), domains: runDomainsOf(changeDomains === true) }, id)))
      } catch (error) {
        launchError(error)
      }
      return { id }
    },
    'runs:cancel': ({ id }) => {
      const started = active.get(id)
      started?.cancel()
      return { cancelled: started !== undefined }
    },
    'runs:retry': async ({ id, jobIds }) => {
      notRunning(id)
      if (await store.sweep(id).catch(launchError)) throw new ApiError('invalid-request', `run ${id} is a sweep: resume it to run its steps that did not complete`)
      const run = await store.get(id).catch(launchError)
      const unknown = jobIds.filter((j) => !run.jobs.some((job) => job.id === j))
      if (unknown.length > 0) throw new ApiError('invalid-request', `run ${id} has no job ${unknown.join(', ')}`)
      try {
        track(id, activeOf(await continueRun(store.dirOf(id), await services(), jobIds)))
      } catch (error) {
        launchError(error)
      }
      return { id }
    },
    'runs:resume': async ({ id, changeDomains }) => {
      notRunning(id)
      try {
        const sweep = await store.sweep(id)
        // a sweep resumes as a whole, keeping its id: its completed steps kept, the domain put back at the end
        if (sweep) track(id, await startSweep(id, sweep.record.plan, { consent: changeDomains === true, resume: true }))
        else track(id, activeOf(await continueRun(store.dirOf(id), await services())))
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
        const { rawFiles } = (await store.sweep(id)) ? await exportSweep(store.dirOf(id), file) : await exportRun(store.dirOf(id), file)
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
        return await store.rename(id, name)
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
      const full = path.join(await store.rawDirOf(id).catch(() => store.dirOf(id)), file)
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
