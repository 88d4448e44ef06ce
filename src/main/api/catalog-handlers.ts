import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import type { Catalog, CatalogPack, CatalogTest, CatalogTool } from '../../shared/catalog-contract'
import { ComparisonPlanSchema } from '../../shared/model/plan'
import { PACK_IDS } from '../../shared/model/tool-ids'
import type { Target } from '../../shared/model/target'
import { PastDurations } from '../engine/estimate-history'
import { knownHostsFiles } from '../ssh/host-key'
import { secretKey, type SecretStore } from '../secrets/secrets'
import type { Session } from '../ssh/types'
import { TargetsStore } from '../store/targets-store'
import { estimatePack } from '../tools/pack-estimate'
import { PACKS, packTests, type Pack, type PackForm } from '../tools/packs'
import { TOOLS } from '../tools/registry'
import type { AnyBenchmarkTool } from '../tools/types'
import { sweepCheckPlan } from '../scenario/sweep-run'
import type { Handlers } from './dispatch'
import { hostKeyQuestionOf, type HostKeyDecisions } from './host-key-decisions'
import { preflightPlan, type PreflightServices } from './plan-preflight'
import { reviewPlan } from './plan-review'
import { checkedToolArchives } from './tool-archive-handlers'
import { standardBeforeJobs } from '../engine/before-jobs'
import { toolSourcesOf } from '../engine/tool-archives'
import { beforeJobsWithToolSources } from '../engine/tool-provision'

export type CatalogHandlerNames = 'catalog:get' | 'plans:review' | 'plans:preflight'

export interface CatalogServices {
  dataDir: string
  secrets: SecretStore
  decisions: HostKeyDecisions
  openLocal: (target: Target) => Session
  /** The local resources/scripts directory. */
  scriptsDir: string
  appVersion: string
  homeDir?: string
  notify: (level: 'info' | 'warning' | 'error', message: string) => void
  /** Replaces the checks run before jobs (tests). */
  beforeJobs?: PreflightServices['beforeJobs']
}

/** What the wizard asks before a run: the packs and tools, a review of a plan, preflight on its targets. */
export function createCatalogHandlers(svc: CatalogServices): Pick<Handlers, CatalogHandlerNames> {
  const targets = new TargetsStore(svc.dataDir, { onProblem: (message) => svc.notify('warning', message) })
  const homeDir = svc.homeDir ?? os.homedir()
  const past = new PastDurations(path.join(svc.dataDir, 'runs'))
  let catalog: Catalog | undefined

  return {
    // built on first use: the tools' JSON Schemas cost a few milliseconds each
    'catalog:get': () => (catalog ??= buildCatalog()),

    'plans:review': async ({ plan }) => {
      const inventory = await targets.list()
      const withSudoPassword = new Set<string>()
      for (const t of inventory) {
        if (t.sudo === 'password' && (await svc.secrets.get(secretKey(t.id, 'sudo'))) !== undefined) withSudoPassword.add(t.id)
      }
      // a sweep is checked as its steps run: the baseline and the swept guest (docs/scenarios.md#sweeps)
      const parsed = ComparisonPlanSchema.safeParse(plan)
      const checked = parsed.success && parsed.data.sweep ? sweepCheckPlan(parsed.data) : plan
      return reviewPlan(checked, { inventory, hasSudoPassword: (t) => withSudoPassword.has(t.id), pastSeconds: await past.load() })
    },

    'plans:preflight': async ({ plan, toolArchives }) => {
      const archives = await checkedToolArchives(toolArchives)
      const inventory = await targets.list()
      // the dispatch has checked the plan; parse again for its output type (defaults filled in)
      return preflightPlan(sweepCheckPlan(ComparisonPlanSchema.parse(plan)), {
        inventory,
        secrets: svc.secrets,
        decideHostKey: (q) => svc.decisions.ask(hostKeyQuestionOf(q)),
        knownHosts: knownHostsFiles(homeDir, svc.dataDir),
        openLocal: svc.openLocal,
        scriptsDir: svc.scriptsDir,
        appVersion: svc.appVersion,
        // the tools brought and the targets' tool paths, as a run takes them: preflight says how each arrives
        beforeJobs: beforeJobsWithToolSources(toolSourcesOf(archives, inventory), svc.beforeJobs ?? standardBeforeJobs)
      })
    }
  }
}

// ---- the catalog ----------------------------------------------------------------------------------

/** Parameters a custom test never sets: a raw device is the plan's storage, confirmed and checked there. */
const STORAGE_ONLY_PARAMS = ['device', 'deviceWriteConfirmed']

export function buildCatalog(): Catalog {
  return {
    packs: PACK_IDS.map((id) => catalogPack(PACKS[id])),
    tools: Object.values(TOOLS).map(catalogTool)
  }
}

function catalogPack(pack: Pack): CatalogPack {
  const tools = [...new Set(pack.tests.map((t) => t.tool))]
  const categories = [...new Set(tools.flatMap((t) => TOOLS[t].categories))]
  const form = (f: PackForm): CatalogPack['full'] => ({
    tests: packTests(pack, f).map(catalogTest),
    seconds: estimatePack(pack, f).seconds
  })
  return { id: pack.id, name: pack.name, study: pack.study, description: pack.description, tools, categories, full: form('full'), quick: form('quick') }
}

function catalogTest(test: Pack['tests'][number]): CatalogTest {
  const tool = TOOLS[test.tool]
  return {
    id: test.id,
    title: test.title,
    tool: test.tool,
    params: test.params,
    ...(test.repetitions !== undefined ? { repetitions: test.repetitions } : {}),
    ...(test.aggregate !== undefined ? { aggregate: test.aggregate } : {}),
    seconds: tool.estimateSeconds(tool.params.parse(test.params))
  }
}

function catalogTool(tool: AnyBenchmarkTool): CatalogTool {
  const schema = z.toJSONSchema(tool.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  const defaults = { ...(tool.params.parse({}) as Record<string, unknown>) }
  for (const key of STORAGE_ONLY_PARAMS) delete defaults[key]
  return {
    id: tool.id,
    name: tool.name,
    description: tool.description,
    category: tool.categories[0] ?? 'other',
    network: tool.network !== false,
    paramsSchema: withoutProperties(schema, STORAGE_ONLY_PARAMS),
    defaults
  }
}

/** The schema without some properties (and without them in `required`). */
function withoutProperties(schema: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const properties = schema.properties as Record<string, unknown> | undefined
  if (!properties) return schema
  const kept = Object.fromEntries(Object.entries(properties).filter(([key]) => !keys.includes(key)))
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((key) => !keys.includes(key)) : undefined
  return { ...schema, properties: kept, ...(required ? { required } : {}) }
}
