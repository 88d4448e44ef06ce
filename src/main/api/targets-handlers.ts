import os from 'node:os'
import path from 'node:path'
import { jumpChainNames, sameTargetName, addressProblem, type Target } from '../../shared/model/target'
import type { ConnectionStage, ImportCandidate, TargetList, TargetSecrets, TargetView } from '../../shared/targets-contract'
import { testConnection } from '../ssh/connection-test'
import { secretKey, SECRET_KINDS, type SecretKind, type SecretStore } from '../secrets/secrets'
import { importOrder, importSshConfig, type SshConfigCandidate } from '../ssh/ssh-config'
import { expandHome } from '../ssh/home-path'
import { openTargetSession } from '../ssh/target-session'
import type { Session } from '../ssh/types'
import { TargetsStore, TargetStoreError } from '../store/targets-store'
import { ApiError } from './api-error'
import type { Handlers } from './dispatch'
import type { EventHub } from './event-hub'
import { HostKeyDecisions, hostKeyQuestionOf } from './host-key-decisions'
import { knownHostsFiles } from '../ssh/host-key'

export type TargetsHandlerNames =
  | 'targets:list'
  | 'targets:add'
  | 'targets:update'
  | 'targets:remove'
  | 'targets:importPreview'
  | 'targets:import'
  | 'targets:test'
  | 'targets:secretsStorage'
  | 'hostkey:decide'

export interface TargetsServices {
  dataDir: string
  secrets: SecretStore
  /** The session of "This computer". */
  openLocal: (target: Target) => Session
  /** The user's home (for ~/.ssh/config and ~/.ssh/known_hosts). Default: os.homedir(). */
  homeDir?: string
  notify: (level: 'info' | 'warning' | 'error', message: string) => void
}

