import path from 'node:path'
import { parseArgs } from 'node:util'
import { createTargetsHandlers } from '../../main/api/targets-handlers'
import { EventHub } from '../../main/api/event-hub'
import { defaultDataDir } from '../../main/data-dir'
import { describeOs } from '../../main/ssh/connection-test'
import { openLocalSession } from '../../main/ssh/open-local'
import { EnvSecretStore, PromptSecretStore, SecretStoreChain } from '../../main/secrets/secrets'
import { TargetsStore } from '../../main/store/targets-store'
import { sameTargetName, type NewTargetInput, type Target } from '../../shared/model/target'
import { targetsInvokeContract, type HostKeyQuestion, type TargetView } from '../../shared/targets-contract'
import type { CliCommand, CliIo } from '../io'
import { decideOnTerminal } from '../host-key-prompt'
import { UsageError } from '../usage-error'

const USAGE = `Usage: virtbench targets <list|add|remove|test|import-ssh-config> [options]

Manage the machines VirtBench measures (the same targets as the app's Targets screen).

  virtbench targets list [--json]
  virtbench targets add --name NAME --address HOST [--port 22] --user USER
                        [--auth agent|key|password|keyboard-interactive] [--key FILE] [--key-has-passphrase]
                        [--role host|guest] [--runs-on HOSTNAME] [--jump NAME] [--sudo none|passwordless|password]
                        [--private-address ADDR] [--public-address ADDR] [--label KEY=VALUE]...
  virtbench targets add --name NAME --local [--role host|guest]
  virtbench targets remove NAME
  virtbench targets test NAME [--accept-new-host-keys]
  virtbench targets import-ssh-config [--file ~/.ssh/config] [--dry-run] [--guest ALIAS]... [ALIAS...]
                        (imported Hosts get role host; name each guest with --guest;
                        a guest's --runs-on can be set later in the app)

Secrets are never taken on the command line. The CLI reads them from the environment
(VIRTBENCH_SECRET_<NAME>_PASSWORD, _PASSPHRASE, _SUDO_PASSWORD, with <NAME> the target name in
upper case, other characters as "_"), or asks on the terminal.

An unknown host key is shown with its SHA256 fingerprint and must be accepted on the terminal;
without one, 'test' refuses unless --accept-new-host-keys is given (the key is then remembered).
A changed host key is always refused.

Common options:
  --data-dir DIR   where targets are kept (default: $VIRTBENCH_DATA_DIR, else the app's folder)
  -h, --help       this help`

export const targetsCommand: CliCommand = {
  name: 'targets',
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args
    switch (sub) {
      case 'list':
        return list(rest, io)
      case 'add':
        return add(rest, io)
      case 'remove':
        return remove(rest, io)
      case 'test':
        return test(rest, io)
      case 'import-ssh-config':
        return importSshConfig(rest, io)
      case undefined:
        throw new UsageError('say what to do: list, add, remove, test or import-ssh-config')
      default:
        throw new UsageError(`unknown targets command '${sub}'`)
    }
  }
}

const DATA_DIR_OPTION = { 'data-dir': { type: 'string' } } as const

function dataDirOf(values: { 'data-dir'?: string | undefined }, io: CliIo): string {
  return values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir(io.env)
}

interface TargetsContext {
  hub: EventHub
  handlers: ReturnType<typeof createTargetsHandlers>
}

function context(dataDir: string, io: CliIo): TargetsContext {
  const hub = new EventHub()
  const listTargets = () => new TargetsStore(dataDir).list()
  const env = new EnvSecretStore(listTargets, io.env)
  const secrets = io.terminal
    ? new SecretStoreChain([env, new PromptSecretStore(listTargets, io.terminal.input, io.terminal.output)])
    : env
  const handlers = createTargetsHandlers(
    {
      dataDir,
      secrets,
      openLocal: (target) => openLocalSession(target.name),
      notify: (level, message) => io.stderr(`virtbench: ${level}: ${message}\n`),
      ...(io.env.HOME ? { homeDir: io.env.HOME } : {})
    },
    hub
  )
  return { hub, handlers }
}

