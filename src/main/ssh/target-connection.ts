import { readFile } from 'node:fs/promises'
import os from 'node:os'
import type { SshTarget, Target } from '../../shared/model/target'
import type { AuthSpec, ConnectSpec } from './connect'
import { expandHome } from './home-path'
import { SECRET_KIND_LABELS, secretKey, type SecretKind, type SecretStore } from '../secrets/secrets'

/** A target's connection could not be described: a missing secret, an unreadable key, a broken jump chain. */
export class TargetConnectionError extends Error {
  override readonly name = 'TargetConnectionError'
}

export interface ConnectSpecDeps {
  secrets: SecretStore
  /** Reads a private key file; injectable for tests. */
  readKey?: (file: string) => Promise<Buffer>
  homeDir?: string
}

const MAX_JUMPS = 8

/** The ConnectSpec of an SSH target, its jump hosts chained in front, secrets looked up. */
export async function connectSpecFor(target: SshTarget, all: readonly Target[], deps: ConnectSpecDeps): Promise<ConnectSpec> {
  const byId = new Map(all.map((t) => [t.id, t]))
  const seen = new Set<string>()
  const build = async (current: SshTarget, depth: number): Promise<ConnectSpec> => {
    if (seen.has(current.id)) throw new TargetConnectionError(`The jump hosts of "${target.name}" form a loop at "${current.name}".`)
    if (depth > MAX_JUMPS) throw new TargetConnectionError(`"${target.name}" has more than ${MAX_JUMPS} jump hosts in a chain.`)
    seen.add(current.id)
    const spec: ConnectSpec = {
      host: current.address,
      port: current.port,
      username: current.user,
      auth: await authFor(current, deps),
      label: current.name
    }
    if (current.jumpHostId !== undefined) {
      const jump = byId.get(current.jumpHostId)
      if (!jump) throw new TargetConnectionError(`"${current.name}" jumps through a target that no longer exists; edit it and pick another jump host.`)
      if (jump.kind !== 'ssh') throw new TargetConnectionError(`"${current.name}" cannot jump through "${jump.name}", which is this computer.`)
      spec.jump = await build(jump, depth + 1)
    }
    return spec
  }
  return build(target, 0)
}

async function authFor(target: SshTarget, deps: ConnectSpecDeps): Promise<AuthSpec> {
  const auth = target.auth
  switch (auth.method) {
    case 'agent':
      return { method: 'agent' }
    case 'password':
      return { method: 'password', password: await required(target, 'password', deps.secrets) }
    case 'keyboard-interactive':
      return { method: 'keyboard-interactive', password: await required(target, 'password', deps.secrets) }
    case 'key': {
      const file = expandHome(auth.keyPath, deps.homeDir ?? os.homedir())
      let privateKey: Buffer
      try {
        privateKey = await (deps.readKey ?? readFile)(file)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'permission denied' : (error as Error).message
        throw new TargetConnectionError(`Cannot read the private key of "${target.name}" at ${file}: ${why}. Edit the target and pick the key file.`)
      }
      if (!auth.hasPassphrase) return { method: 'key', privateKey }
      return { method: 'key', privateKey, passphrase: await required(target, 'passphrase', deps.secrets) }
    }
  }
}

async function required(target: Target, kind: SecretKind, secrets: SecretStore): Promise<string> {
  const value = await secrets.get(secretKey(target.id, kind))
  if (value === undefined) {
    throw new TargetConnectionError(`No ${SECRET_KIND_LABELS[kind]} is stored for "${target.name}". Edit the target and enter it.`)
  }
  return value
}
