import { z } from 'zod'
import { hostSchema, MACHINES } from '../iperf3/network-roles'

const MAX_UDP_LENGTH = 65_507

const portSchema = (what: string) =>
  z
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be between 1 and 65535`)
    .max(65_535, `${what} must be between 1 and 65535`)

export const iperfParamsSchema = z
  .object({
    protocol: z.enum(['tcp', 'udp']).default('tcp').describe('TCP (bandwidth) or UDP (-u: bandwidth, jitter, loss)'),
    direction: z
      .enum(['both', 'target->peer', 'peer->target'])
      .default('both')
      .describe(
        "Which way the data flows, seen from the target. both: one way, then the other (-r, as in study 000): the server connects back to the client's machine, so that machine must accept connections on the listen port. One way only: VirtBench adds -R when the server is the sender, which needs iperf 2.1 or later on both machines"
      ),
    seconds: z
      .int('seconds must be a whole number of seconds')
      .min(1, 'seconds must be at least 1')
      .max(86_400, 'seconds can be at most 86400 (one day)')
      .optional()
      .describe("Test length per direction (-t); iperf's 10 s when not given (study 000 gives none)"),
    port: portSchema('port').optional().describe("Server port (-p on both sides); iperf's 5001 when not given (study 000 also uses 12000 and 13000)"),
    listenPort: portSchema('listenPort')
      .optional()
      .describe('Port the client listens on for the way back of a two-way test (-L); the server port when not given'),
    parallel: z
      .int('parallel must be a whole number of streams')
      .min(1, 'parallel must be at least 1 stream')
      .max(128, 'parallel can be at most 128 streams')
      .default(1)
      .describe('Parallel streams (-P); totals add them up and each stream is also reported with labels.stream'),
    bitrate: z
      .int('bitrate must be a whole number of bits per second')
      .min(1, 'bitrate must be at least 1 bit/s')
      .max(1e12, 'bitrate can be at most 1000000000000 bit/s (1 Tbit/s)')
      .optional()
      .describe("Target rate in bit/s (-b); for UDP iperf sends 1 Mbit/s when not given (study 000's 1.05 Mbits/sec)"),
    lengthBytes: z
      .int('lengthBytes must be a whole number of bytes')
      .min(1, 'lengthBytes must be at least 1 byte')
      .max(1_048_576, 'lengthBytes can be at most 1048576 (1 MiB)')
      .optional()
      .describe("Bytes per read and write (-l, on both sides); for UDP the datagram size (iperf's 1470 when not given)"),
    windowBytes: z
      .int('windowBytes must be a whole number of bytes')
      .min(1024, 'windowBytes must be at least 1024 bytes')
      .max(2 ** 30, 'windowBytes can be at most 1073741824 (1 GiB)')
      .optional()
      .describe('Socket buffer size in bytes (-w, on both sides), which bounds the TCP window; the kernel default when not given'),
    format: z
      .enum(['auto', 'csv', 'text'])
      .default('auto')
      .describe(
        "Output VirtBench reads: csv (-y C, exact numbers), text (iperf's table, rounded to three digits, as in study 000), or auto: csv for TCP and text for UDP, because iperf 2.1 leaves the peer's Server Report (jitter and loss of target->peer) out of -y C"
      ),
    enhanced: z.boolean().default(false).describe('Enhanced reports (-e, iperf 2.1): more columns in the text, which VirtBench reads past'),
    serverOn: z
      .enum(MACHINES)
      .default('peer')
      .describe('The machine that runs the server (iperf -s); the client runs on the other one. Directions stay named from the target'),
    targetAddress: hostSchema.optional().describe("The target's address as the peer reaches it; needed only when the server runs on the target"),
    serverBind: hostSchema.optional().describe('Address the server listens on (-B)'),
    clientBind: hostSchema.optional().describe('Address the client sends from (-B), to pick a network interface')
  })
  .refine((p) => p.serverOn !== 'target' || p.targetAddress !== undefined, {
    message: 'targetAddress is needed when the server runs on the target: the client on the peer must know where to connect',
    path: ['targetAddress']
  })
  .refine((p) => p.direction !== 'both' || p.parallel === 1, {
    message:
      'parallel streams cannot be combined with direction both: iperf 2.1 starts the way back while streams of the first way still run, so neither direction is measured alone. Run two one-way tests, or iperf3 with --bidir',
    path: ['parallel']
  })
  .refine((p) => p.protocol !== 'udp' || p.lengthBytes === undefined || p.lengthBytes <= MAX_UDP_LENGTH, {
    message: `lengthBytes can be at most ${MAX_UDP_LENGTH} for UDP (the largest datagram)`,
    path: ['lengthBytes']
  })

export type IperfParams = z.output<typeof iperfParamsSchema>
export type IperfParamsInput = z.input<typeof iperfParamsSchema>

export const iperfDefaults: IperfParams = iperfParamsSchema.parse({})

/** The output format a plan asks for: `auto` is -y C for TCP and text for UDP. */
export function outputFormat(params: Pick<IperfParams, 'format' | 'protocol'>): 'csv' | 'text' {
  if (params.format !== 'auto') return params.format
  return params.protocol === 'tcp' ? 'csv' : 'text'
}
