import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { MemorySecretStore } from '../../../src/main/secrets/secrets'
import { openLocalSession } from '../../../src/main/ssh/open-local'
import type { RunServices } from '../../../src/main/engine/start-run'
import { scriptsDir } from '../../../src/main/resources'
import type { RunEvent } from '../../../src/shared/model/run'
import { TargetSchema, type Target } from '../../../src/shared/model/target'
import { startSshd, type SshdServer } from '../../harness/sshd'

/** Two real sshd on loopback playing a physical host and a guest, with one key for both. */
export interface Lab {
  host: SshdServer
  guest: SshdServer
  inventory: Target[]
  /** Scratch directory (work dirs on the "targets", run folders, known_hosts). */
  dir: string
  /** Where the targets' tests write. */
  workRoot: string
  events: RunEvent[]
  services(extra?: Partial<RunServices>): RunServices
  stop(): Promise<void>
}

export async function startLab(extraConfig: string[] = []): Promise<Lab> {
  const [host, guest] = await Promise.all([startSshd({ extraConfig }), startSshd({ extraConfig })])
  // one key logs in to both, as an admin's key would
  await appendFile(path.join(guest.dir, 'authorized_keys'), readFileSync(`${host.privateKeyPath}.pub`))
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-lab-'))
  const now = new Date().toISOString()
  const target = (id: string, name: string, server: SshdServer, role: 'host' | 'guest'): Target =>
    TargetSchema.parse({
      id,
      name,
      kind: 'ssh',
      role,
      address: '127.0.0.1',
      port: server.port,
      user: server.username,
      auth: { method: 'key', keyPath: host.privateKeyPath },
      createdAt: now,
      updatedAt: now
    })
  const inventory = [target('t-host', 'host', host, 'host'), target('t-guest', 'guest', guest, 'guest')]
  const events: RunEvent[] = []
  return {
    host,
    guest,
    inventory,
    dir,
    workRoot: path.join(dir, 'work'),
    events,
    services: (extra = {}) => ({
      inventory,
      secrets: new MemorySecretStore(),
      decideHostKey: async () => 'accept-once',
      knownHosts: { appFile: path.join(dir, 'known_hosts') },
      openLocal: (t) => openLocalSession(t.name),
      scriptsDir: scriptsDir(),
      appVersion: 'test',
      onEvent: (e) => events.push(e),
      ...extra
    }),
    stop: async () => {
      await Promise.all([host.stop(), guest.stop()])
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
