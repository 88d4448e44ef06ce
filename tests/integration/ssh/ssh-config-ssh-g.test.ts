import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  candidatesFromConfig,
  listAliases,
  loadSshConfig,
  resolveHost,
  type LoadedSshConfig,
  type LocalIdentity
} from '../../../src/main/ssh/ssh-config'

/**
 * Our reading of an SSH client configuration, compared with OpenSSH's own: `ssh -G -F <file>
 * <alias>` prints what ssh resolved (no connection is made). IdentityFile tokens are checked with
 * `ssh -v` and a ProxyCommand that exits at once, since `ssh -G` prints them unexpanded.
 */

const run = promisify(execFile)
const account = os.userInfo()
const local: LocalIdentity = { homeDir: account.homedir, localUser: account.username, env: { KEYS: '/srv/keys' } }

let dir: string
let configFile: string
let loaded: LoadedSshConfig

async function sshG(alias: string): Promise<Map<string, string[]>> {
  const { stdout } = await run('ssh', ['-G', '-F', configFile, alias], { timeout: 10_000 })
  const fields = new Map<string, string[]>()
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ')
    if (space === -1) continue
    const key = line.slice(0, space)
    fields.set(key, [...(fields.get(key) ?? []), line.slice(space + 1)])
  }
  return fields
}

/** The identity files ssh loads for `alias`, fully expanded, as `ssh -v` reports them. */
async function sshIdentityFiles(alias: string): Promise<string[]> {
  const result = await run(
    'ssh',
    ['-v', '-F', configFile, '-o', 'ProxyCommand=/bin/true', '-o', 'BatchMode=yes', alias, 'true'],
    { timeout: 10_000, env: { ...process.env, KEYS: '/srv/keys' } }
  ).catch((error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }))
  return [...result.stderr.matchAll(/^debug1: identity file (.*) type -?\d+$/gm)]
    .map((m) => m[1] as string)
    .filter((file) => !file.endsWith('-cert'))
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-ssh-g-'))
  configFile = path.join(dir, 'config')
  await fs.mkdir(path.join(dir, 'conf.d'))
  await fs.writeFile(
    configFile,
    [
      '# A configuration in the styles people write',
      'ServerAliveInterval 30',
      `Include ${path.join(dir, 'conf.d', '*.conf')} ${path.join(dir, 'missing.conf')}`,
      '',
      'Host web1 web2 web3',
      '  HostName %h.prod.example.com',
      '  User deploy',
      '  IdentityFile ~/.ssh/id_web_%r@%h',
      `  Include ${path.join(dir, 'web-extra.conf')}`,
      '  Port 7022',
      '',
      'Host web2',
      '  User ignored-because-deploy-came-first',
      '',
      'Host db-* !db-legacy',
      '  User dba',
      '  IdentityFile ${KEYS}/db_%n_%p',
      '',
      'Host db-main',
      '  HostName 10.20.0.5',
      '',
      'Host db-legacy',
      '  HostName Legacy.Example.COM',
      '  IdentityFile %d/legacy_%u',
      '',
      'Host=bastion',
      '  HostName = bastion.example.com',
      '  Port=2222',
      '  USER ops',
      '',
      'Host inner',
      '  hostname 192.168.10.4',
      '',
      'Host deep',
      '  HostName 10.1.2.3',
      '  ProxyJump ops@bastion:2222,inner',
      '',
      'Host direct "quoted alias"',
      '  HostName direct.example.com',
      '  ProxyJump none',
      '',
      'Host v6',
      '  HostName 2001:db8::10',
      '  ProxyJump [2001:db8::1]:2200',
      '',
      'Match host nothing-matches-this',
      '  User from-match',
      `  Include ${path.join(dir, 'conf.d', '*.conf')}`,
      '',
      'Host *.corp FOO?',
      '  User corp-user',
      '',
      'Host * !bastion !direct',
      '  ProxyJump bastion',
      '',
      'Host *',
      '  Port 2022',
      '  User fallback',
      ''
    ].join('\n')
  )
  // Included inside "Host web1 web2 web3": it applies to those three only, then the block goes on.
  await fs.writeFile(
    path.join(dir, 'web-extra.conf'),
    ['IdentityFile /keys/web-extra', 'Host web2', '  Port 2202', 'Host web1', '  Port 8022', ''].join('\n')
  )
  await fs.writeFile(
    path.join(dir, 'conf.d', '10-lab.conf'),
    ['Host lab1 lab2', '  HostName %h.lab.internal', 'Host lab2', '  IdentityFile "/keys/with space/%n key"', '  IdentityFile /keys/second', ''].join('\n')
  )
  await fs.writeFile(path.join(dir, 'conf.d', '20-more.conf'), ['Host db-extra', '  Port 5022', ''].join('\n'))
  await fs.writeFile(path.join(dir, 'conf.d', '.hidden.conf'), ['Host hidden', '  HostName hidden.example.com', ''].join('\n'))
  loaded = await loadSshConfig(configFile, { homeDir: local.homeDir, sshDir: path.join(local.homeDir, '.ssh') })
})

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

