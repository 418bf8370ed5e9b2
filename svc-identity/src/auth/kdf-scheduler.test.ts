import { afterEach, describe, expect, it, vi } from 'vitest'
import type { KdfLane } from '../shared/index.ts'
import { createKdfScheduler, KdfBusy, type KdfSchedulerOptions } from './kdf-scheduler.ts'

/** A hash that ends when the test says so; `started` tells whether it got a slot. */
function heldHash() {
  let finish!: () => void
  const done = new Promise<void>((r) => (finish = r))
  const h = { started: false, finish, work: () => ((h.started = true), done) }
  return h
}

const options = (o: Partial<KdfSchedulerOptions> = {}): KdfSchedulerOptions => ({
  concurrency: 2,
  queue: { known: 4, unknown: 2 },
  maxWaitMs: 10_000,
  ...o,
})

/** Starts a held hash in `lane`; `result` is its outcome (or the refusal). */
function start(s: ReturnType<typeof createKdfScheduler>, lane: KdfLane) {
  const h = heldHash()
  const result = s.run(lane, h.work).then(
    () => 'done' as const,
    (err: unknown) => err,
  )
  return Object.assign(h, { result })
}

const tick = () => new Promise((r) => setImmediate(r))

afterEach(() => {
  vi.useRealTimers()
})

describe('the password hashing scheduler', () => {
  it('runs at most `concurrency` hashes at once, keeping one slot for known browsers', async () => {
    const s = createKdfScheduler(options())
    const unknown = [start(s, 'unknown'), start(s, 'unknown')]
    await tick()
    // Unknown clients get one slot of two: the other is a known browser's.
    expect(unknown.map((h) => h.started)).toEqual([true, false])
    const known = [start(s, 'known'), start(s, 'known')]
    await tick()
    expect(known.map((h) => h.started)).toEqual([true, false])
    expect(s.state.running).toEqual({ known: 1, unknown: 1 })
    expect(s.state.waiting).toEqual({ known: 1, unknown: 1 })
  })

  it('serves waiting known browsers before waiting unknown clients, and starts no unknown hash while a known one runs', async () => {
    const s = createKdfScheduler(options())
    const first = start(s, 'unknown')
    const otherKnown = start(s, 'known')
    const queuedUnknown = start(s, 'unknown') // waits for the unknown slot
    const queuedKnown = start(s, 'known') // waits for any slot
    await tick()
    expect([first.started, otherKnown.started, queuedUnknown.started, queuedKnown.started]).toEqual([true, true, false, false])
    first.finish()
    await tick()
    // The unknown client came first, but the known browser takes the slot.
    expect([queuedUnknown.started, queuedKnown.started]).toEqual([false, true])
    otherKnown.finish()
    await tick()
    expect(queuedUnknown.started).toBe(false) // a known hash still runs
    queuedKnown.finish()
    await tick()
    expect(queuedUnknown.started).toBe(true)
    queuedUnknown.finish()
    expect(await Promise.all([first.result, otherKnown.result, queuedKnown.result, queuedUnknown.result])).toEqual(['done', 'done', 'done', 'done'])
  })

  it("refuses at once, with a time to come back, when the lane's queue is full", async () => {
    const s = createKdfScheduler(options({ queue: { known: 1, unknown: 2 } }))
    const admitted = [start(s, 'unknown'), start(s, 'unknown'), start(s, 'unknown')] // one runs, two wait
    await tick()
    expect(() => s.enter('unknown')).toThrow(KdfBusy)
    const refused = start(s, 'unknown')
    const err = await refused.result
    expect(err).toBeInstanceOf(KdfBusy)
    expect((err as KdfBusy).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(refused.started).toBe(false)
    // The known lane has its own queue and slot.
    s.enter('known').leave()
    const known = [start(s, 'known'), start(s, 'known')]
    await tick()
    expect(known[0]!.started).toBe(true)
    expect(() => s.enter('known')).toThrow(KdfBusy)
    for (const h of [...admitted, ...known]) h.finish()
    expect(await Promise.all([...admitted, ...known].map((h) => h.result))).toEqual(['done', 'done', 'done', 'done', 'done'])
  })

  it('refuses at once when the expected wait (from what hashes take now) exceeds the bound, and says when to come back', async () => {
    const s = createKdfScheduler(options({ concurrency: 1, queue: { known: 10, unknown: 10 }, maxWaitMs: 500 }))
    await s.run('unknown', () => new Promise((r) => setTimeout(r, 200))) // one hash takes about 200 ms now
    expect(s.state.estimateMs).toBeGreaterThanOrEqual(150)
    const running = start(s, 'unknown')
    const waiting = [start(s, 'unknown'), start(s, 'unknown')] // about 200 and 400 ms ahead
    await tick()
    let refusal: unknown
    try {
      s.enter('unknown')
    } catch (err) {
      refusal = err
    }
    // A third would wait about 600 ms: refused though its queue has room.
    expect(refusal).toBeInstanceOf(KdfBusy)
    expect((refusal as KdfBusy).retryAfterSeconds).toBe(1) // three hashes of ~200 ms to drain
    for (const h of [running, ...waiting]) h.finish()
    await Promise.all([running, ...waiting].map((h) => h.result))
  })

  it('refuses a hash that has waited `maxWaitMs` for a slot (nobody waits longer)', async () => {
    vi.useFakeTimers()
    const s = createKdfScheduler(options({ maxWaitMs: 2_000 }))
    const running = start(s, 'unknown')
    const waiting = start(s, 'unknown')
    await vi.advanceTimersByTimeAsync(1_999)
    expect(s.state.waiting.unknown).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(await waiting.result).toBeInstanceOf(KdfBusy)
    expect(waiting.started).toBe(false)
    expect(s.state.waiting.unknown).toBe(0)
    running.finish()
    expect(await running.result).toBe('done')
    expect(s.state.running).toEqual({ known: 0, unknown: 0 })
  })

  it('counts places taken before the hash asks for a slot, so a burst arriving at once is refused at once', async () => {
    const s = createKdfScheduler(options({ queue: { known: 4, unknown: 2 } }))
    // A burst: each request takes its place first, then does other work (the database) before hashing.
    const turns = [s.enter('unknown'), s.enter('unknown'), s.enter('unknown')] // one slot and two queue places
    expect(() => s.enter('unknown')).toThrow(KdfBusy)
    expect(s.state.pending.unknown).toBe(3)
    // A request that ended before hashing (a limit refused it) gives its place back.
    turns[2]!.leave()
    turns[2]!.leave()
    expect(s.state.pending.unknown).toBe(2)
    const fourth = s.enter('unknown')
    const held = [heldHash(), heldHash(), heldHash()]
    const results = [turns[0]!.run(held[0]!.work), turns[1]!.run(held[1]!.work), fourth.run(held[2]!.work)]
    await tick()
    expect(held.map((h) => h.started)).toEqual([true, false, false])
    await expect(turns[0]!.run(async () => 'again')).rejects.toThrow('runs once')
    for (const h of held) h.finish()
    await Promise.all(results)
    expect(s.state).toMatchObject({ running: { known: 0, unknown: 0 }, waiting: { known: 0, unknown: 0 }, pending: { known: 0, unknown: 0 } })
  })

  it('frees the slot of a hash that failed', async () => {
    const s = createKdfScheduler(options({ concurrency: 1 }))
    await expect(s.run('unknown', () => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed')
    expect(s.state.running).toEqual({ known: 0, unknown: 0 })
    expect(await s.run('unknown', async () => 'ok')).toBe('ok')
  })
})
