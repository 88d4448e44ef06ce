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
  unguardCsvText,
  type CsvColumn,
  type RunCsvOptions
} from './csv'
export { describeRedaction, findUnredacted, redactRun, type RedactedRun, type Redaction } from './redact'
