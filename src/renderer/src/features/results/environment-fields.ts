import type { TargetEnvironment } from '../../../../shared/model/environment'
import type { RunDocument } from '../../../../shared/model/run'
import type { ScenarioMismatch } from '../../../../shared/model/scenario'

/**
 * The facts of a target's environment as text, and the differences between two captures, are
 * shared with the release comparison and the CLI (src/shared/environment-diff.ts): one list of facts.
 */
export {
  channelsText,
  diskSetupText,
  environmentDifferences,
  environmentFields,
  loadText,
  virtualizationText,
  yesNo,
  type EnvironmentField,
  type FieldDifference
} from '../../../../shared/environment-diff'

/**
 * A target's environment as the run stored it (run.environment[<target name>]). The run
 * document's schema (TargetEnvironmentSchema) already left out any fact of the wrong type, so a
 * fact the target did not expose stays absent ("not reported"), never guessed.
 */
export function environmentOf(run: RunDocument, target: string): TargetEnvironment | undefined {
  return run.environment[target]
}

/** The declared-vs-detected differences the engine stored for a variant. */
export function scenarioMismatchesOf(run: RunDocument, target: string): ScenarioMismatch[] {
  return run.environment[target]?.scenarioMismatches ?? []
}
