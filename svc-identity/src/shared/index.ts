export type { HashingTurn, KdfLane, ScheduledHasher } from './hashing.ts'
