import { z } from 'zod'

/**
 * Size limits of the API are in bytes: what a payload weighs in a `virtbench serve` frame or in a
 * file is its UTF-8 length, and "é" is one character but two bytes.
 */

/** PATH_MAX of Linux: the longest path a request may name. */
export const PATH_LIMIT_BYTES = 4096

/** The length of `text` in UTF-8, as `TextEncoder` writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}

/** "1048576 bytes (1 MiB)": a limit as the messages name it. */
export function describeBytes(bytes: number): string {
  const binary = [
    [1024 * 1024, 'MiB'],
    [1024, 'KiB']
  ] as const
  const unit = binary.find(([size]) => bytes >= size && bytes % size === 0)
  return unit ? `${bytes} bytes (${bytes / unit[0]} ${unit[1]})` : `${bytes} bytes`
}

/**
 * A string of at most `limit` bytes in UTF-8. `what` names it in the refusal, which gives the
 * limit and the string's own size in bytes: "a preset file is at most 1048576 bytes (1 MiB) in
 * UTF-8; this one is 2000000 bytes".
 */
export function stringOfAtMostBytes(limit: number, what: string): z.ZodString {
  return z.string().superRefine((text, ctx) => {
    // no character takes more than 3 bytes per UTF-16 unit: most strings need no counting
    if (text.length * 3 <= limit) return
    const bytes = utf8ByteLength(text)
    if (bytes > limit) ctx.addIssue({ code: 'custom', message: `${what} is at most ${describeBytes(limit)} in UTF-8; this one is ${bytes} bytes` })
  })
}
