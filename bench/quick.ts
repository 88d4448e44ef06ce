/**
 * What a quick run costs next to its tools' own time, measured in one run against real loopback
 * sshd targets (tests/harness/sshd.ts, started here):
 *
 *   npx tsx bench/quick.ts [ROUNDS]          (npm run bench:quick; ROUNDS default 3)
 *
 * VirtBench: the built CLI (`node out/main/cli.js run`, build with `npx electron-vite build`)
 * runs the block-dd pack in quick form with 1 repetition on two targets (4 jobs), from process
 * start to exit: connecting, preflight, environment capture, the jobs, cleanup, the table.
 * By hand: the same dd commands (the dd tool's own plan, in the run's order), each through `ssh`
 * over one OpenSSH ControlMaster connection per target, opened in the round (so both sides pay
 * for their logins), then the test file removed and the master closed.
 * The two alternate, round after round, so drift on the machine hits both; medians are printed,
 * with the ratio and whether the goal (VirtBench <= 2 x by hand + 1 s) is met (exit code 1 if not).
 * The login account is a throwaway one with /bin/sh and no rc files, as in bench/engine.ts.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { PACKS, packTests } from '../src/main/tools/packs'
import { ddTool } from '../src/main/tools/dd'
import { shJoin } from '../src/shared/shell-quote'
import { startSshd, type SshdServer } from '../tests/harness/sshd'
import { createThrowawayUser } from '../tests/integration/ssh/session-helpers'

const ROUNDS = Number(process.argv[2] ?? 3)
const CLI = path.resolve(__dirname, '../out/main/cli.js')
const GOAL_FACTOR = 2
const GOAL_EXTRA_S = 1

interface Finished {
  status: number | null
  stdout: string
  stderr: string
}

function run(cmd: string, args: readonly string[]): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

function must(what: string, r: Finished): Finished {
  if (r.status !== 0) throw new Error(`${what} exited with ${r.status}:\n${r.stdout}\n${r.stderr}`)
  return r
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/** The block-dd quick pack's measured commands for a work directory, in the order the run takes them. */
function ddCommands(workDir: string): { script: string; file: string }[] {
  return packTests(PACKS['block-dd'], 'quick').map((test) => {
    const params = ddTool.params.parse(test.params)
    const plan = ddTool.plan(params, { target: { os: 'linux', workDir, scriptsDir: workDir } })
    const script = plan.steps.map((s) => s.script ?? shJoin(s.argv ?? [])).join(' && ')
    return { script, file: plan.files[0]?.path ?? '' }
  })
}

async function virtbenchRound(servers: SshdServer[], user: string, identity: string, dataDir: string, scratch: string, round: number): Promise<number> {
  const out = path.join(scratch, `out-${round}`)
  const t0 = performance.now()
  const r = await run(process.execPath, [
    CLI, 'run',
    '--baseline', `a=ssh://${user}@127.0.0.1:${servers[0]!.port}`,
    '--variant', `b=ssh://${user}@127.0.0.1:${servers[1]!.port}`,
    '--identity', identity,
    '--data-dir', dataDir,
    '--accept-new-host-keys',
    '--pack', 'block-dd', '--quick', '--repeat', '1',
    '--work-dir', '~/work',
    '--out', out
  ])
  const ms = performance.now() - t0
  must('virtbench run', r)
  if (!r.stdout.includes('Run completed: 4 of 4 jobs succeeded.')) throw new Error(`the run did not complete its 4 jobs:\n${r.stdout}\n${r.stderr}`)
  rmSync(out, { recursive: true, force: true })
  return ms
}

async function byHandRound(servers: SshdServer[], user: string, home: string, identity: string, scratch: string, round: number): Promise<number> {
  const ssh = (server: SshdServer, control: string, command: string[]): string[] => [
    '-F', '/dev/null',
    '-i', identity,
    '-p', String(server.port),
    '-o', 'BatchMode=yes',
    '-o', 'StrictHostKeyChecking=no',
    '-o', 'UserKnownHostsFile=/dev/null',
    '-o', 'LogLevel=ERROR',
    '-o', 'ControlMaster=auto',
    '-o', `ControlPath=${control}`,
    '-o', 'ControlPersist=60',
    `${user}@127.0.0.1`,
    ...command
  ]
  const controls = servers.map((_, i) => path.join(scratch, `cm-${round}-${i}`))
  const workDir = path.join(home, 'work-by-hand')
  const commands = ddCommands(workDir)
  const t0 = performance.now()
  // the run's order: each test on a, then on b
  for (const { script, file } of commands) {
    for (const [i, server] of servers.entries()) {
      must('ssh dd', await run('ssh', ssh(server, controls[i]!, [`mkdir -p ${workDir} && ${script} && rm -f ${file}`])))
    }
  }
  for (const [i, server] of servers.entries()) must('ssh rm', await run('ssh', ssh(server, controls[i]!, [`rm -rf ${workDir}`])))
  const ms = performance.now() - t0
  for (const [i, server] of servers.entries()) await run('ssh', [...ssh(server, controls[i]!, []).slice(0, -1), '-O', 'exit', `${user}@127.0.0.1`])
  return ms
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npx electron-vite build)`)
  const user = createThrowawayUser()
  const servers = await Promise.all([startSshd({ extraConfig: user.sshdConfig }), startSshd({ extraConfig: user.sshdConfig })])
  for (const server of servers) user.authorize(server)
  // one key opens both: the CLI takes one --identity for its URL targets
  const identity = servers[0]!.privateKeyPath
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-quick-'))
  const dataDir = path.join(scratch, 'data')
  try {
    // once each, not counted: host keys accepted, page cache and sshd warm
    await virtbenchRound(servers, user.name, identity, dataDir, scratch, 0)
    await byHandRound(servers, user.name, user.home, identity, scratch, 0)
    const vb: number[] = []
    const hand: number[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      // alternate which goes first, so neither always follows the other
      if (round % 2 === 1) {
        vb.push(await virtbenchRound(servers, user.name, identity, dataDir, scratch, round))
        hand.push(await byHandRound(servers, user.name, user.home, identity, scratch, round))
      } else {
        hand.push(await byHandRound(servers, user.name, user.home, identity, scratch, round))
        vb.push(await virtbenchRound(servers, user.name, identity, dataDir, scratch, round))
      }
    }
    const vbS = median(vb) / 1000
    const handS = median(hand) / 1000
    const goalS = GOAL_FACTOR * handS + GOAL_EXTRA_S
    const list = (values: number[]): string => values.map((v) => (v / 1000).toFixed(2)).join(', ')
    console.log(`block-dd quick, 1 repetition, two loopback targets (4 jobs), ${ROUNDS} rounds alternating:`)
    console.log(`virtbench run (CLI process, start to exit):        median ${vbS.toFixed(2)} s  (${list(vb)})`)
    console.log(`same dd commands over one ControlMaster per target: median ${handS.toFixed(2)} s  (${list(hand)})`)
    console.log(`ratio: ${(vbS / handS).toFixed(2)}x; VirtBench adds ${(vbS - handS).toFixed(2)} s`)
    const met = vbS <= goalS
    console.log(`goal: VirtBench <= ${GOAL_FACTOR} x by hand + ${GOAL_EXTRA_S} s = ${goalS.toFixed(2)} s: ${met ? 'met' : 'MISSED'}`)
    if (!met) process.exitCode = 1
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
    user.remove()
    rmSync(scratch, { recursive: true, force: true })
  }
}

void main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 2
})
