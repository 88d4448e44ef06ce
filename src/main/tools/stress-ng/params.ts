import { z } from 'zod'

/**
 * The stressors VirtBench runs and reads, one per test: cpu (compute) and vm (memory). Two
 * stressors in one run would compete for the same CPUs, so each figure would depend on the other.
 */
export const STRESSORS = ['cpu', 'vm'] as const
export type Stressor = (typeof STRESSORS)[number]

/**
 * `--cpu-method` values that stress-ng 0.13.12 (Ubuntu 22.04) and 0.15.06 (Debian 12) both know, in
 * stress-ng's order, so a host and its guests on either can run the same test. A few depend on
 * the compiler and architecture (float80, float128, the decimal and int128 ones); stress-ng
 * refuses those where it lacks them, and the parser says so.
 */
export const CPU_METHODS = [
  'all', 'ackermann', 'apery', 'bitops', 'callfunc', 'cdouble', 'cfloat', 'clongdouble', 'collatz', 'correlate', 'crc16',
  'decimal32', 'decimal64', 'decimal128', 'dither', 'div16', 'div32', 'div64', 'double', 'euler', 'explog', 'factorial',
  'fibonacci', 'fft', 'fletcher16', 'float', 'float32', 'float64', 'float80', 'float128', 'floatconversion', 'gamma', 'gcd',
  'gray', 'hamming', 'hanoi', 'hyperbolic', 'idct', 'int128', 'int64', 'int32', 'int16', 'int8', 'int128float',
  'int128double', 'int128longdouble', 'int128decimal32', 'int128decimal64', 'int128decimal128', 'int64float', 'int64double',
  'int64longdouble', 'int32float', 'int32double', 'int32longdouble', 'intconversion', 'ipv4checksum', 'jmp', 'lfsr32', 'ln2',
  'logmap', 'longdouble', 'loop', 'matrixprod', 'nsqrt', 'omega', 'parity', 'phi', 'pi', 'prime', 'psi', 'queens', 'rand',
  'rand48', 'rgb', 'sieve', 'stats', 'sqrt', 'trig', 'union', 'zeta'
] as const

/** `--vm-method` values that stress-ng 0.13.12 and 0.15.06 both know, in stress-ng's order. */
export const VM_METHODS = [
  'all', 'cache-lines', 'cache-stripe', 'flip', 'galpat-0', 'galpat-1', 'gray', 'grayflip', 'rowhammer', 'incdec', 'inc-nybble',
  'rand-set', 'rand-sum', 'read64', 'ror', 'swap', 'move-inv', 'modulo-x', 'mscan', 'prime-0', 'prime-1', 'prime-gray-0',
  'prime-gray-1', 'prime-incdec', 'walk-0d', 'walk-1d', 'walk-0a', 'walk-1a', 'write64', 'write64nt', 'write1024v', 'zero-one'
] as const

const SIZE = /^([1-9][0-9]{0,15})([bkmgBKMG]?)$/
const PERCENT = /^([1-9][0-9]?|100)%$/
const SIZE_FACTORS: Record<string, number> = { '': 1, b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }
/** stress-ng's limits of --vm-bytes on 64-bit systems (MIN_VM_BYTES, MAX_VM_BYTES). */
const MIN_VM_BYTES = 4 * 2 ** 10
const MAX_VM_BYTES = 2 ** 48

/** Bytes of a stress-ng size such as `256M`, `1g`, `65536` (powers of 1024); null for a percentage or a bad size. */
export function vmSizeBytes(text: string): number | null {
  const m = SIZE.exec(text)
  if (!m) return null
  const bytes = Number(m[1]) * SIZE_FACTORS[m[2]!.toLowerCase()]!
  return Number.isSafeInteger(bytes) ? bytes : null
}

const vmBytesSchema = z
  .string()
  .refine((v) => PERCENT.test(v) || vmSizeBytes(v) !== null, {
    message: 'vmBytes must be a whole number of bytes with an optional unit b, k, m or g (powers of 1024), like 256M, or a share of the physical memory from 1% to 100%'
  })
  .refine((v) => PERCENT.test(v) || (vmSizeBytes(v) ?? MIN_VM_BYTES) >= MIN_VM_BYTES, { message: 'vmBytes must be at least 4K (stress-ng refuses less)' })
  .refine((v) => PERCENT.test(v) || (vmSizeBytes(v) ?? 0) <= MAX_VM_BYTES, { message: 'vmBytes can be at most 262144G (stress-ng refuses more)' })

export const stressNgParamsSchema = z.object({
  stressor: z
    .enum(STRESSORS)
    .default('cpu')
    .describe('cpu: compute methods on the CPU (--cpu); vm: writes and reads of mapped memory (--vm)'),
  workers: z
    .int('workers must be a whole number')
    .min(0, 'workers must be 0 (one per CPU) or more')
    .max(1024, 'workers can be at most 1024')
    .default(1)
    .describe('Worker processes of the stressor (--cpu N or --vm N); 0 starts one per CPU'),
  timeoutSeconds: z
    .int('timeoutSeconds must be a whole number of seconds')
    .min(1, 'timeoutSeconds must be at least 1 second')
    .max(86_400, 'timeoutSeconds can be at most 86400 seconds')
    .default(10)
    .describe('How long the stressor runs (--timeout)'),
  cpuMethod: z
    .enum(CPU_METHODS)
    .default('matrixprod')
    .describe(
      'cpu: the computation each bogo operation does (--cpu-method). matrixprod by default: "all" (stress-ng\'s own default) cycles through every method the installed stress-ng has, so two versions would count different work'
    ),
  vmBytes: vmBytesSchema
    .default('256M')
    .describe('vm: memory the workers map and exercise, split between them (--vm-bytes), like 256M or 1G, or a share of the physical memory such as 50%'),
  vmMethod: z
    .enum(VM_METHODS)
    .default('write64')
    .describe('vm: how the memory is exercised (--vm-method). write64 by default, for the same reason as cpuMethod'),
  vmKeep: z.boolean().default(false).describe('vm: keep the mapping for the whole run instead of unmapping and mapping it again each cycle (--vm-keep)')
})

export type StressNgParams = z.output<typeof stressNgParamsSchema>
export type StressNgParamsInput = z.input<typeof stressNgParamsSchema>

export const stressNgDefaults: StressNgParams = stressNgParamsSchema.parse({})