const ALIASES = ['lab1', 'lab2', 'db-extra', 'web1', 'web2', 'web3', 'db-main', 'db-legacy', 'bastion', 'inner', 'deep', 'direct', 'v6']
const OTHER_HOSTS = ['x.corp', 'FOOX', 'foox', 'db-zzz', 'unlisted', 'hidden']

describe('ssh_config resolution compared with OpenSSH (ssh -G)', () => {
  it('lists the concrete aliases, in file order, from the file and its includes', () => {
    // "quoted alias" is a name ssh refuses on its command line, so it is not compared with ssh below.
    expect(listAliases(loaded.root).map((a) => a.alias)).toEqual([...ALIASES.slice(0, -1), 'quoted alias', 'v6'])
  })

  it.each([...ALIASES, ...OTHER_HOSTS])('resolves %s as ssh does', async (alias) => {
    const ours = resolveHost(loaded.root, alias, local, { file: configFile, line: 0 })
    const theirs = await sshG(alias)
    expect(ours.hostName).toBe(theirs.get('hostname')?.[0])
    expect(ours.user).toBe(theirs.get('user')?.[0])
    expect(String(ours.port)).toBe(theirs.get('port')?.[0])
    expect(ours.proxyJump).toBe(theirs.get('proxyjump')?.[0])
    // With no IdentityFile set, ssh -G lists its default key files; compare only what was set.
    if (ours.identityFile) expect(ours.identityFile.raw).toBe(theirs.get('identityfile')?.[0])
    else expect(theirs.get('identityfile')?.[0]).toBe('~/.ssh/id_rsa')
  })

  it.each(['web1', 'web2', 'web3', 'db-main', 'db-extra', 'db-legacy', 'lab2'])('expands the IdentityFile tokens of %s as ssh does', async (alias) => {
    const ours = resolveHost(loaded.root, alias, local, { file: configFile, line: 0 })
    const [first] = await sshIdentityFiles(alias)
    expect(ours.identityFile?.path).toBeDefined()
    expect(ours.identityFile?.path).toBe(first)
  })

  it('checks real values, not only agreement', async () => {
    const web2 = await sshG('web2')
    expect([web2.get('hostname'), web2.get('user'), web2.get('port'), web2.get('proxyjump')]).toEqual([
      ['web2.prod.example.com'],
      ['deploy'],
      ['2202'],
      ['bastion']
    ])
    const ports = ['web1', 'web2', 'web3'].map((alias) => resolveHost(loaded.root, alias, local, { file: configFile, line: 0 }).port)
    expect(ports).toEqual([8022, 2202, 7022])
    expect(resolveHost(loaded.root, 'db-main', local, { file: configFile, line: 0 }).identityFile?.path).toBe('/srv/keys/db_db-main_2022')
    expect((await sshG('db-legacy')).get('hostname')).toEqual(['legacy.example.com'])
  })

  it('turns the aliases into candidates linked through their jump hosts', () => {
    const { candidates } = candidatesFromConfig(loaded.root, local, [])
    const byName = new Map(candidates.map((c) => [c.name, c]))
    expect(byName.get('deep')).toMatchObject({ address: '10.1.2.3', port: 2022, user: 'fallback', jumpChain: ['bastion', 'inner'] })
    expect(byName.get('inner')?.jumpChain).toEqual(['bastion'])
    expect(byName.get('bastion')).toMatchObject({ address: 'bastion.example.com', port: 2222, user: 'ops', jumpChain: [] })
    expect(byName.get('direct')?.jumpChain).toEqual([])
    expect(byName.get('v6')).toMatchObject({ address: '2001:db8::10', jumpChain: ['2001:db8::1'] })
    expect(byName.get('2001:db8::1')).toMatchObject({ address: '2001:db8::1', port: 2200, jumpHostFor: 'v6', jumpChain: ['bastion'] })
    expect(byName.get('lab2')?.auth).toEqual({ method: 'key', keyPath: '/keys/with space/lab2 key', hasPassphrase: false })
    expect(byName.get('quoted alias')).toMatchObject({ address: 'direct.example.com', jumpChain: [] })
    expect(byName.has('hidden')).toBe(false)
  })
})
