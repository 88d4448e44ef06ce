/**
 * The names of every channel between the renderer and main. Kept free of zod so the sandboxed
 * preload can import it cheaply; `contract.ts` attaches a schema to each name and the compiler
 * checks that the two lists agree.
 */
export const INVOKE_CHANNELS = [
  'app:info',
  'settings:get',
  'settings:update',
  'shell:openExternal',
  'targets:list',
  'targets:add',
  'targets:update',
  'targets:remove',
  'targets:importPreview',
  'targets:import',
  'targets:test',
  'targets:secretsStorage',
  'hostkey:decide',
  'runs:list',
  'runs:get',
  'runs:sweep',
  'runs:start',
  'runs:cancel',
  'runs:retry',
  'runs:resume',
  'runs:remove',
  'runs:export',
  'runs:import',
  'runs:report',
  'runs:raw',
  'runs:rename',
  'runs:example',
  'catalog:get',
  'plans:review',
  'plans:preflight',
  'tools:archives',
  'tools:checkArchive',
  'tools:chooseArchive',
  'scenario:listDomains',
  'scenario:diff',
  'scenario:estimate',
  'presets:list',
  'presets:get',
  'presets:save',
  'presets:duplicate',
  'presets:rename',
  'presets:remove',
  'presets:import',
  'presets:export',
  'team:settings',
  'team:configure',
  'team:publish',
  'team:list',
  'team:get',
  'team:raw'
] as const

export const EVENT_CHANNELS = [
  'settings:changed',
  'app:notice',
  'targets:changed',
  'targets:testProgress',
  'hostkey:question',
  'runs:event',
  'presets:changed'
] as const

export type InvokeChannel = (typeof INVOKE_CHANNELS)[number]
export type EventChannel = (typeof EVENT_CHANNELS)[number]

export function isInvokeChannel(value: unknown): value is InvokeChannel {
  return typeof value === 'string' && (INVOKE_CHANNELS as readonly string[]).includes(value)
}

export function isEventChannel(value: unknown): value is EventChannel {
  return typeof value === 'string' && (EVENT_CHANNELS as readonly string[]).includes(value)
}
