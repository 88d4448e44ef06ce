/**
 * A small seeded random source, so that a bootstrap gives the same interval for the same input
 * on every machine and every run. Not for anything secret.
 */

/** FNV-1a, 32 bits, over the UTF-16 code units of `text`. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/**
 * Marsaglia's xorshift32 (shifts 13, 17, 5): returns a function giving numbers in [0, 1).
 * A zero state would stay zero forever, so a zero seed is replaced by a fixed odd constant.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9
  return () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state / 0x100000000
  }
}
