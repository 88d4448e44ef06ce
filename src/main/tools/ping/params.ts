import { z } from 'zod'

/** A host name (RFC 1123 labels), an IPv4 address or an IPv6 address (with an optional %zone). */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(?:%[A-Za-z0-9_.-]+)?)$/

/** What ping may be pointed at: a name or an address, never something that looks like an option. */
export const hostSchema = z
  .string()
  .min(1, 'a host cannot be empty')
  .max(253, 'a host name can be at most 253 characters')
  .refine((v) => !v.startsWith('-'), { message: "a host cannot start with '-': ping would read it as an option" })
  .refine((v) => v.startsWith('-') || HOST.test(v), { message: 'a host must be a host name (like peer.example.com), an IPv4 address or an IPv6 address' })

export const pingParamsSchema = z.object({
  count: z
    .int('count must be a whole number of packets')
    .min(1, 'count must be at least 1 packet')
    .max(100_000, 'count can be at most 100000 packets')
    .default(10)
    .describe('Echo requests to send (ping -c on Linux, -n on Windows); study 000 sends 10'),
  intervalSeconds: z
    .number('intervalSeconds must be a number of seconds')
    .min(0.002, 'intervalSeconds must be at least 0.002 s (ping refuses shorter intervals to users other than root)')
    .max(60, 'intervalSeconds can be at most 60 s')
    .optional()
    .describe('Seconds between requests (ping -i; Linux only); ping sends one per second when not given'),
  sizeBytes: z
    .int('sizeBytes must be a whole number of bytes')
    .min(0, 'sizeBytes cannot be negative')
    .max(65_500, 'sizeBytes can be at most 65500 bytes')
    .optional()
    .describe('Payload bytes per request (ping -s on Linux, -l on Windows); 56 on Linux and 32 on Windows when not given'),
  deadlineSeconds: z
    .int('deadlineSeconds must be a whole number of seconds')
    .min(1, 'deadlineSeconds must be at least 1 second')
    .max(86_400, 'deadlineSeconds can be at most 86400 seconds')
    .optional()
    .describe('Stop after this many seconds whatever the count (ping -w; Linux only)'),
  replyTimeoutSeconds: z
    .int('replyTimeoutSeconds must be a whole number of seconds')
    .min(1, 'replyTimeoutSeconds must be at least 1 second')
    .max(60, 'replyTimeoutSeconds can be at most 60 seconds')
    .optional()
    .describe('Seconds to wait for each reply (ping -W on Linux, -w in milliseconds on Windows)'),
  host: hostSchema
    .optional()
    .describe("Host to ping instead of the peer's address (the peer's address is used when not given)")
})

export type PingParams = z.output<typeof pingParamsSchema>
export type PingParamsInput = z.input<typeof pingParamsSchema>

export const pingDefaults: PingParams = pingParamsSchema.parse({})