async function list(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, ...DATA_DIR_OPTION }, strict: true })
  const { handlers } = context(dataDirOf(values, io), io)
  const { targets } = await handlers['targets:list'](undefined)
  if (values.json) {
    io.stdout(`${JSON.stringify(targets.map((t) => t.target), null, 2)}\n`)
    return 0
  }
  if (targets.length === 0) {
    io.stdout("No targets yet. Add one with 'virtbench targets add' or 'virtbench targets import-ssh-config'.\n")
    return 0
  }
  const rows = targets.map((view) => row(view, targets))
  const header = ['NAME', 'ROLE', 'ADDRESS', 'AUTH', 'VIA', 'SUDO', 'OS']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()
  io.stdout(`${[line(header), ...rows.map(line)].join('\n')}\n`)
  return 0
}

function row(view: TargetView, all: TargetView[]): string[] {
  const t = view.target
  const host = t.hostId ? all.find((o) => o.target.id === t.hostId)?.target.name : undefined
  const role = t.role === 'guest' ? (host ? `guest on ${host}` : 'guest') : 'host'
  const address = t.kind === 'local' ? 'this computer' : `${t.user}@${t.address}${t.port === 22 ? '' : `:${t.port}`}`
  const auth = t.kind === 'local' ? '-' : t.auth.method === 'key' ? `key ${t.auth.keyPath}` : t.auth.method
  return [t.name, role, address, auth, view.jumpChain.join(' > ') || '-', t.sudo, t.os ? describeOs(t.os) : 'not tested']
}

async function add(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      local: { type: 'boolean' },
      address: { type: 'string' },
      port: { type: 'string' },
      user: { type: 'string' },
      auth: { type: 'string' },
      key: { type: 'string' },
      'key-has-passphrase': { type: 'boolean' },
      role: { type: 'string', default: 'host' },
      'runs-on': { type: 'string' },
      jump: { type: 'string' },
      sudo: { type: 'string', default: 'none' },
      'private-address': { type: 'string' },
      'public-address': { type: 'string' },
      label: { type: 'string', multiple: true },
      ...DATA_DIR_OPTION
    },
    strict: true
  })
  if (!values.name) throw new UsageError('--name is required')
  const { handlers } = context(dataDirOf(values, io), io)
  const { targets } = await handlers['targets:list'](undefined)
  const byName = (name: string, what: string): Target => {
    const found = targets.find((t) => sameTargetName(t.target.name, name))?.target
    if (!found) throw new UsageError(`${what} "${name}" is not a saved target`)
    return found
  }
  const labels: Record<string, string> = {}
  for (const pair of values.label ?? []) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new UsageError(`--label takes KEY=VALUE, not "${pair}"`)
    labels[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  const common = {
    name: values.name,
    role: values.role as 'host' | 'guest',
    sudo: values.sudo as 'none',
    labels,
    addresses: {
      ...(values['private-address'] !== undefined && { private: values['private-address'] }),
      ...(values['public-address'] !== undefined && { public: values['public-address'] })
    },
    ...(values['runs-on'] !== undefined && { hostId: byName(values['runs-on'], 'the host').id })
  }
  let input: NewTargetInput
  if (values.local) {
    input = { ...common, kind: 'local' }
  } else {
    if (!values.address) throw new UsageError('--address is required (or --local for this computer)')
    if (!values.user) throw new UsageError('--user is required')
    const method = values.auth ?? (values.key ? 'key' : 'agent')
    if (method === 'key' && !values.key) throw new UsageError('--auth key needs --key FILE')
    const port = values.port === undefined ? 22 : Number(values.port)
    input = {
      ...common,
      kind: 'ssh',
      address: values.address,
      port,
      user: values.user,
      auth:
        method === 'key'
          ? { method: 'key', keyPath: path.resolve(values.key!), hasPassphrase: values['key-has-passphrase'] ?? false }
          : ({ method } as { method: 'agent' }),
      ...(values.jump !== undefined && { jumpHostId: byName(values.jump, 'the jump host').id })
    }
  }
  const parsed = targetsInvokeContract['targets:add'].request.safeParse({ target: input })
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((i) => `${i.path.slice(1).join('.') || 'target'}: ${i.message}`).join('; '))
  }
  const view = await handlers['targets:add'](parsed.data)
  io.stdout(`Added "${view.target.name}" (${view.target.id}).\n`)
  return 0
}

