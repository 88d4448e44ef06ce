import { describe, expect, it } from 'vitest'
import { runCli } from '../../../src/cli/main'
import type { CliIo } from '../../../src/cli/io'

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {}, interrupted: new Promise(() => {}) }
  const code = await runCli(argv, io)
  return { code, stdout, stderr }
}

describe('virtbench packs', () => {
  it('lists every pack with its study and durations', async () => {
    const { code, stdout } = await cli('packs')
    expect(code).toBe(0)
    for (const id of ['cloud-acceptance', 'block-dd', 'cluster-fio', 'seq-dd', 'kvm-storage']) expect(stdout).toMatch(new RegExp(`^${id} `, 'm'))
    expect(stdout).toContain('Cluster fio job: 1 test, about 64 s')
  })

  it('shows one pack\'s tests, and its full parameters as JSON', async () => {
    const text = await cli('packs', 'block-dd')
    expect(text.stdout).toContain('dd-latency')
    const { stdout } = await cli('packs', 'block-dd', '--json')
    const pack = JSON.parse(stdout) as { form: string; tests: { id: string; params: Record<string, unknown> }[] }
    expect(pack.form).toBe('full')
    expect(pack.tests[1]).toMatchObject({ id: 'dd-latency', params: { blockSize: '512', count: '1000', direct: true } })
  })

  it('refuses an unknown pack with exit 2', async () => {
    const { code, stderr } = await cli('packs', 'nope')
    expect(code).toBe(2)
    expect(stderr).toContain("unknown pack 'nope'")
  })
})
