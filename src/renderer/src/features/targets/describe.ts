import type { AuthMethod, DetectedOs, SudoMode, Target, TargetAuth } from '../../../../shared/model/target'
import type { ConnectionStageName, StoredSecrets } from '../../../../shared/targets-contract'

/** How people read the values of a target, in one place for the table, the form and the import. */

export const AUTH_LABELS: Record<AuthMethod, string> = {
  agent: 'SSH agent',
  key: 'Key file',
  password: 'Password',
  'keyboard-interactive': 'Keyboard-interactive'
}

export const SUDO_LABELS: Record<SudoMode, string> = {
  none: 'Not used',
  passwordless: 'Without a password',
  password: 'With a password'
}

export const STAGE_LABELS: Record<ConnectionStageName, string> = {
  tcp: 'TCP connection',
  'host-key': 'Host key',
  auth: 'Log in',
  sudo: 'sudo',
  os: 'Operating system'
}

/** `user@host:port`, with IPv6 addresses in brackets so the port stays readable. */
export function sshAddress(user: string, address: string, port: number): string {
  const host = address.includes(':') ? `[${address}]` : address
  return `${user}@${host}:${port}`
}

export function targetAddress(target: Target): string {
  return target.kind === 'local' ? 'This computer' : sshAddress(target.user, target.address, target.port)
}

/** "Key file ~/.ssh/id_ed25519" and the like; the stored-secret state comes separately. */
export function authSummary(auth: TargetAuth): string {
  return auth.method === 'key' ? `Key ${auth.keyPath}` : AUTH_LABELS[auth.method]
}

/** A note on a secret the login needs and does not have stored, or undefined when all is there. */
export function missingSecret(target: Target, secrets: StoredSecrets): string | undefined {
  if (target.kind !== 'ssh') return undefined
  const { auth } = target
  if ((auth.method === 'password' || auth.method === 'keyboard-interactive') && !secrets.password) {
    return 'no password stored'
  }
  if (auth.method === 'key' && auth.hasPassphrase && !secrets.passphrase) return 'no passphrase stored'
  return undefined
}

export function sudoSummary(target: Target, secrets: StoredSecrets): string {
  if (target.sudo !== 'password') return target.sudo === 'none' ? 'not used' : 'passwordless'
  return secrets.sudo ? 'with password (stored)' : 'with password (none stored)'
}

/** "Debian GNU/Linux 12 (bookworm) · kvm"; "bare metal" when nothing virtual was found. */
export function osSummary(os: DetectedOs): string {
  const name = os.name ?? (os.family === 'linux' ? 'Linux' : 'Windows')
  if (!os.virtualization) return name
  return `${name} · ${os.virtualization === 'none' ? 'bare metal' : os.virtualization}`
}

/** Kernel, architecture and the day it was found, for the line under the OS name. */
export function osDetails(os: DetectedOs): string {
  const when = new Date(os.detectedAt)
  const date = Number.isNaN(when.getTime()) ? os.detectedAt : when.toLocaleDateString()
  return [os.kernel, os.arch, `tested ${date}`].filter(Boolean).join(' · ')
}

/** The key file sshd keeps a host key type in, for the "compare it yourself" hint. */
export function hostKeyFileName(keyType: string): string {
  if (keyType === 'ssh-ed25519') return 'ssh_host_ed25519_key.pub'
  if (keyType.startsWith('ecdsa-')) return 'ssh_host_ecdsa_key.pub'
  if (keyType === 'ssh-rsa' || keyType.startsWith('rsa-')) return 'ssh_host_rsa_key.pub'
  return 'ssh_host_*_key.pub'
}