async function remove(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { ...DATA_DIR_OPTION }, strict: true, allowPositionals: true })
  if (positionals.length !== 1) throw new UsageError('name exactly one target to remove')
  const { handlers } = context(dataDirOf(values, io), io)
  const { targets } = await handlers['targets:list'](undefined)
  const target = targets.find((t) => sameTargetName(t.target.name, positionals[0]!))?.target
  if (!target) throw new UsageError(`"${positionals[0]}" is not a saved target`)
  await handlers['targets:remove']({ id: target.id })
  io.stdout(`Removed "${target.name}".\n`)
  return 0
}

async function test(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { 'accept-new-host-keys': { type: 'boolean' }, ...DATA_DIR_OPTION },
    strict: true,
    allowPositionals: true
  })
  if (positionals.length !== 1) throw new UsageError('name exactly one target to test')
  const { hub, handlers } = context(dataDirOf(values, io), io)
  const { targets } = await handlers['targets:list'](undefined)
  const target = targets.find((t) => sameTargetName(t.target.name, positionals[0]!))?.target
  if (!target) throw new UsageError(`"${positionals[0]}" is not a saved target`)

  const unsubscribe = hub.subscribe((event, payload) => {
    if (event === 'targets:testProgress') {
      const stage = payload as { stage: string; status: string; detail?: string; elapsedMs?: number }
      if (stage.status === 'running') return
      const ms = stage.elapsedMs === undefined ? '' : ` (${Math.round(stage.elapsedMs)} ms)`
      io.stdout(`${stage.status.padEnd(7)} ${stage.stage.padEnd(8)} ${stage.detail ?? ''}${ms}\n`)
    } else if (event === 'hostkey:question') {
      const question = payload as HostKeyQuestion
      void decideOnTerminal(question, values['accept-new-host-keys'] === true, io).then((decision) =>
        handlers['hostkey:decide']({ requestId: question.requestId, decision })
      )
    }
  })
  try {
    const result = await handlers['targets:test']({ id: target.id })
    if (!result.ok) io.stderr(`virtbench: ${target.name}: ${result.error ?? 'the connection test failed'}\n`)
    return result.ok ? 0 : 1
  } finally {
    unsubscribe()
  }
}

async function importSshConfig(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { file: { type: 'string' }, 'dry-run': { type: 'boolean' }, guest: { type: 'string', multiple: true }, ...DATA_DIR_OPTION },
    strict: true,
    allowPositionals: true
  })
  const { handlers } = context(dataDirOf(values, io), io)
  const preview = await handlers['targets:importPreview'](values.file === undefined ? undefined : { path: values.file })
  for (const warning of preview.warnings) io.stderr(`virtbench: warning: ${warning}\n`)
  const guests = values.guest ?? []
  const unknown = guests.filter((g) => !preview.candidates.some((c) => sameTargetName(c.name, g)))
  if (unknown.length > 0) throw new UsageError(`--guest ${unknown.join(', ')}: no such Host in ${preview.file}`)
  const isGuest = (name: string): boolean => guests.some((g) => sameTargetName(g, name))
  const importable = preview.candidates.filter((c) => !c.problem)
  const names = positionals.length > 0 ? positionals : importable.map((c) => c.name)
  for (const c of preview.candidates) {
    const mark = c.problem ? `skip (${c.problem})` : names.some((n) => sameTargetName(n, c.name)) ? `import as ${isGuest(c.name) ? 'guest' : 'host'}` : '-'
    io.stdout(`${c.name.padEnd(20)} ${c.user}@${c.address}:${c.port}${c.jumps.length ? ` via ${c.jumps.join(' > ')}` : ''}  ${mark}\n`)
  }
  if (values['dry-run'] || names.length === 0) {
    if (names.length === 0) io.stdout(`Nothing to import from ${preview.file}.\n`)
    return 0
  }
  const roles = Object.fromEntries(guests.map((g) => [g, 'guest' as const]))
  const result = await handlers['targets:import']({ ...(values.file !== undefined && { path: values.file }), names, ...(guests.length > 0 && { roles }) })
  for (const s of result.skipped) io.stderr(`virtbench: skipped ${s.name}: ${s.reason}\n`)
  io.stdout(`Imported ${result.added.length} target${result.added.length === 1 ? '' : 's'}${result.added.length ? `: ${result.added.map((v) => v.target.name).join(', ')}` : ''}.\n`)
  return 0
}
