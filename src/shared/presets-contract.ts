import { z } from 'zod'
import { stringOfAtMostBytes } from './byte-limit'
import { PresetSchema } from './model/plan'

/**
 * Presets through the API (docs/presets.md): the app's saved presets plus the study presets that
 * ship in resources/presets/ (built in: they can be opened and duplicated, not changed or deleted).
 * Import and export carry the file's text, so they work the same in the desktop app (file dialogs)
 * and in a browser on `virtbench serve` (file input, download).
 */

/** The file name of a saved preset without .json, or 'builtin:<name>' for a shipped one. */
export const PresetIdSchema = z.string().regex(/^(builtin:)?[\p{L}\p{N}][\p{L}\p{N}-]{0,79}$/u, 'not a preset id')

export const PresetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  builtin: z.boolean(),
  /** ISO 8601; absent for built-in presets. */
  modifiedAt: z.string().optional(),
  baseline: z.string(),
  variants: z.array(z.string()),
  /** Pack ids and custom test ids, in order. */
  tests: z.array(z.string())
})
export type PresetSummary = z.infer<typeof PresetSummarySchema>

export const PresetListSchema = z.object({ presets: z.array(PresetSummarySchema), problems: z.array(z.string()) })
export type PresetList = z.infer<typeof PresetListSchema>

const Name = z.string().trim().min(1, 'a preset needs a name').max(120)
/**
 * The most a preset file's text may weigh, in bytes of UTF-8 (a preset is a few KiB). With JSON's
 * escapes (at most two bytes for one) it fits a `virtbench serve` message (BRIDGE_MESSAGE_LIMIT_BYTES).
 */
export const PRESET_TEXT_LIMIT_BYTES = 1024 * 1024
/** NAME_MAX of Linux and most filesystems. */
export const FILE_NAME_LIMIT_BYTES = 255
const PresetText = stringOfAtMostBytes(PRESET_TEXT_LIMIT_BYTES, 'a preset file').min(1, 'the file is empty')

export const presetsInvokeContract = {
  'presets:list': { request: z.undefined(), response: PresetListSchema },
  'presets:get': { request: z.strictObject({ id: PresetIdSchema }), response: z.object({ summary: PresetSummarySchema, preset: PresetSchema }) },
  /** Save (create, or replace the preset with this id when `id` is given). Refuses secrets. */
  'presets:save': {
    request: z.strictObject({ id: PresetIdSchema.optional(), preset: PresetSchema }),
    response: PresetSummarySchema
  },
  'presets:duplicate': { request: z.strictObject({ id: PresetIdSchema, name: Name }), response: PresetSummarySchema },
  'presets:rename': { request: z.strictObject({ id: PresetIdSchema, name: Name }), response: PresetSummarySchema },
  'presets:remove': { request: z.strictObject({ id: PresetIdSchema }), response: z.object({ removed: z.string() }) },
  /** Reads a preset file's text; every problem is named (field and fix) in the error. */
  'presets:import': { request: z.strictObject({ text: PresetText, fileName: stringOfAtMostBytes(FILE_NAME_LIMIT_BYTES, 'a file name').optional() }), response: PresetSummarySchema },
  /** The preset as a .json file's text and a suggested file name. */
  'presets:export': { request: z.strictObject({ id: PresetIdSchema }), response: z.object({ fileName: z.string(), text: z.string() }) }
} as const

export const presetsEventContract = {
  'presets:changed': PresetListSchema
} as const