/** The Targets screen's API: saved targets, their secrets, import, the connection test. */
export function createTargetsHandlers(svc: TargetsServices, hub: EventHub): Pick<Handlers, TargetsHandlerNames> & { decisions: HostKeyDecisions } {
  const homeDir = svc.homeDir ?? os.homedir()
  const store = new TargetsStore(svc.dataDir, { onProblem: (message) => svc.notify('warning', message) })
  const decisions = new HostKeyDecisions((question) => hub.emit('hostkey:question', question))
  const knownHosts = knownHostsFiles(homeDir, svc.dataDir)

  const view = async (target: Target, all: readonly Target[]): Promise<TargetView> => {
    const stored = async (kind: SecretKind): Promise<boolean> => (await svc.secrets.get(secretKey(target.id, kind))) !== undefined
    return {
      target,
      secrets: { password: await stored('password'), passphrase: await stored('passphrase'), sudo: await stored('sudo') },
      jumpChain: jumpChainNames(target, all)
    }
  }
  const list = async (): Promise<TargetList> => {
    const targets = await store.list()
    return {
      targets: await Promise.all(targets.map((t) => view(t, targets))),
      secretsBackend: secretsBackendOf(svc.secrets)
    }
  }
  const changed = async (): Promise<void> => hub.emit('targets:changed', await list())
  const saveSecrets = async (id: string, secrets: TargetSecrets | undefined): Promise<void> => {
    if (!secrets) return
    for (const kind of SECRET_KINDS) {
      const value = secrets[kind]
      if (value === undefined) continue
      if (value === null) await svc.secrets.delete(secretKey(id, kind))
      else await svc.secrets.set(secretKey(id, kind), value)
    }
  }
  /** Store refusals as API errors; a name clash points at the name field (`root` is 'target' or 'patch'). */
  const storeCall = async <T>(work: () => Promise<T>, root: 'target' | 'patch' | undefined): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      if (error instanceof TargetStoreError) {
        if (error.code !== 'invalid' && error.code !== 'conflict') throw new ApiError('failed', error.message)
        const nameClash = root !== undefined && /\bname\b/i.test(error.message) && error.code === 'conflict'
        throw new ApiError('invalid-request', error.message, nameClash ? [{ path: `${root}.name`, message: error.message }] : undefined)
      }
      throw error
    }
  }
  const readConfig = async (file: string | undefined) => {
    const targets = await store.list()
    try {
      const result = await importSshConfig({
        homeDir,
        ...(file !== undefined && { file: path.resolve(expandHome(file, homeDir)) }),
        existingNames: targets.map((t) => t.name)
      })
      return { targets, result }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      const where = file ?? path.join(homeDir, '.ssh', 'config')
      throw new ApiError('failed', code === 'ENOENT' ? `There is no SSH configuration at ${where}.` : `Cannot read ${where}: ${(error as Error).message}`)
    }
  }

  return {
    decisions,
    'targets:list': list,

    'targets:add': async ({ target, secrets }) => {
      const added = await storeCall(() => store.add(target), 'target')
      await saveSecrets(added.id, secrets)
      await changed()
      return view(added, await store.list())
    },

    'targets:update': async ({ id, patch, secrets }) => {
      const updated = await storeCall(() => store.update(id, patch), 'patch')
      await saveSecrets(id, secrets)
      await changed()
      return view(updated, await store.list())
    },

    'targets:remove': async ({ id }) => {
      await storeCall(() => store.remove(id), undefined)
      // Best effort: read-only stores (the CLI's environment) have nothing to forget.
      for (const kind of SECRET_KINDS) await svc.secrets.delete(secretKey(id, kind)).catch(() => {})
      await changed()
      return { removed: id }
    },

    'targets:importPreview': async (request) => {
      const { targets, result } = await readConfig(request?.path)
      return {
        file: request?.path ?? path.join(homeDir, '.ssh', 'config'),
        candidates: result.candidates.map((c) => toCandidate(c, targets)),
        warnings: result.warnings.map((w) => `${w.file}${w.line > 0 ? `:${w.line}` : ''}: ${w.message}`)
      }
    },

    'targets:import': async ({ path: file, names, roles = {} }) => {
      const roleOf = (name: string): Target['role'] => Object.entries(roles).find(([n]) => sameTargetName(n, name))?.[1] ?? 'host'
      const { result } = await readConfig(file)
      const byName = new Map(result.candidates.map((c) => [c.name.toLowerCase(), c]))
      const wanted = new Set<SshConfigCandidate>()
      const skipped: { name: string; reason: string }[] = []
      const want = (candidate: SshConfigCandidate): void => {
        if (wanted.has(candidate)) return
        wanted.add(candidate)
        const jump = candidate.jumpChain.at(-1)
        const jumpCandidate = jump === undefined ? undefined : byName.get(jump.toLowerCase())
        if (jumpCandidate) want(jumpCandidate)
      }
      for (const name of names) {
        const candidate = byName.get(name.toLowerCase())
        if (candidate) want(candidate)
        else skipped.push({ name, reason: 'not a Host in the SSH configuration' })
      }
      const added: Target[] = []
      for (const candidate of importOrder([...wanted])) {
        const current = await store.list()
        const problem = toCandidate(candidate, current).problem
        if (problem) {
          if (!current.some((t) => sameTargetName(t.name, candidate.name))) skipped.push({ name: candidate.name, reason: problem })
          else if (names.some((n) => sameTargetName(n, candidate.name))) skipped.push({ name: candidate.name, reason: problem })
          continue
        }
        const jumpName = candidate.jumpChain.at(-1)
        const jump = jumpName === undefined ? undefined : current.find((t) => sameTargetName(t.name, jumpName))
        if (jumpName !== undefined && !jump) {
          skipped.push({ name: candidate.name, reason: `its jump host "${jumpName}" could not be imported` })
          continue
        }
        try {
          added.push(
            await store.add({
              kind: 'ssh',
              name: candidate.name,
              role: roleOf(candidate.name),
              address: candidate.address,
              port: candidate.port,
              user: candidate.user,
              auth: candidate.auth,
              ...(jump && { jumpHostId: jump.id })
            })
          )
        } catch (error) {
          skipped.push({ name: candidate.name, reason: (error as Error).message })
        }
      }
      if (added.length) await changed()
      const all = await store.list()
      return { added: await Promise.all(added.map((t) => view(t, all))), skipped }
    },

    'targets:test': async ({ id }) => {
      const all = await store.list()
      const target = all.find((t) => t.id === id)
      if (!target) throw new ApiError('failed', 'That target no longer exists; reload the list.')
      const emit = (stage: ConnectionStage): void => hub.emit('targets:testProgress', { ...stage, targetId: id })
      const result = await testConnection(
        target,
        {
          openSession: (onConnectStage) =>
            openTargetSession(
              target,
              all,
              {
                secrets: svc.secrets,
                knownHosts,
                openLocal: svc.openLocal,
                decideHostKey: (q) => decisions.ask(hostKeyQuestionOf(q))
              },
              onConnectStage,
              { retryConnect: false }
            ),
          sudoPassword: () => svc.secrets.get(secretKey(id, 'sudo'))
        },
        emit
      )
      if (result.ok && result.os) {
        await store.update(id, { os: result.os }).catch(() => {})
        await changed()
      }
      return result
    },

    'targets:secretsStorage': async ({ saveWithFixedKey }) => {
      const choice = svc.secrets.fixedKey
      if (!choice) {
        throw new ApiError('unavailable', `Secrets are kept in ${svc.secrets.backend} here; there is no fixed-key choice to make (it exists only on Linux without a keyring).`)
      }
      await choice.choose(saveWithFixedKey)
      await changed()
      return list()
    },

    'hostkey:decide': ({ requestId, decision }) => ({ accepted: decisions.decide(requestId, decision) && decision !== 'reject' })
  }
}

/** What the Targets screen says about where secrets are kept. */
function secretsBackendOf(secrets: SecretStore): TargetList['secretsBackend'] {
  return {
    name: secrets.backend,
    ...(secrets.warning !== undefined && { warning: secrets.warning }),
    ...(secrets.fixedKey && { savesWithFixedKey: secrets.fixedKey.saving })
  }
}

function toCandidate(c: SshConfigCandidate, targets: readonly Target[]): ImportCandidate {
  const existing = targets.find((t) => sameTargetName(t.name, c.name))
  const problem = existing ? `a target named "${existing.name}" already exists` : addressProblem(c.address)
  return {
    name: c.name,
    address: c.address,
    port: c.port,
    user: c.user,
    auth: c.auth,
    jumps: c.jumpChain,
    ...(problem !== undefined && { problem })
  }
}
