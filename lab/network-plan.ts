/**
 * The lab network's layout, as pure functions: the addresses each member gets, the nftables
 * ruleset that gives every member an EIP (1:1 NAT), the `tc` arguments of an EIP's rate cap, and
 * the commands that configure a guest's lab NIC. lab/guest-network.ts runs them.
 *
 *   guest vm1 (eth1) ─tap─┐                                     ┌──────────────────────────────┐
 *   guest vm2 (eth1) ─tap─┤ bridge vbbr  192.168.77.1/24        │ EIP gateway (namespace -gw)  │
 *   host p1 (vblab0) ─veth┤ namespace <name> (the "VPC") togw ──veth── tovpc  100.64.77.2/30     │
 *   host p2 (vblab0) ─veth┘ route 198.18.77.0/24 via gateway    │ DNAT EIP -> private,         │
 *                           caps: htb on togw (sent via EIP)    │ SNAT private -> EIP,         │
 *                                                               │ caps: htb on tovpc (received)│
 *                                                               └──────────────────────────────┘
 *
 * Member i is 192.168.77.(10+i) on the private subnet and 198.18.77.(10+i) as its EIP (RFC 2544's
 * benchmarking range). A member dialing another's private address crosses only the bridge; one
 * dialing an EIP goes through the VPC router to the gateway, is translated both ways there
 * (destination to the private address, source to the sender's EIP) and comes back: both ends see
 * EIPs only, as in a cloud. Everything stays inside the two namespaces.
 */

export const PRIVATE_PREFIX = '192.168.77'
export const PUBLIC_PREFIX = '198.18.77'
export const PRIVATE_SUBNET = `${PRIVATE_PREFIX}.0/24`
export const PUBLIC_SUBNET = `${PUBLIC_PREFIX}.0/24`
/** The VPC router on the bridge: every member's route to the EIPs. */
export const ROUTER_ADDRESS = `${PRIVATE_PREFIX}.1`
/** The /30 between the VPC router and the EIP gateway. */
export const TRANSIT = { vpc: '100.64.77.1', gateway: '100.64.77.2', prefixLength: 30 } as const
export const BRIDGE = 'vbbr'
/** The VPC router's end of the link to the gateway (its egress carries what members send through their EIPs). */
export const VPC_TO_GATEWAY = 'togw'
/** The gateway's end (its egress carries what members receive through their EIPs). */
export const GATEWAY_TO_VPC = 'tovpc'
/** A physical host's interface on the lab network, in its own namespace. */
export const HOST_INTERFACE = 'vblab0'
/** The nftables table of the gateway. */
export const NAT_TABLE = 'vblab'
/** Member addresses run from .10 to .250. */
export const MAX_MEMBERS = 241
/**
 * Jumbo frames, as cloud VPCs use (AWS: 9001): one frame carries 8948 bytes of TCP payload in
 * 9014 on the wire, so a TCP stream through a cap reaches 99.3 % of it (with 1500-byte frames,
 * 95.6 %).
 */
export const DEFAULT_MTU = 9000

export interface MemberAddresses {
  index: number
  privateAddress: string
  publicAddress: string
}

/** The addresses of member `index` (0-based). */
export function memberAddresses(index: number): MemberAddresses {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_MEMBERS) {
    throw new Error(`the lab network has room for ${MAX_MEMBERS} members (index 0 to ${MAX_MEMBERS - 1}), not index ${index}`)
  }
  return { index, privateAddress: `${PRIVATE_PREFIX}.${10 + index}`, publicAddress: `${PUBLIC_PREFIX}.${10 + index}` }
}

/** A locally administered unicast MAC for member `index` of network `networkId` (0-255). */
export function memberMac(networkId: number, index: number): string {
  const hex = (n: number): string => n.toString(16).padStart(2, '0')
  return ['52', '54', '00', 'b7', hex(networkId & 0xff), hex(index & 0xff)].join(':')
}

/** Linux interface names are at most 15 characters: `vb<pid>n<seq>t<index>` fits for any PID. */
export function tapName(pid: number, sequence: number, index: number): string {
  const name = `vb${pid}n${sequence}t${index}`
  if (name.length > 15) throw new Error(`the tap name ${name} is longer than the 15 characters Linux allows`)
  return name
}

