import { afterEach, describe, expect, it, vi } from 'vitest'
import { jetstreamManager } from '@nats-io/jetstream'
import type { EventEnvelope } from '@portal/contracts'
import { createInProcessBus, subjectMatches, type EventBus, type Subscription } from './bus.ts'
import { createNatsBus } from './nats-bus.ts'
import { TEST_NATS_URL, silentLogger, uniqueName } from './testing.ts'

/** A lowercase, letters-only token: event types allow `[a-z-]` in their segments. */
export const uniqueDomain = () => 'sk' + Array.from({ length: 10 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('')

export const makeEvent = (type: string, data: unknown = {}): EventEnvelope => ({
  id: crypto.randomUUID(),
  type,
  occurredAt: new Date().toISOString(),
  data,
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface BusUnderTest {
  bus: EventBus
  /** Subjects of this bus are `<domain>.<aggregate>.<verb>.v1`. */
  domain: string
  cleanup(): Promise<void>
}

/** How long to wait to be fairly sure that something does NOT arrive. */
const QUIET_MS = 400

/** The contract every EventBus adapter keeps. */
function busContract(name: string, make: () => Promise<BusUnderTest>) {
  describe(`EventBus contract: ${name}`, () => {
    let current: BusUnderTest | undefined
    const subs: Subscription[] = []
    const setup = async () => {
      current = await make()
      return current
    }
    const sub = async (bus: EventBus, consumer: string, subjects: string[], handler: (e: EventEnvelope) => Promise<void>) => {
      const s = await bus.subscribe(consumer, subjects, handler)
      subs.push(s)
      return s
    }
    afterEach(async () => {
      for (const s of subs.splice(0)) await s.stop()
      await current?.cleanup()
      current = undefined
    })

    it('delivers to matching subscribers only, with * and > wildcards', async () => {
      const { bus, domain: d } = await setup()
      const got: Record<string, string[]> = { star: [], all: [], course: [], exact: [], two: [] }
      const record = (k: string) => async (e: EventEnvelope) => void got[k]!.push(e.type)
      await sub(bus, 'star', [`${d}.user.*.v1`], record('star'))
      await sub(bus, 'all', [`${d}.>`], record('all'))
      await sub(bus, 'course', [`${d}.course.>`], record('course'))
      await sub(bus, 'exact', [`${d}.user.deleted.v1`], record('exact'))
      await sub(bus, 'two', [`${d}.user.registered.v1`, `${d}.course.*.v1`], record('two'))
      await bus.publish(makeEvent(`${d}.user.registered.v1`))
      await bus.publish(makeEvent(`${d}.course.completed.v1`))
      await bus.publish(makeEvent(`${d}.exam.submitted.v1`))
      await vi.waitFor(() => expect(got.all).toHaveLength(3), { timeout: 10_000 })
      await vi.waitFor(() => expect(got.two).toHaveLength(2), { timeout: 10_000 })
      await sleep(QUIET_MS)
      expect(got.star).toEqual([`${d}.user.registered.v1`])
      expect(got.course).toEqual([`${d}.course.completed.v1`])
      expect(got.exact).toEqual([])
      expect(got.two.sort()).toEqual([`${d}.course.completed.v1`, `${d}.user.registered.v1`])
    })

    it('delivers an event id published twice only once', async () => {
      const { bus, domain: d } = await setup()
      const ids: string[] = []
      await sub(bus, 'dedupe', [`${d}.>`], async (e) => void ids.push(e.id))
      const event = makeEvent(`${d}.user.registered.v1`)
      await bus.publish(event)
      await bus.publish(event)
      const marker = makeEvent(`${d}.user.updated.v1`)
      await bus.publish(marker)
      await vi.waitFor(() => expect(ids).toContain(marker.id), { timeout: 10_000 })
      await sleep(QUIET_MS)
      expect(ids.filter((id) => id === event.id)).toHaveLength(1)
    })

    it('redelivers to a handler that throws until it succeeds', async () => {
      const { bus, domain: d } = await setup()
      const attempts: string[] = []
      let handled: string | undefined
      await sub(bus, 'flaky', [`${d}.>`], async (e) => {
        attempts.push(e.id)
        if (attempts.length < 3) throw new Error('not yet')
        handled = e.id
      })
      const event = makeEvent(`${d}.user.registered.v1`)
      await bus.publish(event)
      await vi.waitFor(() => expect(handled).toBe(event.id), { timeout: 10_000 })
      expect(attempts).toEqual([event.id, event.id, event.id])
    })

    it('gives every event to each of two durable consumers', async () => {
      const { bus, domain: d } = await setup()
      const a: string[] = []
      const b: string[] = []
      await sub(bus, 'consumer-a', [`${d}.>`], async (e) => void a.push(e.id))
      await sub(bus, 'consumer-b', [`${d}.>`], async (e) => void b.push(e.id))
      const events = [makeEvent(`${d}.user.registered.v1`), makeEvent(`${d}.user.updated.v1`), makeEvent(`${d}.user.deleted.v1`)]
      for (const e of events) await bus.publish(e)
      await vi.waitFor(
        () => {
          expect(a.sort()).toEqual(events.map((e) => e.id).sort())
          expect(b.sort()).toEqual(events.map((e) => e.id).sort())
        },
        { timeout: 10_000 },
      )
    })

    it('lets a subscription started after publishing receive the earlier events', async () => {
      const { bus, domain: d } = await setup()
      const events = [makeEvent(`${d}.user.registered.v1`), makeEvent(`${d}.user.updated.v1`)]
      for (const e of events) await bus.publish(e)
      const got: string[] = []
      await sub(bus, 'late', [`${d}.>`], async (e) => void got.push(e.id))
      await vi.waitFor(() => expect(got).toEqual(events.map((e) => e.id)), { timeout: 10_000 })
    })

    it('stops delivering after stop(), and a durable consumer resumes where it left off', async () => {
      const { bus, domain: d } = await setup()
      const got: string[] = []
      const s = await bus.subscribe('stopper', [`${d}.>`], async (e) => void got.push(e.id))
      const first = makeEvent(`${d}.user.registered.v1`)
      await bus.publish(first)
      await vi.waitFor(() => expect(got).toEqual([first.id]), { timeout: 10_000 })
      await sleep(100) // let the ack reach the server
      await s.stop()
      const second = makeEvent(`${d}.user.updated.v1`)
      await bus.publish(second)
      await sleep(QUIET_MS)
      expect(got).toEqual([first.id])
      await sub(bus, 'stopper', [`${d}.>`], async (e) => void got.push(e.id))
      await vi.waitFor(() => expect(got).toEqual([first.id, second.id]), { timeout: 10_000 })
      await sleep(QUIET_MS)
      expect(got).toEqual([first.id, second.id])
    })

    it('gives a subject a consumer adds later its earlier events, and resumes the subjects it had', async () => {
      const { bus, domain: d } = await setup()
      const got: string[] = []
      const s = await bus.subscribe('grows', [`${d}.user.deleted.v1`], async (e) => void got.push(e.id))
      const registered = makeEvent(`${d}.user.registered.v1`)
      const deleted = makeEvent(`${d}.user.deleted.v1`)
      await bus.publish(registered)
      await bus.publish(deleted)
      await vi.waitFor(() => expect(got).toEqual([deleted.id]), { timeout: 10_000 })
      await sleep(100) // let the ack reach the server
      await s.stop()
      // What a new version subscribing to one more subject (e.g. a new projection) relies on to backfill.
      await sub(bus, 'grows', [`${d}.user.registered.v1`, `${d}.user.deleted.v1`], async (e) => void got.push(e.id))
      await vi.waitFor(() => expect(got).toEqual([deleted.id, registered.id]), { timeout: 10_000 })
      await sleep(QUIET_MS)
      expect(got).toEqual([deleted.id, registered.id])
    })

    it('hands events to handlers as parsed envelopes', async () => {
      const { bus, domain: d } = await setup()
      const got: unknown[] = []
      await sub(bus, 'parsed', [`${d}.>`], async (e) => void got.push(e))
      const event = makeEvent(`${d}.user.registered.v1`, { userId: 'u1', nested: { n: 1 } })
      await bus.publish({ ...event, extra: 'not part of the envelope' } as EventEnvelope)
      await vi.waitFor(() => expect(got).toHaveLength(1), { timeout: 10_000 })
      expect(got[0]).toEqual(event)
      expect(got[0]).not.toBe(event)
    })

    it('rejects publishing something that is not an event envelope', async () => {
      const { bus, domain: d } = await setup()
      await expect(bus.publish({ ...makeEvent(`${d}.user.registered.v1`), id: 'not-a-uuid' })).rejects.toThrow()
    })
  })
}

busContract('in-process', async () => ({
  bus: createInProcessBus({ logger: silentLogger, retryDelayMs: 5 }),
  domain: uniqueDomain(),
  cleanup: async () => undefined,
}))

busContract('NATS JetStream', async () => {
  const domain = uniqueDomain()
  const stream = uniqueName('SK_BUS')
  const bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects: [`${domain}.>`], logger: silentLogger, nakDelayMs: 50 })
  return {
    bus,
    domain,
    async cleanup() {
      const jsm = await jetstreamManager(bus.connection)
      await jsm.streams.delete(stream)
      await bus.close()
    },
  }
})

describe('in-process bus', () => {
  it('delivers an event still being published to a consumer that subscribes meanwhile', async () => {
    const bus = createInProcessBus({ logger: silentLogger })
    const d = uniqueDomain()
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    await bus.subscribe('slow', [`${d}.>`], async () => gate)
    const event = makeEvent(`${d}.user.registered.v1`)
    const publishing = bus.publish(event)
    await sleep(20)
    const got: string[] = []
    const subscribing = bus.subscribe('newcomer', [`${d}.>`], async (e) => void got.push(e.id))
    await sleep(20)
    release()
    await publishing
    await subscribing
    await vi.waitFor(() => expect(got).toEqual([event.id]), { timeout: 2_000 })
    await bus.close()
  })

  it('rejects the publish when a handler keeps failing, so the outbox keeps the event', async () => {
    const bus = createInProcessBus({ logger: silentLogger, retries: 2, retryDelayMs: 1 })
    const d = uniqueDomain()
    let calls = 0
    await bus.subscribe('broken', [`${d}.>`], async () => {
      calls++
      throw new Error('down')
    })
    const event = makeEvent(`${d}.user.registered.v1`)
    await expect(bus.publish(event)).rejects.toThrow('down')
    expect(calls).toBe(3)
    await bus.close()
    await expect(bus.publish(makeEvent(`${d}.user.updated.v1`))).rejects.toThrow(/closed/)
  })
})

describe('in-process bus: republishing after a failure', () => {
  it('does not call again a consumer that already handled the event', async () => {
    const bus = createInProcessBus({ logger: silentLogger, retries: 1, retryDelayMs: 1 })
    const d = uniqueDomain()
    let okCalls = 0
    let flakyCalls = 0
    await bus.subscribe('ok', [`${d}.>`], async () => void okCalls++)
    await bus.subscribe('flaky', [`${d}.>`], async () => {
      if (++flakyCalls <= 2) throw new Error('down')
    })
    const event = makeEvent(`${d}.user.registered.v1`)
    await expect(bus.publish(event)).rejects.toThrow('down')
    await bus.publish(event) // what the outbox relay does on its next round
    expect(okCalls).toBe(1)
    expect(flakyCalls).toBe(3)
    await bus.publish(event)
    expect([okCalls, flakyCalls]).toEqual([1, 3])
    await bus.close()
  })

  it('delivers concurrent publishes of one event id once', async () => {
    const bus = createInProcessBus({ logger: silentLogger })
    const d = uniqueDomain()
    let calls = 0
    await bus.subscribe('once', [`${d}.>`], async () => {
      calls++
      await sleep(20)
    })
    const event = makeEvent(`${d}.user.registered.v1`)
    await Promise.all([bus.publish(event), bus.publish(event), bus.publish(event)])
    expect(calls).toBe(1)
    await bus.close()
  })
})

describe('subjectMatches', () => {
  it.each([
    ['a.b.c', 'a.b.c', true],
    ['a.b.c', 'a.b.d', false],
    ['a.b.c', 'a.b', false],
    ['a.b', 'a.b.c', false],
    ['a.*.c', 'a.b.c', true],
    ['a.*.c', 'a.b.d', false],
    ['a.*', 'a.b.c', false],
    ['*.*.*', 'a.b.c', true],
    ['*', 'a', true],
    ['*', 'a.b', false],
    ['a.>', 'a.b', true],
    ['a.>', 'a.b.c.d', true],
    ['a.>', 'a', false],
    ['>', 'a', true],
    ['>', 'a.b.c', true],
    ['a.*.>', 'a.b.c', true],
    ['a.*.>', 'a.b', false],
    ['identity.>', 'identity.user.registered.v1', true],
    ['identity.>', 'learning.exam.submitted.v1', false],
    ['identity.user.*.v1', 'identity.user.registered.v1', true],
    ['identity.user.*.v1', 'identity.user.registered.v2', false],
  ])('%s matches %s: %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected)
  })
})
