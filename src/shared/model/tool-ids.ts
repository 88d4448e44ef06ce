/** Ids of the benchmark tools, as presets, packs and `virtbench parse --tool <id>` name them. */
export const TOOL_IDS = ['fio', 'dd', 'iperf3', 'iperf', 'ping', 'bonnie', 'iozone', 'unixbench', 'mbw', 'sysbench', 'stress-ng'] as const
export type ToolId = (typeof TOOL_IDS)[number]

/** Ids of the study packs (src/main/tools/packs.ts holds their tests). */
export const PACK_IDS = ['everyday', 'cloud-acceptance', 'block-dd', 'cluster-fio', 'seq-dd', 'kvm-storage'] as const
export type PackId = (typeof PACK_IDS)[number]

/** Repetitions of each test when a plan does not say (plan.ts's default; estimates use it too). */
export const DEFAULT_PLAN_REPETITIONS = 3

/** How the repetitions of one test are summarized into the figure that is compared. */
export const AGGREGATES = ['median', 'mean', 'best'] as const
export type Aggregate = (typeof AGGREGATES)[number]
