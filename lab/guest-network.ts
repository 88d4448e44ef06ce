/**
 * The lab network: real links between lab guests and physical hosts, inside two network
 * namespaces the lab creates (the layout and the addresses: lab/network-plan.ts).
 *
 *   const net = await createLabNetwork({ namespace: 'vbtruth-123-1' })
 *   const nic = net.addGuest('vm1')            // startGuest({ ..., nic }) attaches it
 *   await net.addHost('p1', hostNamespace)      // a veth from the host's namespace to the bridge
 *   await net.capEip('vm1', 30e6)               // 30 Mbit/s each way through its EIP
 *   await net.stop()                            // both namespaces, their links, taps and rules
 *
 * A guest's lab NIC is a tap device qemu creates in this (the root) namespace; once qemu runs,
 * the tap moves into the lab's namespace (a tap keeps working when it changes namespace) and
 * joins the bridge there. Deleting the namespaces removes every tap, veth, bridge, NAT rule and
 * cap; a tap whose qemu has exited is gone already (qemu made it non-persistent).
 */
import {
  BRIDGE,
  DEFAULT_MTU,
  GATEWAY_TO_VPC,
  HOST_INTERFACE,
  PRIVATE_SUBNET,
  PUBLIC_SUBNET,
  ROUTER_ADDRESS,
  TRANSIT,
  VPC_TO_GATEWAY,
  capArgs,
  capRootArgs,
  guestNicScript,
  memberAddresses,
  memberMac,
  natRuleset,
  tapName,
  type MemberAddresses
} from './network-plan'
import { run } from './driver'
import type { GuestNic } from './guest-spec'

export interface LabNetworkOptions {
  /** The VPC namespace's name (the gateway's is `<namespace>-gw`); the caller makes it unique. */
  namespace: string
  mtu?: number
}

export interface LabMember extends MemberAddresses {
  name: string
  kind: 'guest' | 'host'
  /** Bit/s each way through the member's EIP, when capped. */
  capBitsPerSecond?: number
}

export interface LabNetwork {
  namespace: string
  gatewayNamespace: string
  mtu: number
  members: LabMember[]
  member(name: string): LabMember
  /** A guest's lab NIC: pass it to startGuest, which attaches it once qemu runs and configures the guest. */
  addGuest(name: string): GuestNic & { member: LabMember }
  /** Joins the physical host whose namespace is `hostNamespace` (for `ip -n`) to the bridge. */
  addHost(name: string, hostNamespace: string): Promise<LabMember>
  /** Holds what the member sends and receives through its EIP to `bitsPerSecond` each way (tc htb). */
  capEip(name: string, bitsPerSecond: number): Promise<void>
  /** Deletes both namespaces (and with them every link, rule and cap). Idempotent. */
  stop(): Promise<void>
}

let sequence = 0

async function must(cmd: string, args: string[], input?: string): Promise<string> {
  const done = await run(cmd, args, { timeoutMs: 30_000, ...(input !== undefined ? { input } : {}) })
  if (done.code !== 0) {
    const what = [cmd, ...args].join(' ')
    throw new Error(`lab network: \`${what}\` failed (exit ${done.code}): ${done.stderr.trim() || done.stdout.trim() || '(no output)'}`)
  }
  return done.stdout
}

function sysctl(namespace: string, setting: string): Promise<string> {
  return must('ip', ['netns', 'exec', namespace, 'sysctl', '-q', '-w', setting])
}

async function namespaceExists(name: string): Promise<boolean> {
  return (await run('ip', ['netns', 'list'])).stdout.split('\n').some((l) => l.split(' ')[0] === name)
}

async function deleteNamespace(name: string): Promise<void> {
  if (await namespaceExists(name)) await must('ip', ['netns', 'delete', name])
}

