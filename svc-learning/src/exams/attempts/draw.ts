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

/** Draws `count` distinct items at random, in random order. */
export const draw = <T>(pool: readonly T[], count: number): T[] => shuffle(pool).slice(0, count)
