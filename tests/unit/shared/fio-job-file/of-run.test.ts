import { describe, expect, it } from 'vitest'
import { runJobFiles, runJobFilesText } from '../../../../src/shared/fio-job-file'

describe("a run's own fio job files", () => {
  it('are the fio tests with a job file, shown verbatim as an indented block under their title', () => {
    const text = '[virt]\nioengine=libaio\n\n; comment kept\nsize=1g\n'
    const files = runJobFiles([
      { id: 'fio-job-file', title: 'fio job file', tool: 'fio', params: { jobFile: text } },
      { id: 'fio-4k', title: '4 KiB random read', tool: 'fio', params: { rw: 'randread' } },
      { id: 'dd', title: 'dd', tool: 'dd', params: { jobFile: 'not fio' } }
    ])
    expect(files).toEqual([{ testId: 'fio-job-file', title: 'fio job file', text }])
    expect(runJobFilesText(files)).toBe('fio job file (fio-job-file):\n    [virt]\n    ioengine=libaio\n    \n    ; comment kept\n    size=1g\n')
  })
})
