export {
  CSV_COLUMNS,
  CsvSyntaxError,
  csvField,
  csvNumber,
  formatCsv,
  formatCsvLabels,
  guardCsvText,
  parseCsv,
  parseCsvLabels,
  runCsv,
  runCsvRows,
  sweepCsv,
  SWEEP_CSV_COLUMNS,
  type SweepCsvInput,
  unguardCsvText,
  type CsvColumn,
  type RunCsvOptions
} from './csv'
export { describeRedaction, findUnredacted, redactRun, type RedactedRun, type Redaction } from './redact'
export { sweepJson, SWEEP_JSON_KIND, type SweepJsonInput } from './sweep-json'
