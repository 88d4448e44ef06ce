import type { RunTest } from '../model/run'

/** A test that ran the admin's own fio job file, with the file's text as the run keeps it. */
export interface RunJobFile {
  testId: string
  title: string
  text: string
}

/** The own fio job files of a run's tests (params.jobFile), for reports to show verbatim. */
export function runJobFiles(tests: readonly Pick<RunTest, 'id' | 'title' | 'tool' | 'params'>[]): RunJobFile[] {
  return tests.flatMap((test) =>
    test.tool === 'fio' && typeof test.params.jobFile === 'string' ? [{ testId: test.id, title: test.title, text: test.params.jobFile }] : []
  )
}

/** The job files for a terminal: each under its test's title, indented as a code block, exactly as run. */
export function runJobFilesText(files: readonly RunJobFile[]): string {
  return files.map((f) => `${f.title} (${f.testId}):\n${f.text.replace(/\n$/, '').split('\n').map((line) => `    ${line}`).join('\n')}\n`).join('\n')
}
