import type { StateCreator } from 'zustand'
import type { InvokeResponse, VirtbenchApi } from '../../../shared/contract'
import type { ComparisonPlanInput } from '../../../shared/model/plan'
import type { Finding, JobStatus, RunDocument, RunEvent, RunStatus } from '../../../shared/model/run'
import type { DomainStageEvent } from '../../../shared/sweep/stage-event'
import { sweepJson } from '../../../shared/export/sweep-json'
import { downloadText } from '../lib/download'
import { downloadRunDocument, exportFileName } from '../lib/export-run'
import { LogBuffer, type LogLines } from '../models/log-buffer'
import { apiMessage } from '../lib/api-message'
import type { AppState } from '.'
import { connectedApi } from './connected-api'
import { startPayloadOf, type StartOptions } from './wizard-slice'

/** A run as runs:list gives it. */
export type ListedRun = InvokeResponse<'runs:list'>['runs'][number]

/** A job's state as the run page shows it: the job statuses, plus waiting for a lost target. */
export type LiveJobState = JobStatus | 'reattaching'

/** What the events said about one job since it last started. */
export interface LiveJob {
  state: LiveJobState
  attempt?: number
  estimatedSeconds?: number
  elapsedSeconds?: number
  percent?: number
  etaSeconds?: number
  /** Why it is reattaching (the connection error). */
  message?: string
  error?: string
  logTail?: string
  samples?: number
}

/** How many stage messages a live run keeps. */
const STAGES_KEPT = 500

/** What the events said about one run since it last started. */
export interface LiveRun {
  status?: RunStatus
  error?: string
  /** The latest stage before the jobs (connecting, checking the targets...). */
  stage?: { message: string; target?: string }
  /** Every stage of this pass, oldest first (the last STAGES_KEPT): the run page reads the domain changes from them. */
  stages?: { message: string; target?: string; domain?: DomainStageEvent }[]
  findings: Finding[]
  jobs: Record<string, LiveJob>
}

/** What the history page filters on besides the summary: the tests and packs of a run. */
export interface RunFacts {
  tests: { id: string; title: string }[]
  packs: string[]
}

export interface PendingDeletion {
  id: string
  name: string
}

/** How long a deleted run can be brought back before it is removed for good. */
export const UNDO_MS = 8_000
/** At most one runs:get of the open run per this many milliseconds while results stream in. */
export const REFETCH_MS = 750
/** Logs of this many runs are kept (the open one and the ones still running always are). */
const KEPT_LOGS = 3

/** Runs: the history list, the open run and its live events (features/runs). */
export interface RunsSlice {
  /** Undefined until the first list has arrived. */
  runs: ListedRun[] | undefined
  /** Run folders that could not be read, as runs:list names them. */
  runsProblems: string[]
  /** Ids of the runs going on now. */
  activeRuns: string[]
  runsError: string | undefined
  /** Deleted, waiting out the undo delay: hidden from the list. */
  pendingDeletions: PendingDeletion[]
  runFacts: Record<string, RunFacts>
  /** The run document of `openRunId` (check its id: it may still be the previous run's). */
  openRunDoc: RunDocument | undefined
  /** Why the open run could not be read (for that run id). */
  openRunError: { id: string; message: string } | undefined
  /** Live state per run id. */
  live: Record<string, LiveRun>
  /** Bumped (at most once per animation frame) when a log got new lines. */
  logTick: number

  watchRuns: (api: VirtbenchApi) => void
  loadRuns: () => Promise<void>
  /** Fetches a run document as the open run's (after openRun(id)). */
  loadRun: (id: string) => Promise<void>
  /** The live log of a run, if lines arrived for it in this session. */
  runLog: (runId: string) => LogLines | undefined
  /** Starts a comparison and opens its run page; returns the run id. Throws the API's error. */
  /** `changeDomains`: the user's consent to change the plan's libvirt domains. */
  startRun: (plan: ComparisonPlanInput, options?: StartOptions) => Promise<string>
  cancelRun: (id: string) => Promise<boolean>
  retryJobs: (id: string, jobIds: string[]) => Promise<void>
  /** `changeDomains`: the user's consent to change the run's libvirt domains again (a sweep, a setup); without it they are only put back. */
  resumeRun: (id: string, options?: { changeDomains?: boolean }) => Promise<void>
  renameRun: (id: string, name: string) => Promise<void>
  /** Hides the run at once; removes it after UNDO_MS unless undoDelete comes first. */
  deleteRun: (id: string) => void
  undoDelete: (id: string) => void
  /** Downloads the run document as .json; returns the file name. */
  exportRunJson: (id: string) => Promise<string>
  /** Reads the tests and packs of listed runs (for the history's test filter), once per run. */
  loadRunFacts: (ids: string[]) => Promise<void>
}