/** The gateway's whole nftables table: each member's EIP translated to and from its private address. */
export function natRuleset(members: readonly MemberAddresses[]): string {
  const lines = [
    `table ip ${NAT_TABLE}`,
    `delete table ip ${NAT_TABLE}`,
    `table ip ${NAT_TABLE} {`,
    '  chain prerouting {',
    '    type nat hook prerouting priority dstnat; policy accept;',
    ...members.map((m) => `    ip daddr ${m.publicAddress} dnat to ${m.privateAddress}`),
    '  }',
    '  chain postrouting {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    ...members.map((m) => `    ip saddr ${m.privateAddress} snat to ${m.publicAddress}`),
    '  }',
    '}',
    ''
  ]
  return lines.join('\n')
}

/** Bucket depth of a cap: 10 ms at the rate, at least 32 KiB (a loaded sender loses no tokens). */
export function capBurstBytes(bitsPerSecond: number): number {
  return Math.max(32 * 1024, Math.ceil((bitsPerSecond / 8) * 0.01))
}

/**
 * The queue of a capped EIP, in bytes: deeper than the largest send buffer Linux gives a TCP
 * socket by default (4 MiB), so a single stream is held to the rate without losing packets. A
 * guest's NIC hands over 64 KiB segments (TSO): a shallow queue drops one whole, and TCP's
 * recovery of 45 lost packets, not the cap, would then set a short test's figure.
 */
export const CAP_QUEUE_BYTES = 8 * 1024 * 1024

/** `tc` arguments that make `dev`'s root an htb whose unclassified traffic passes unshaped. */
export function capRootArgs(dev: string): string[] {
  return ['qdisc', 'replace', 'dev', dev, 'root', 'handle', '1:', 'htb', 'default', '0']
}

/**
 * `tc` argument lists that hold what `dev` sends with `match` (`src` or `dst`) `address` to
 * `bitsPerSecond`: an htb class of its own (class 1:(100+index)), a byte fifo of CAP_QUEUE_BYTES
 * under it, and a u32 filter sending the member's packets there.
 */
export function capArgs(dev: string, index: number, match: 'src' | 'dst', address: string, bitsPerSecond: number): string[][] {
  if (!Number.isSafeInteger(bitsPerSecond) || bitsPerSecond < 8000) {
    throw new Error(`an EIP's cap is a whole number of bit/s, at least 8000, not ${bitsPerSecond}`)
  }
  const classId = `1:${(100 + index).toString(16)}`
  const burst = String(capBurstBytes(bitsPerSecond))
  return [
    ['class', 'replace', 'dev', dev, 'parent', '1:', 'classid', classId, 'htb', 'rate', `${bitsPerSecond}bit`, 'ceil', `${bitsPerSecond}bit`,
      'burst', burst, 'cburst', burst, 'quantum', '60000'],
    ['qdisc', 'replace', 'dev', dev, 'parent', classId, 'bfifo', 'limit', String(CAP_QUEUE_BYTES)],
    ['filter', 'replace', 'dev', dev, 'parent', '1:', 'protocol', 'ip', 'prio', '1', 'handle', `800::${(100 + index).toString(16)}`,
      'u32', 'match', 'ip', match, `${address}/32`, 'flowid', classId]
  ]
}

/**
 * A shell script for the guest (as root): the NIC with `mac` gets the member's private address,
 * the MTU, and the route to the EIPs through the VPC router. It finds the NIC by its MAC, so
 * the order Linux names the guest's NICs in does not matter; it prints the interface's name.
 */
export function guestNicScript(mac: string, addresses: MemberAddresses, mtu: number): string {
  if (!/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/.test(mac)) throw new Error(`not a MAC address: ${JSON.stringify(mac)}`)
  return [
    'set -e',
    'dev=',
    'for d in /sys/class/net/*; do',
    `  if [ "$(cat "$d/address")" = '${mac}' ]; then dev=\${d##*/}; fi`,
    'done',
    `[ -n "$dev" ] || { echo 'no network interface has the MAC ${mac}' >&2; exit 3; }`,
    `ip link set "$dev" mtu ${mtu} up`,
    `ip addr replace ${addresses.privateAddress}/24 dev "$dev"`,
    `ip route replace ${PUBLIC_SUBNET} via ${ROUTER_ADDRESS} dev "$dev"`,
    'echo "$dev"'
  ].join('\n')
}
