/**
 * The two machines of a network test (iperf3 and iperf 2 share this): which one runs the server,
 * which one the client, what address the client connects to, and how a flow of data is named.
 *
 * Directions are always named from the target's point of view, whichever side is the server:
 * `target->peer` is data the target sent, `peer->target` data it received.
 */
import { z } from 'zod'
import type { PlanContext, TargetFacts } from '../types'

export type Machine = 'target' | 'peer'
export type Direction = 'target->peer' | 'peer->target'

export const MACHINES = ['peer', 'target'] as const

export function otherMachine(machine: Machine): Machine {
  return machine === 'target' ? 'peer' : 'target'
}

/** The direction of data sent by `sender`. */
export function flowFrom(sender: Machine): Direction {
  return sender === 'target' ? 'target->peer' : 'peer->target'
}

/** The machine that sends in `direction`. */
export function senderOf(direction: Direction): Machine {
  return direction === 'target->peer' ? 'target' : 'peer'
}

/** A host name (RFC 1123 labels), an IPv4 address or an IPv6 address (with an optional %zone). */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(?:%[A-Za-z0-9_.-]+)?)$/

/** An address iperf connects to or binds to: a name or an address, never something that looks like an option. */
export const hostSchema = z
  .string()
  .min(1, 'an address cannot be empty')
  .max(253, 'an address can be at most 253 characters')
  .refine((v) => !v.startsWith('-'), { message: "an address cannot start with '-': iperf would read it as an option" })
  .refine((v) => v.startsWith('-') || HOST.test(v), {
    message: 'an address must be a host name (like peer.example.com), an IPv4 address or an IPv6 address'
  })

/** Where the server and the client of one test run, and where the client connects. */
export interface Placement {
  server: Machine
  client: Machine
  serverFacts: TargetFacts
  clientFacts: TargetFacts
  /** The server's address as the client reaches it. */
  connectTo: string
}

/**
 * The server runs on `serverOn`, the client on the other machine. A client on the target connects to
 * the peer's address; a client on the peer needs the target's address, which only the parameters know.
 */
export function placement(tool: string, serverOn: Machine, targetAddress: string | undefined, ctx: PlanContext): Placement {
  const peer = ctx.peer
  if (peer === undefined) throw new Error(`${tool} needs a peer machine to run its server on or to connect to: choose a peer for this test`)
  const client = otherMachine(serverOn)
  const connectTo = client === 'target' ? peer.address : targetAddress
  if (connectTo === undefined || connectTo === '') {
    throw new Error(
      client === 'target'
        ? `${tool}: the peer has no address to connect to; set the peer's address`
        : `${tool}: with the server on the target, the client on the peer needs the target's address; set targetAddress`
    )
  }
  if (connectTo.startsWith('-')) throw new Error(`${tool}: the address "${connectTo}" starts with '-', which ${tool} would read as an option`)
  return {
    server: serverOn,
    client,
    serverFacts: serverOn === 'target' ? ctx.target : peer,
    clientFacts: client === 'target' ? ctx.target : peer,
    connectTo
  }
}