export function factsOf(run: RunDocument): RunFacts {
  return {
    tests: run.tests.map((t) => ({ id: t.id, title: t.title })),
    packs: [...new Set(run.plan.tests.flatMap((t) => ('pack' in t ? [t.pack] : [])))]
  }
}

function nextFrame(callback: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback())
  else setTimeout(callback, 16)
}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = (set, get) => {
  let watching: VirtbenchApi | undefined
  let listGeneration = 0
  let runGeneration = 0
  let refetchTimer: ReturnType<typeof setTimeout> | undefined
  let refetchFor: string | undefined
  let lastFetchAt = 0
  let tickPending = false
  const logs = new Map<string, LogBuffer>()
  const deleteTimers = new Map<string, ReturnType<typeof setTimeout>>()
  const factsLoading = new Set<string>()

  const api = (): VirtbenchApi => connectedApi(get())

  const patchLive = (runId: string, change: (run: LiveRun) => LiveRun): void =>
    set((s) => ({ live: { ...s.live, [runId]: change(s.live[runId] ?? { findings: [], jobs: {} }) } }))

  const patchJob = (runId: string, jobId: string, change: (job: LiveJob | undefined) => LiveJob): void =>
    patchLive(runId, (run) => ({ ...run, jobs: { ...run.jobs, [jobId]: change(run.jobs[jobId]) } }))

  const logOf = (runId: string): LogBuffer => {
    let log = logs.get(runId)
    if (!log) {
      log = new LogBuffer()
      logs.set(runId, log)
      const keep = new Set([runId, get().openRunId, ...get().activeRuns])
      for (const id of logs.keys()) if (logs.size > KEPT_LOGS && !keep.has(id)) logs.delete(id)
    } else {
      // Most recently used last, so the oldest log goes first.
      logs.delete(runId)
      logs.set(runId, log)
    }
    return log
  }

  /** One store update per animation frame, however many chunks arrived in it. */
  const logChanged = (): void => {
    if (tickPending) return
    tickPending = true
    nextFrame(() => {
      tickPending = false
      set((s) => ({ logTick: s.logTick + 1 }))
    })
  }

  /** Fetches the open run again: at once if it was not fetched lately, else once the pause is over. */
  const refetchOpenRun = (runId: string): void => {
    if (get().openRunId !== runId) return
    if (refetchTimer) {
      if (refetchFor === runId) return
      clearTimeout(refetchTimer)
    }
    const wait = Math.max(0, lastFetchAt + REFETCH_MS - Date.now())
    refetchFor = runId
    refetchTimer = setTimeout(() => {
      refetchTimer = undefined
      if (get().openRunId === runId) void get().loadRun(runId)
    }, wait)
  }

  const jobName = (runId: string, jobId: string): string => {
    const doc = get().openRunDoc
    const job = doc?.id === runId ? doc.jobs.find((j) => j.id === jobId) : undefined
    return job ? `${jobId} ${job.title} on ${job.side}, repetition ${job.repetition}` : jobId
  }

  const onEvent = (event: RunEvent): void => {
    const { runId } = event
    switch (event.type) {
      case 'run-started':
        // a sweep's next step starts under the sweep's id: its jobs are new, the stages of the
        // steps before it (each reconfiguration, the restores) stay in view
        patchLive(runId, (run) => ({ status: 'running', findings: [], jobs: {}, ...(run.stage ? { stage: run.stage } : {}), ...(run.stages ? { stages: run.stages } : {}) }))
        set((s) => (s.activeRuns.includes(runId) ? s : { activeRuns: [...s.activeRuns, runId] }))
        void get().loadRuns()
        refetchOpenRun(runId)
        return
      case 'jobs-added':
        // adaptive repetitions added a round: the run document has the new jobs
        refetchOpenRun(runId)
        return
      case 'stage':
        patchLive(runId, (run) => {
          const stage = { message: event.message, ...(event.target ? { target: event.target } : {}), ...(event.domain ? { domain: event.domain } : {}) }
          return { ...run, stage, stages: [...(run.stages ?? []), stage].slice(-STAGES_KEPT) }
        })
        return
      case 'finding':
        patchLive(runId, (run) => ({ ...run, findings: [...run.findings, event.finding] }))
        return
      case 'job-started':
        patchJob(runId, event.jobId, () => ({
          state: 'running',
          attempt: event.attempt,
          elapsedSeconds: 0,
          ...(event.estimatedSeconds !== undefined
            ? { estimatedSeconds: event.estimatedSeconds, percent: 0, etaSeconds: event.estimatedSeconds }
            : {})
        }))
        logOf(runId).note(event.jobId, `▸ ${jobName(runId, event.jobId)}: started${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`)
        logChanged()
        return
      case 'job-progress':
        patchJob(runId, event.jobId, (job) => ({
          ...job,
          state: job?.state === 'reattaching' ? 'reattaching' : 'running',
          elapsedSeconds: event.elapsedSeconds,
          ...(event.percent !== undefined ? { percent: event.percent } : {}),
          ...(event.etaSeconds !== undefined ? { etaSeconds: event.etaSeconds } : {})
        }))
        return
      case 'job-reattached':
        patchJob(runId, event.jobId, (job) => ({ ...job, state: 'reattaching', message: event.message }))
        logOf(runId).note(event.jobId, `↻ ${event.jobId}: connection lost (${event.message}); reattaching, the job keeps running on its target`)
        logChanged()
        return
      case 'job-log':
        logOf(runId).append(event.jobId, event.stream, event.text)
        logChanged()
        // Output flowing again means the target is back.
        if (get().live[runId]?.jobs[event.jobId]?.state === 'reattaching') {
          patchJob(runId, event.jobId, (job) => ({ ...(job ?? {}), state: 'running', message: undefined }))
        }
        return
      case 'job-finished': {
        patchJob(runId, event.jobId, (job) => ({
          ...job,
          state: event.status,
          message: undefined,
          samples: event.samples,
          ...(event.status === 'succeeded' ? { percent: 100, etaSeconds: 0 } : {}),
          error: event.error,
          logTail: event.logTail
        }))
        const log = logOf(runId)
        log.flush(event.jobId)
        const word = event.status === 'succeeded' ? `✓ ${event.jobId}: done, ${event.samples} samples` : `✕ ${event.jobId}: ${event.status}`
        log.note(event.jobId, event.error ? `${word}: ${event.error}` : word)
        logChanged()
        refetchOpenRun(runId)
        return
      }
      case 'run-finished':
        patchLive(runId, (run) => ({ ...run, status: event.status, ...(event.error ? { error: event.error } : {}) }))
        set((s) => ({ activeRuns: s.activeRuns.filter((id) => id !== runId) }))
        void get().loadRuns()
        // the final document at once, so the page never shows a finished run as still running
        if (refetchTimer && refetchFor === runId) {
          clearTimeout(refetchTimer)
          refetchTimer = undefined
        }
        if (get().openRunId === runId) void get().loadRun(runId)
        return
    }
  }

  const finishDeletion = async (id: string, name: string): Promise<void> => {
    deleteTimers.delete(id)
    try {
      await api().invoke('runs:remove', { id })
      logs.delete(id)
      set((s) => {
        const { [id]: _facts, ...runFacts } = s.runFacts
        const { [id]: _live, ...live } = s.live
        return {
          runs: s.runs?.filter((r) => r.id !== id),
          pendingDeletions: s.pendingDeletions.filter((p) => p.id !== id),
          runFacts,
          live,
          compareRunIds: s.compareRunIds.filter((c) => c !== id)
        }
      })
    } catch (error) {
      set((s) => ({ pendingDeletions: s.pendingDeletions.filter((p) => p.id !== id) }))
      get().addNotice({ level: 'error', message: `Could not delete the run “${name}”: ${apiMessage(error)}`, at: new Date().toISOString() })
    }
  }

  return {
    runs: undefined,
    runsProblems: [],
    activeRuns: [],
    runsError: undefined,
    pendingDeletions: [],
    runFacts: {},
    openRunDoc: undefined,
    openRunError: undefined,
    live: {},
    logTick: 0,

    watchRuns: (source) => {
      if (watching === source) return
      watching = source
      source.on('runs:event', (event) => onEvent(event as RunEvent))
    },

    loadRuns: async () => {
      const generation = ++listGeneration
      try {
        const list = await api().invoke('runs:list')
        if (generation !== listGeneration) return
        set((s) => ({
          runs: list.runs,
          runsProblems: list.problems,
          // A run that just started may not be listed as active yet; its events say it is.
          activeRuns: [...new Set([...list.active, ...Object.keys(s.live).filter((id) => s.live[id]?.status === 'running')])],
          runsError: undefined
        }))
      } catch (error) {
        if (generation === listGeneration) set({ runsError: apiMessage(error) })
      }
    },

    loadRun: async (id) => {
      const generation = ++runGeneration
      lastFetchAt = Date.now()
      try {
        const doc = await api().invoke('runs:get', { id })
        if (generation !== runGeneration || get().openRunId !== id) return
        set((s) => ({ openRunDoc: doc, openRunError: undefined, runFacts: { ...s.runFacts, [id]: factsOf(doc) } }))
      } catch (error) {
        if (generation === runGeneration && get().openRunId === id) set({ openRunError: { id, message: apiMessage(error) } })
      }
    },

    runLog: (runId) => logs.get(runId),

    startRun: async (plan, options) => {
      const { id } = await api().invoke('runs:start', { plan, ...startPayloadOf(options) })
      set((s) => ({
        live: s.live[id] ? s.live : { ...s.live, [id]: { status: 'running', findings: [], jobs: {} } },
        activeRuns: s.activeRuns.includes(id) ? s.activeRuns : [...s.activeRuns, id]
      }))
      get().openRun(id)
      void get().loadRun(id)
      return id
    },

    cancelRun: async (id) => (await api().invoke('runs:cancel', { id })).cancelled,

    retryJobs: async (id, jobIds) => {
      await api().invoke('runs:retry', { id, jobIds })
      refetchOpenRun(id)
    },

    resumeRun: async (id, options) => {
      await api().invoke('runs:resume', { id, ...(options?.changeDomains ? { changeDomains: true } : {}) })
      refetchOpenRun(id)
    },

    renameRun: async (id, name) => {
      const summary = await api().invoke('runs:rename', { id, name })
      set((s) => ({
        runs: s.runs?.map((r) => (r.id === id ? summary : r)),
        openRunDoc: s.openRunDoc?.id === id ? { ...s.openRunDoc, name: summary.name } : s.openRunDoc
      }))
    },

    deleteRun: (id) => {
      if (deleteTimers.has(id)) return
      const name = get().runs?.find((r) => r.id === id)?.name ?? (get().openRunDoc?.id === id ? get().openRunDoc?.name : undefined) ?? id
      set((s) => ({ pendingDeletions: [...s.pendingDeletions, { id, name }] }))
      deleteTimers.set(
        id,
        setTimeout(() => void finishDeletion(id, name), UNDO_MS)
      )
    },

    undoDelete: (id) => {
      const timer = deleteTimers.get(id)
      if (timer === undefined) return
      clearTimeout(timer)
      deleteTimers.delete(id)
      set((s) => ({ pendingDeletions: s.pendingDeletions.filter((p) => p.id !== id) }))
    },

    exportRunJson: async (id) => {
      const run = await api().invoke('runs:get', { id })
      const sweep = run.plan.sweep ? await api().invoke('runs:sweep', { id }) : undefined
      if (!sweep?.sweep) return downloadRunDocument(run)
      // a sweep: sweep.json and every step's run document, as runs:sweep gives them (docs/export.md#a-sweep)
      const name = exportFileName(run)
      downloadText(name, sweepJson({ run, record: sweep.record, total: sweep.total, steps: sweep.steps }))
      return name
    },

    loadRunFacts: async (ids) => {
      const wanted = ids.filter((id) => !get().runFacts[id] && !factsLoading.has(id))
      for (const id of wanted) factsLoading.add(id)
      const queue = [...wanted]
      const worker = async (): Promise<void> => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          try {
            const doc = await api().invoke('runs:get', { id })
            set((s) => ({ runFacts: { ...s.runFacts, [id]: factsOf(doc) } }))
          } catch {
            // A run that cannot be read shows without its tests; runs:list reports the problem.
          } finally {
            factsLoading.delete(id)
          }
        }
      }
      await Promise.all([worker(), worker(), worker()])
    }
  }
}
