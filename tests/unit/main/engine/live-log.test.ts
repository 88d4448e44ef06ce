import { describe, expect, it } from 'vitest'
import { TailDemux } from '../../../../src/main/engine/live-log'

const dir = '/home/u/virtbench-work/vb-r1/.jobs/j0001-a1-run'

describe('TailDemux: tail -f of a step\'s stdout and stderr, split back into the two streams', () => {
  it('follows the headers tail writes at each switch of file', () => {
    const demux = new TailDemux(dir)
    const text = `==> ${dir}/stdout <==\nfio-3.33\nStarting 1 process\n\n==> ${dir}/stderr <==\n1+0 records in\n\n==> ${dir}/stdout <==\nrandread: (groupid=0)\n`
    expect(demux.push(text)).toEqual([
      { stream: 'stdout', text: 'fio-3.33\nStarting 1 process\n' },
      { stream: 'stderr', text: '1+0 records in\n' },
      { stream: 'stdout', text: 'randread: (groupid=0)\n' }
    ])
  })

  it('keeps a header cut between two chunks whole, and text without a newline as it comes', () => {
    const demux = new TailDemux(dir)
    expect(demux.push(`==> ${dir}/stdout <==\nprogress 10%`)).toEqual([{ stream: 'stdout', text: 'progress 10%' }])
    expect(demux.push(`\n\n==> ${dir}/std`)).toEqual([{ stream: 'stdout', text: '\n' }])
    expect(demux.push(`err <==\ndd: warning\n`)).toEqual([{ stream: 'stderr', text: 'dd: warning\n' }])
  })

  it("leaves a tool's own line that looks like a header of another file in the text", () => {
    const demux = new TailDemux(dir)
    expect(demux.push(`==> ${dir}/stdout <==\n==> /etc/passwd <==\nok\n`)).toEqual([{ stream: 'stdout', text: '==> /etc/passwd <==\nok\n' }])
  })
})
