/**
 * Configuration of the lab's own libvirtd (see scripts/libvirtd-sandbox.sh): root-only sockets
 * without authentication, and a qemu driver that runs its guests as root with no security
 * driver, cgroups, per-guest namespaces or log daemon, none of which a machine without systemd
 * (a CI container) offers. Pure.
 */

export const LIBVIRTD_CONF = [
  '# written by the VirtBench lab (lab/libvirt-config.ts)',
  'unix_sock_group = "root"',
  'unix_sock_ro_perms = "0700"',
  'unix_sock_rw_perms = "0700"',
  'unix_sock_admin_perms = "0700"',
  'auth_unix_ro = "none"',
  'auth_unix_rw = "none"',
  'log_outputs = "3:stderr"',
  ''
].join('\n')

export const QEMU_CONF = [
  '# written by the VirtBench lab (lab/libvirt-config.ts)',
  'user = "root"',
  'group = "root"',
  'dynamic_ownership = 0',
  'remember_owner = 0',
  'security_driver = "none"',
  'cgroup_controllers = [ ]',
  'namespaces = [ ]',
  'stdio_handler = "file"',
  ''
].join('\n')

/** The connection URI of the lab's libvirtd, whose socket is `socketPath`. */
export function libvirtUri(socketPath: string): string {
  return `qemu:///system?socket=${socketPath}`
}
