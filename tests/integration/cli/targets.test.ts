import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI } from '../../harness/paths'
import { startSshd, type SshdServer } from '../../harness/sshd'

describe('virtbench targets, against a real sshd', () => {
  let server: SshdServer
  let home: string
  let dataDir: string

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, 'targets', ...args, '--data-dir', dataDir], {
      encoding: 'utf8',
      timeout: 60_000,
      cwd: home,
      env: { ...process.env, HOME: home, VIRTBENCH_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe']
    })

  beforeAll(async () => {
    server = await startSshd()
    home = mkdtempSync(path.join(os.tmpdir(), 'vb-home-'))
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'vb-data-'))
  })

  afterAll(async () => {
    await server?.stop()
    rmSync(home, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('adds a target and lists it', () => {
    const added = run('add', '--name', 'lab', '--address', '127.0.0.1', '--port', String(server.port), '--user', server.username, '--key', server.privateKeyPath, '--label', 'cache=none')
    expect(added.stderr).toBe('')
    expect(added.status).toBe(0)
    expect(added.stdout).toMatch(/^Added "lab" \(/)

    const listed = run('list')
    expect(listed.status).toBe(0)
    expect(listed.stdout).toContain(`lab   host  ${server.username}@127.0.0.1:${server.port}  key ${server.privateKeyPath}`)
    expect(listed.stdout).toContain('not tested')

    const json = JSON.parse(run('list', '--json').stdout) as { name: string; port: number; labels: Record<string, string> }[]
    expect(json).toMatchObject([{ name: 'lab', port: server.port, labels: { cache: 'none' } }])
  })

  it('refuses an unknown host key without a terminal, naming its fingerprint', () => {
    const result = run('test', 'lab')
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(server.hostKeyFingerprint)
    expect(result.stderr).toContain('Refused')
    expect(result.stdout).toMatch(/^failed\s+host-key/m)
    expect(existsSync(path.join(dataDir, 'known_hosts'))).toBe(false)
  })

  it('tests the connection stage by stage with --accept-new-host-keys, and remembers the key', () => {
    const result = run('test', 'lab', '--accept-new-host-keys')
    expect(result.status, result.stderr).toBe(0)
    expect(result.stderr).toContain(`Accepted and remembered`)
    const lines = result.stdout.trim().split('\n')
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(['ok tcp', 'ok host-key', 'ok auth', 'skipped sudo', 'ok os'])
    expect(result.stdout).toContain(server.hostKeyFingerprint)
    expect(readFileSync(path.join(dataDir, 'known_hosts'), 'utf8')).toContain(`[127.0.0.1]:${server.port} `)

    const again = run('test', 'lab')
    expect(again.status, again.stderr).toBe(0)
    expect(again.stderr).toBe('')

    const osRelease = readFileSync('/etc/os-release', 'utf8')
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1]
    expect(run('list').stdout).toContain(`${pretty}, ${os.release()}, ${os.machine()}`)
  })

  it('keeps a hostile name a harmless string', () => {
    const name = '$(touch pwned); rm -rf ~'
    const added = run('add', '--name', name, '--address', '127.0.0.1', '--port', String(server.port), '--user', server.username, '--key', server.privateKeyPath)
    expect(added.status, added.stderr).toBe(0)
    const result = run('test', name)
    expect(result.status, result.stderr).toBe(0)
    expect(existsSync(path.join(home, 'pwned'))).toBe(false)
    expect(existsSync(home)).toBe(true)
    const removed = run('remove', name)
    expect(removed.status, removed.stderr).toBe(0)
  })

  it('explains a refused connection, naming host and port', () => {
    run('add', '--name', 'closed', '--address', '127.0.0.1', '--port', '1', '--user', 'root', '--key', server.privateKeyPath)
    const result = run('test', 'closed')
    expect(result.status).toBe(1)
    expect(result.stdout).toMatch(/^failed\s+tcp/m)
    expect(result.stderr).toContain('127.0.0.1:1')
  })

  it('imports hosts from an ssh config, jump hosts first', () => {
    const config = path.join(home, 'ssh_config')
    writeFileSync(
      config,
      [
        'Host bastion',
        '  HostName 127.0.0.1',
        `  Port ${server.port}`,
        '  User root',
        `  IdentityFile ${server.privateKeyPath}`,
        'Host inner',
        '  HostName 127.0.0.2',
        '  User ops',
        '  ProxyJump bastion',
        'Host *',
        '  Port 2222',
        ''
      ].join('\n')
    )
    const dry = run('import-ssh-config', '--file', config, '--dry-run')
    expect(dry.status, dry.stderr).toBe(0)
    expect(dry.stdout).toMatch(/^inner\s+ops@127\.0\.0\.2:2222 via bastion\s+import as host$/m)
    const dryGuest = run('import-ssh-config', '--file', config, '--dry-run', '--guest', 'INNER')
    expect(dryGuest.stdout).toMatch(/^inner\s+ops@127\.0\.0\.2:2222 via bastion\s+import as guest$/m)
    const unknown = run('import-ssh-config', '--file', config, '--guest', 'nosuch')
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('--guest nosuch: no such Host in')

    const result = run('import-ssh-config', '--file', config, '--guest', 'inner', 'inner')
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain('Imported 2 targets: bastion, inner.')
    const listed = JSON.parse(run('list', '--json').stdout) as { id: string; name: string; role: string; jumpHostId?: string; port: number }[]
    const bastion = listed.find((t) => t.name === 'bastion')!
    expect(bastion.port).toBe(server.port)
    expect(bastion.role).toBe('host')
    expect(listed.find((t) => t.name === 'inner')).toMatchObject({ jumpHostId: bastion.id, port: 2222, role: 'guest' })
  })

  it('says a missing agent is a login problem, not a network one', () => {
    run('add', '--name', 'agentless', '--address', '127.0.0.1', '--port', String(server.port), '--user', 'root', '--auth', 'agent')
    const result = spawnSync(process.execPath, [CLI, 'targets', 'test', 'agentless', '--data-dir', dataDir], {
      encoding: 'utf8',
      env: { ...process.env, HOME: home, SSH_AUTH_SOCK: '' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    expect(result.status).toBe(1)
    expect(result.stdout).toMatch(/^failed\s+auth/m)
    expect(result.stderr).toContain('SSH_AUTH_SOCK')
  })

  it('answers a usage mistake with exit 2 and one line', () => {
    const result = run('add', '--name', 'x')
    expect(result.status).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toContain('--address is required')
  })
})

describe('virtbench targets with this computer', () => {
  it('tests "This computer" without SSH: connect stages skipped, the OS detected', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vb-data-'))
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, 'targets', ...args, '--data-dir', dataDir], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      expect(run('add', '--name', 'workstation', '--local').status).toBe(0)
      const result = run('test', 'workstation')
      expect(result.status, result.stderr).toBe(0)
      expect(result.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
        'skipped tcp',
        'skipped host-key',
        'skipped auth',
        'skipped sudo',
        'ok os'
      ])
      // one detection answer everywhere: what the environment capture (and so preflight) says,
      // systemd-detect-virt --vm, not the container it may run in
      const vm = spawnSync('sh', ['-c', 'systemd-detect-virt --vm || true'], { encoding: 'utf8' }).stdout.trim()
      const osLine = result.stdout.split('\n').find((l) => l.startsWith('ok') && l.includes(' os '))
      expect(osLine, result.stdout).toMatch(new RegExp(` · ${vm === 'none' ? 'bare metal' : vm}\\b`))
      expect(run('list').stdout).toMatch(/^workstation\s+host\s+this computer\s+-\s+-\s+none\s+.*x86_64|aarch64/m)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
