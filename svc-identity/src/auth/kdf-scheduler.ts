import type { KdfLane } from '../shared/index.ts'

/** Thrown when a hash would wait too long or find no place (answered 429 before any hashing). */
export class KdfBusy extends Error {
  readonly retryAfterSeconds: number
  constructor(retryAfterSeconds: number) {
    super('password hashing is at capacity')
    this.retryAfterSeconds = retryAfterSeconds
  }
}

export interface KdfSchedulerOptions {
  /** Hashes run at once; one slot is kept for known browsers when there are two or more. */
  concurrency: number
  /** Places in each lane's queue beyond its slots; a hash finding none is refused at once. */
  queue: Record<KdfLane, number>
  /** Longest a hash waits for a slot: refused at once when the expected wait is longer, and refused when it has waited that long. */
  maxWaitMs: number
}

/** One hash's place, taken before the request's other work (so a burst is shed before it costs anything). */
export interface KdfTurn {
  /** Waits for a slot (at most `maxWaitMs`, else `KdfBusy`) and runs `work` in it; once. */
  run<T>(work: () => Promise<T>): Promise<T>
  /** Gives the place back unused (the request ended before hashing); nothing once it ran. */
  leave(): void
}

/** How fast the estimate of one hash's duration follows what hashes take now. */
const SMOOTHING = 0.3
const LANES = ['known', 'unknown'] as const

/**
 * Runs password hashing (memory-hard: each holds 32 MiB and a core) within bounds: at most
 * `concurrency` at once, known browsers' hashes before anyone else's, and nobody waiting longer than
 * `maxWaitMs`. A flood from unknown clients fills only the unknown lane (one slot short of the
 * whole, and a short queue); a returning user's sign-in takes the next free slot.
 *
 * A request takes its place (`enter`) before its other work and hashes with it later: places
 * taken but not yet hashing count like queued ones, so a burst arriving at once is refused at once
 * instead of all passing the check before any of them reached the queue.
 */
export function createKdfScheduler(opts: KdfSchedulerOptions) {
  const slots: Record<KdfLane, number> = {
    known: opts.concurrency,
    unknown: opts.concurrency >= 2 ? opts.concurrency - 1 : opts.concurrency,
  }
  const running: Record<KdfLane, number> = { known: 0, unknown: 0 }
  /** Places taken whose hash has not asked for a slot yet. */
  const pending: Record<KdfLane, number> = { known: 0, unknown: 0 }
  type Waiter = { start: () => void; timer: NodeJS.Timeout }
  const waiting: Record<KdfLane, Waiter[]> = { known: [], unknown: [] }
  /** What one hash takes now (smoothed); unknown until the first one ends. */
  let estimateMs: number | undefined

  const busyNow = () => running.known + running.unknown
  // While a known browser's hash runs or waits, no unknown one starts: the cores are its first.
  const hasSlot = (lane: KdfLane) => busyNow() < opts.concurrency && (lane === 'known' || (running.unknown < slots.unknown && running.known + waiting.known.length === 0))
  const ahead = (lane: KdfLane) => waiting[lane].length + pending[lane]
  /** The wait of a hash entering `lane` now: known browsers' hashes ahead of it, and its own lane's. */
  const expectedWaitMs = (lane: KdfLane) => {
    const est = estimateMs ?? 0
    if (lane === 'known') return (est * Math.max(0, busyNow() + ahead('known') + 1 - opts.concurrency)) / slots.known
    return est * (ahead('known') / slots.known + Math.max(0, running.unknown + ahead('unknown') + 1 - slots.unknown) / slots.unknown)
  }
  /** When to come back: once what is under way now has been hashed. */
  const retryAfterSeconds = () => {
    const inFlight = LANES.reduce((n, lane) => n + running[lane] + ahead(lane), 0)
    return Math.max(1, Math.ceil(((estimateMs ?? 1000) * inFlight) / opts.concurrency / 1000))
  }

  const refusal = (lane: KdfLane): KdfBusy | undefined => {
    // Known browsers may use every slot (those unknown clients' hashes hold too), unknown clients theirs.
    const occupied = lane === 'known' ? busyNow() + ahead('known') : running.unknown + ahead('unknown')
    const full = occupied >= slots[lane] + opts.queue[lane]
    return full || expectedWaitMs(lane) > opts.maxWaitMs ? new KdfBusy(retryAfterSeconds()) : undefined
  }

  const startNext = () => {
    for (const lane of LANES) {
      while (waiting[lane].length > 0 && hasSlot(lane)) {
        const next = waiting[lane].shift()!
        clearTimeout(next.timer)
        running[lane]++
        next.start()
      }
    }
  }

  const acquire = (lane: KdfLane): Promise<void> | void => {
    if (hasSlot(lane)) {
      running[lane]++
      return
    }
    return new Promise<void>((start, refuse) => {
      const waiter: Waiter = {
        start,
        // Overtaken too often (known browsers go first): refused rather than kept waiting.
        timer: setTimeout(() => {
          waiting[lane].splice(waiting[lane].indexOf(waiter), 1)
          refuse(new KdfBusy(retryAfterSeconds()))
        }, opts.maxWaitMs),
      }
      waiting[lane].push(waiter)
    })
  }

  const runIn = async <T>(lane: KdfLane, work: () => Promise<T>): Promise<T> => {
    await acquire(lane)
    const started = performance.now()
    try {
      return await work()
    } finally {
      const took = performance.now() - started
      estimateMs = estimateMs === undefined ? took : estimateMs + SMOOTHING * (took - estimateMs)
      running[lane]--
      startNext()
    }
  }

  /** Takes a place for one hash in `lane`; throws `KdfBusy` when there is none or the wait would be too long. */
  const enter = (lane: KdfLane): KdfTurn => {
    const refused = refusal(lane)
    if (refused) throw refused
    pending[lane]++
    let taken = true
    const give = () => {
      if (!taken) return false
      taken = false
      pending[lane]--
      return true
    }
    return {
      run(work) {
        if (!give()) return Promise.reject(new Error('a hashing turn runs once'))
        return runIn(lane, work)
      },
      leave: () => void give(),
    }
  }

  return {
    enter,

    /** Takes a place in `lane` and runs `work` (one hash) in it; throws `KdfBusy` when refused. */
    run: <T>(lane: KdfLane, work: () => Promise<T>): Promise<T> => {
      try {
        return enter(lane).run(work)
      } catch (err) {
        return Promise.reject(err)
      }
    },

    /** Hashes running, waiting for a slot and entered per lane, and the current estimate of one hash. */
    get state() {
      return {
        running: { ...running },
        waiting: { known: waiting.known.length, unknown: waiting.unknown.length },
        pending: { ...pending },
        estimateMs,
      }
    },
  }
}
export type KdfScheduler = ReturnType<typeof createKdfScheduler>
