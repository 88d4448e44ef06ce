import { z } from 'zod'
import {
  BaselineSchema,
  ComparisonPlanSchema,
  CustomTestSchema,
  PackChoiceSchema,
  PRESET_KIND,
  PRESET_VERSION,
  PresetSchema,
  StorageTargetSchema,
  TestChoiceSchema,
  TestIdSchema,
  VariantSchema
} from '../../shared/model/plan'

/**
 * The JSON Schema of a preset, generated from PresetSchema (the model stays the one source of
 * truth). `npm run presets:schema` writes it to resources/presets/preset.schema.json; a unit test
 * fails when the committed file is stale.
 */

export const PRESET_SCHEMA_FILE = 'preset.schema.json'

/** Where the committed schema is published (the repository's raw file). */
export const PRESET_SCHEMA_ID = 'https://raw.githubusercontent.com/virtbench/virtbench/main/resources/presets/preset.schema.json'

/** The command that rewrites the committed schema. */
export const PRESET_SCHEMA_COMMAND = 'npm run presets:schema (npx tsx scripts/presets-schema.ts)'

const plan = ComparisonPlanSchema.shape
const [directoryStorage, deviceStorage] = StorageTargetSchema.options

/**
 * Descriptions for fields the model leaves undescribed, so that editors (and docs/presets.md)
 * explain every field. A description written in the model always wins over these.
 */
const EXTRA_DESCRIPTIONS = new Map<z.core.$ZodType, string>([
  [PresetSchema.shape.kind, `Always "${PRESET_KIND}": tells a preset from VirtBench's other documents`],
  [
    PresetSchema.shape.version,
    `The preset format version (${PRESET_VERSION}). VirtBench reads every older version and refuses a newer one it does not understand`
  ],
  [PresetSchema.shape.description, 'Free text for people: what this comparison is for, what to look at in its results'],
  [PresetSchema.shape.plan, 'The comparison: who is compared with whom, with which tests, how often and where'],
  [plan.name, 'The comparison\'s name, as reports and the presets list show it (a saved preset\'s file name is made from it)'],
  [plan.baseline, 'The machine every variant is compared with: it is 100 %'],
  [BaselineSchema.shape.label, 'How tables name the baseline (default: the target name)'],
  [plan.variants, 'The guests measured against the baseline, each with the scenario it stands for'],
  [VariantSchema, 'A guest measured against the baseline'],
  [
    VariantSchema.shape.scenario,
    'How this guest is set up; every field is optional. Labels for tables; with a domain, the engine checks cache, queues, bus and storage against what libvirt reports'
  ],
  [plan.tests, 'What runs: study packs (all their tests, or some) and custom tests, in this order'],
  [TestChoiceSchema, 'A study pack, or a custom test'],
  [TestIdSchema, 'A test id of the pack (virtbench packs shows them)'],
  [PackChoiceSchema, 'All or some tests of a study pack, with the study\'s parameters'],
  [CustomTestSchema, 'One test written out: a tool and its parameters'],
  [CustomTestSchema.shape.title, 'How tables name this test (default: the tool name and the id)'],
  [CustomTestSchema.shape.tool, 'The benchmark tool (virtbench tools lists them)'],
  [plan.repetitions, 'Runs of each test on each target, unless the test sets its own (a pack test may: study 001 runs iperf3 three times)'],
  [plan.aggregate, 'How the repetitions of a test become the compared figure: median, mean, or best (the best run, as study 001 takes for iperf3)'],
  [plan.storage, 'Where storage tests write: a work directory on each target (files are created and removed), or a raw device'],
  [directoryStorage, 'Test files in a directory on each target; they are removed after the run, after a failure and after a cancel'],
  [directoryStorage.shape.kind, 'A work directory'],
  [directoryStorage.shape.path, 'The work directory on each target: an absolute path or one under the login\'s home (~/)'],
  [deviceStorage, 'A raw block device on each target. Everything on it is destroyed; preflight refuses a device that is mounted or holds a filesystem, partition table or LVM signature'],
  [deviceStorage.shape.kind, 'A raw block device'],
  [deviceStorage.shape.path, 'The device on each target, for example /dev/vdb'],
  [plan.network, 'Which machine network tests talk to, and the extra network measurements'],
  [plan.schedule, 'In what order jobs run']
])

/** The preset's JSON Schema (draft 2020-12) as an object. */
export function presetJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(PresetSchema, {
    target: 'draft-2020-12',
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      // A description the model gives this very schema wins; one inherited from a wrapped schema does not.
      const extra = EXTRA_DESCRIPTIONS.get(zodSchema)
      if (extra !== undefined && z.globalRegistry.get(zodSchema)?.description === undefined) jsonSchema.description = extra
    }
  }) as Record<string, unknown>
  const { $schema, ...rest } = generated
  return {
    $schema,
    $id: PRESET_SCHEMA_ID,
    title: `VirtBench preset (version ${PRESET_VERSION})`,
    description:
      'A comparison plan saved as a document: a baseline, the variants measured against it, the tests, repetitions, ' +
      'aggregation, where storage tests write, network pairing and schedule. Targets are named (names of the inventory); ' +
      'a preset never holds a password, key or token. Some rules cannot be said in JSON Schema and are checked when ' +
      'VirtBench reads the preset: storage.confirm equals storage.path, each target appears once, custom test ids and ' +
      'variant labels are unique, and each test\'s params are valid for its tool. See docs/presets.md.',
    ...rest
  }
}

/** The text of resources/presets/preset.schema.json. */
export function renderPresetJsonSchema(): string {
  return `${JSON.stringify(presetJsonSchema(), null, 2)}\n`
}
