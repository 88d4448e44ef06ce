import { z } from 'zod'
import { hostSchema, MACHINES } from './network-roles'

/** iperf3 refuses longer tests (one day). */
const MAX_SECONDS = 86_400
/** iperf3's limits on one read or write: 1 MiB for TCP, 65507 bytes (the largest IPv4 datagram payload) for UDP. */
const MAX_TCP_LENGTH = 1_048_576
const MAX_UDP_LENGTH = 65_507

export const iperf3ParamsSchema = z
  .object({
    protocol: z.enum(['tcp', 'udp']).default('tcp').describe('TCP (bandwidth, retransmits) or UDP (-u: bandwidth, jitter, loss)'),
    direction: z
      .enum(['target->peer', 'peer->target', 'both'])
      .default('target->peer')
      .describe(
        "Which way the data flows, seen from the target: target->peer (the target sends), peer->target (the target receives) or both at once (--bidir, iperf3 3.7 or later on both machines). VirtBench adds -R when the server is the sender"
      ),
    seconds: z
      .int('seconds must be a whole number of seconds')
      .min(1, 'seconds must be at least 1 (iperf3 reads -t 0 as "run forever")')
      .max(MAX_SECONDS, `seconds can be at most ${MAX_SECONDS} (iperf3's limit of one day)`)
      .default(10)
      .describe('Test length (-t); study 001 uses 30'),
    omitSeconds: z
      .int('omitSeconds must be a whole number of seconds')
      .min(0, 'omitSeconds cannot be negative')
      .max(600, 'omitSeconds can be at most 600')
      .default(0)
      .describe('Seconds left out of the results at the start, while TCP ramps up (-O); 0 leaves the flag out'),
    parallel: z
      .int('parallel must be a whole number of streams')
      .min(1, 'parallel must be at least 1 stream')
      .max(128, 'parallel can be at most 128 streams (iperf3 refuses more)')
      .default(1)
      .describe('Parallel streams (-P); totals add them up and each stream is also reported with labels.stream'),
    port: z
      .int('port must be a whole number')
      .min(1, 'port must be between 1 and 65535')
      .max(65_535, 'port must be between 1 and 65535')
      .optional()
      .describe("Server port (-p on both sides); iperf3's 5201 when not given"),
    bitrate: z
      .int('bitrate must be a whole number of bits per second')
      .min(0, 'bitrate cannot be negative')
      .max(1e12, 'bitrate can be at most 1000000000000 bit/s (1 Tbit/s)')
      .optional()
      .describe('Target rate in bit/s (-b); 0 is unlimited. When not given iperf3 sends UDP at 1 Mbit/s and TCP as fast as it can'),
    lengthBytes: z
      .int('lengthBytes must be a whole number of bytes')
      .min(1, 'lengthBytes must be at least 1 byte')
      .max(MAX_TCP_LENGTH, `lengthBytes can be at most ${MAX_TCP_LENGTH} (1 MiB)`)
      .optional()
      .describe('Bytes per write (-l); for UDP the datagram size. iperf3 picks 128 KiB for TCP and the path MTU for UDP when not given'),
    windowBytes: z
      .int('windowBytes must be a whole number of bytes')
      .min(1024, 'windowBytes must be at least 1024 bytes')
      .max(2 ** 30, 'windowBytes can be at most 1073741824 (1 GiB)')
      .optional()
      .describe('Socket buffer size in bytes (-w), which bounds the TCP window; the kernel default when not given'),
    serverOn: z
      .enum(MACHINES)
      .default('peer')
      .describe('The machine that runs the server (iperf3 -s); the client runs on the other one. Directions stay named from the target'),
    targetAddress: hostSchema
      .optional()
      .describe("The target's address as the peer reaches it; needed only when the server runs on the target"),
    serverBind: hostSchema.optional().describe('Address the server listens on (--bind), as in study 001 (`iperf3 -s --bind 10.127.100.3`)'),
    clientBind: hostSchema.optional().describe('Address the client sends from (--bind), to pick a network interface')
  })
  .refine((p) => p.serverOn !== 'target' || p.targetAddress !== undefined, {
    message: "targetAddress is needed when the server runs on the target: the client on the peer must know where to connect",
    path: ['targetAddress']
  })
  .refine((p) => p.protocol !== 'udp' || p.lengthBytes === undefined || p.lengthBytes <= MAX_UDP_LENGTH, {
    message: `lengthBytes can be at most ${MAX_UDP_LENGTH} for UDP (the largest datagram)`,
    path: ['lengthBytes']
  })

export type Iperf3Params = z.output<typeof iperf3ParamsSchema>
export type Iperf3ParamsInput = z.input<typeof iperf3ParamsSchema>

export const iperf3Defaults: Iperf3Params = iperf3ParamsSchema.parse({})
