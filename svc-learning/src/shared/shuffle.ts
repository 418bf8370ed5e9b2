import { randomInt } from 'node:crypto'

/** A uniformly shuffled copy (Fisher-Yates with a cryptographic random source). */
export function shuffle<T>(items: readonly T[]): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}
