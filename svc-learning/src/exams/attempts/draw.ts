import { shuffle } from '../../shared/index.ts'

/** Draws `count` distinct items at random, in random order. */
export const draw = <T>(pool: readonly T[], count: number): T[] => shuffle(pool).slice(0, count)