export async function createLabNetwork(options: LabNetworkOptions): Promise<LabNetwork> {
  if (process.getuid?.() !== 0) throw new Error('the lab network needs root (network namespaces, tap devices, nftables, tc): run as root')
  const namespace = options.namespace
  const gatewayNamespace = `${namespace}-gw`
  const mtu = options.mtu ?? DEFAULT_MTU
  const networkSequence = ++sequence
  const networkId = (process.pid + networkSequence) & 0xff
  const vpc = (...args: string[]): Promise<string> => must('ip', ['-n', namespace, ...args])
  const gw = (...args: string[]): Promise<string> => must('ip', ['-n', gatewayNamespace, ...args])
  const members: LabMember[] = []
  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await deleteNamespace(gatewayNamespace)
      await deleteNamespace(namespace)
    })())

  try {
    await must('nft', ['--version']).catch(() => {
      throw new Error('the lab network needs nft (the EIPs are NAT rules): apt-get install --no-install-recommends nftables')
    })
    await must('ip', ['netns', 'add', namespace])
    await must('ip', ['netns', 'add', gatewayNamespace])
    for (const ns of [namespace, gatewayNamespace]) {
      await must('ip', ['-n', ns, 'link', 'set', 'lo', 'up'])
      await sysctl(ns, 'net.ipv4.ip_forward=1')
      // the gateway sends translated packets back out of the link they came in on: no redirects
      await sysctl(ns, 'net.ipv4.conf.all.send_redirects=0')
    }
    await vpc('link', 'add', BRIDGE, 'mtu', String(mtu), 'type', 'bridge')
    await vpc('addr', 'add', `${ROUTER_ADDRESS}/24`, 'dev', BRIDGE)
    await vpc('link', 'set', BRIDGE, 'up')
    await vpc('link', 'add', VPC_TO_GATEWAY, 'mtu', String(mtu), 'type', 'veth', 'peer', 'name', GATEWAY_TO_VPC, 'netns', gatewayNamespace)
    await vpc('addr', 'add', `${TRANSIT.vpc}/${TRANSIT.prefixLength}`, 'dev', VPC_TO_GATEWAY)
    await vpc('link', 'set', VPC_TO_GATEWAY, 'up')
    await gw('addr', 'add', `${TRANSIT.gateway}/${TRANSIT.prefixLength}`, 'dev', GATEWAY_TO_VPC)
    await gw('link', 'set', GATEWAY_TO_VPC, 'mtu', String(mtu), 'up')
    await vpc('route', 'add', PUBLIC_SUBNET, 'via', TRANSIT.gateway)
    await gw('route', 'add', PRIVATE_SUBNET, 'via', TRANSIT.vpc)
    await must('tc', ['-n', namespace, ...capRootArgs(VPC_TO_GATEWAY)])
    await must('tc', ['-n', gatewayNamespace, ...capRootArgs(GATEWAY_TO_VPC)])
  } catch (err) {
    await stop().catch(() => undefined)
    throw err
  }

  const member = (name: string): LabMember => {
    const found = members.find((m) => m.name === name)
    if (!found) throw new Error(`the lab network has no member called ${name}; it has ${members.map((m) => m.name).join(', ') || 'none'}`)
    return found
  }
  const join = (name: string, kind: LabMember['kind']): LabMember => {
    if (members.some((m) => m.name === name)) throw new Error(`the lab network has a member called ${name} already`)
    const added: LabMember = { name, kind, ...memberAddresses(members.length) }
    members.push(added)
    return added
  }
  const writeNat = (): Promise<string> => must('ip', ['netns', 'exec', gatewayNamespace, 'nft', '-f', '-'], natRuleset(members))

  return {
    namespace,
    gatewayNamespace,
    mtu,
    members,
    member,
    addGuest: (name) => {
      const added = join(name, 'guest')
      const mac = memberMac(networkId, added.index)
      const tap = tapName(process.pid, networkSequence, added.index)
      return {
        member: added,
        tap,
        mac,
        attach: async () => {
          await must('ip', ['link', 'set', tap, 'netns', namespace])
          await vpc('link', 'set', tap, 'mtu', String(mtu), 'master', BRIDGE, 'up')
          await writeNat()
        },
        guestSetup: guestNicScript(mac, added, mtu)
      }
    },
    addHost: async (name, hostNamespace) => {
      const added = join(name, 'host')
      const port = `h${added.index}`
      await vpc('link', 'add', port, 'mtu', String(mtu), 'type', 'veth', 'peer', 'name', HOST_INTERFACE, 'netns', hostNamespace)
      await vpc('link', 'set', port, 'master', BRIDGE, 'up')
      const host = (...args: string[]): Promise<string> => must('ip', ['-n', hostNamespace, ...args])
      await host('addr', 'add', `${added.privateAddress}/24`, 'dev', HOST_INTERFACE)
      await host('link', 'set', HOST_INTERFACE, 'mtu', String(mtu), 'up')
      await host('route', 'add', PUBLIC_SUBNET, 'via', ROUTER_ADDRESS, 'dev', HOST_INTERFACE)
      await writeNat()
      return added
    },
    capEip: async (name, bitsPerSecond) => {
      const capped = member(name)
      // sent through the EIP: leaves the VPC router for the gateway from the private address;
      // received: leaves the gateway for the VPC router to the private address
      for (const args of capArgs(VPC_TO_GATEWAY, capped.index, 'src', capped.privateAddress, bitsPerSecond)) await must('tc', ['-n', namespace, ...args])
      for (const args of capArgs(GATEWAY_TO_VPC, capped.index, 'dst', capped.privateAddress, bitsPerSecond)) await must('tc', ['-n', gatewayNamespace, ...args])
      capped.capBitsPerSecond = bitsPerSecond
    },
    stop
  }
}
