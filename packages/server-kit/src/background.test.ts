import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BackgroundLeasesTable, createBackgroundTask } from './background.ts'
import { openDatabase, type Database } from './db.ts'
import { createLogger } from './logger.ts'
import { recordEvent, startOutboxRelay } from './outbox.ts'
import { createInProcessBus } from './bus.ts'
import { createTestDatabase, silentLogger } from './testing.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A pass whose runs can be held open and counted. */
function gatedPass() {
  let release: (() => void) | undefined
  const state = { runs: 0, concurrent: 0, maxConcurrent: 0, hold: false }
  const pass = async () => {
    state.runs++
    state.concurrent++
    state.maxConcurrent = Math.max(state.maxConcurrent, state.concurrent)
    if (state.hold) await new Promise<void>((r) => (release = r))
    state.concurrent--
    return 1
  }
  return { state, pass, release: () => release?.() }
}

describe('createBackgroundTask', () => {
  it('runs one pass at a time; kicks during a pass ask for exactly one more', async () => {
    const g = gatedPass()
    const task = createBackgroundTask({ name: 't', logger: silentLogger, pass: g.pass })
    task.start()
    // Joins the pass start() began, followed by one more.
    expect(await task.runNow()).toBe(2)
    g.state.hold = true
    const during = task.runNow()
    await vi.waitFor(() => expect(g.state.runs).toBe(3))
    task.kick()
    task.kick()
    task.kick()
    g.state.hold = false
    g.release()
    expect(await during).toBe(2)
    expect(g.state.runs).toBe(4)
    expect(g.state.maxConcurrent).toBe(1)
    await task.stop()
  })

  it('does nothing on kicks before start, runs on its interval once started, and nothing after stop', async () => {
    const g = gatedPass()
    const task = createBackgroundTask({ name: 't', logger: silentLogger, intervalMs: 20, runAtStart: false, pass: g.pass })
    task.kick()
    await sleep(50)
    expect(g.state.runs).toBe(0)
    task.start()
    await vi.waitFor(() => expect(g.state.runs).toBeGreaterThanOrEqual(2))
    await task.stop()
    const after = g.state.runs
    task.kick()
    expect(await task.runNow()).toBe(0)
    await sleep(60)
    expect(g.state.runs).toBe(after)
  })

  it('repeats a pass at once while it reports more, and lets a long pass see the stop', async () => {
    let left = 5
    const task = createBackgroundTask({ name: 't', logger: silentLogger, pass: async () => ({ done: 1, more: --left > 0 }) })
    expect(await task.runNow()).toBe(5)
    let seen = 0
    const long = createBackgroundTask({
      name: 'long',
      logger: silentLogger,
      async pass({ stopping }) {
        while (!stopping()) {
          seen++
          await sleep(5)
        }
        return seen
      },
    })
    const running = long.runNow()
    await sleep(30)
    await long.stop()
    expect(await running).toBe(seen)
  })

  it('logs a failing pass once (then every 20th) and backs its interval off, while kicks still try', async () => {
    const warnings: string[] = []
    const logger = { ...createLogger('t', 'silent'), warn: (msg: string) => void warnings.push(msg) }
    let calls = 0
    let failing = true
    const task = createBackgroundTask({
      name: 'flaky',
      logger: logger as never,
      intervalMs: 5,
      backoff: { baseMs: 200, maxMs: 1_000 },
      runAtStart: false,
      pass: async () => {
        calls++
        if (failing) throw new Error('down')
        return 1
      },
    })
    task.start()
    await vi.waitFor(() => expect(calls).toBe(1))
    // The interval waits out the backoff (200 ms) instead of trying every 5 ms.
    await sleep(100)
    expect(calls).toBe(1)
    task.kick()
    await vi.waitFor(() => expect(calls).toBe(2))
    expect(warnings).toEqual(['flaky failed; will retry'])
    failing = false
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(4), { timeout: 3_000 })
    await task.stop()
  })

  it('runs chores on their own period and waits for them at stop', async () => {
    let chores = 0
    const task = createBackgroundTask({ name: 't', logger: silentLogger, pass: async () => 0, chores: [{ everyMs: 10, run: async () => void chores++ }] })
    task.start()
    await vi.waitFor(() => expect(chores).toBeGreaterThanOrEqual(2))
    await task.stop()
    const after = chores
    await sleep(40)
    expect(chores).toBe(after)
  })
})

describe('createBackgroundTask with a lease (PostgreSQL)', () => {
  let testDb: { url: string; drop(): Promise<void> }
  let db: Database
  beforeAll(async () => {
    testDb = await createTestDatabase('server_kit_background')
    db = await openDatabase({
      service: 'background-test',
      url: testDb.url,
      dataDir: '/tmp',
      entities: [],
      migrations: [{ name: '0001_background_leases', class: BackgroundLeasesTable }],
      logger: silentLogger,
    })
  })
  afterAll(async () => {
    await db?.close()
    await testDb?.drop()
  })

  it('runs a pass on one instance at a time across instances; a crashed holder’s lease runs out', async () => {
    const g = gatedPass()
    const instance = () => createBackgroundTask({ name: 'daily check', logger: silentLogger, lease: { orm: db.orm, ms: 300 }, pass: g.pass })
    const a = instance()
    const b = instance()
    g.state.hold = true
    const first = a.runNow()
    await vi.waitFor(() => expect(g.state.runs).toBe(1))
    // While a holds the lease (renewed every 100 ms, so past its 300 ms), b skips.
    await sleep(450)
    expect(await b.runNow()).toBe(0)
    expect(g.state.runs).toBe(1)
    g.state.hold = false
    g.release()
    expect(await first).toBe(1)
    // Given back after the pass: b may run now.
    expect(await b.runNow()).toBe(1)

    // A holder that died without giving it back: another instance waits until it runs out.
    await db.orm.em.fork().execute("insert into background_leases (name, holder, until) values ('daily check', 'crashed', now() + interval '200 milliseconds')")
    expect(await a.runNow()).toBe(0)
    await sleep(250)
    expect(await a.runNow()).toBe(1)
  })

  it('gives the lease back for good: a renewal still in flight at the end of a pass does not take it again', async () => {
    // Renewed every 10 ms and passes of ~10 ms: a renewal often starts just before the give-back.
    const pass = async () => {
      await sleep(9 + Math.random() * 3)
      return 1
    }
    const a = createBackgroundTask({ name: 'renewed', logger: silentLogger, lease: { orm: db.orm, ms: 30 }, pass })
    const b = createBackgroundTask({ name: 'renewed', logger: silentLogger, lease: { orm: db.orm, ms: 30 }, pass })
    for (let i = 0; i < 40; i++) {
      expect(await a.runNow()).toBe(1)
      expect(await b.runNow()).toBe(1)
    }
  })
})

describe('the outbox relay on the background helper', () => {
  let testDb: { url: string; drop(): Promise<void> }
  let db: Database
  beforeAll(async () => {
    testDb = await createTestDatabase('server_kit_autokick')
    db = await openDatabase({ service: 'autokick-test', url: testDb.url, dataDir: '/tmp', entities: [], migrations: [], logger: silentLogger })
  })
  afterAll(async () => {
    await db?.close()
    await testDb?.drop()
  })

  it('is kicked by the commit of a transaction that recorded an event, not by a rollback or other commits', async () => {
    const bus = createInProcessBus()
    const got: string[] = []
    await bus.subscribe('t', ['identity.>'], async (e) => void got.push(e.id))
    // An interval far away: only the commit's kick can publish in time.
    const relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 600_000 })
    try {
      const event = await db.orm.em.fork().transactional(async (em) => recordEvent(em, 'identity.user.deleted.v1', { userId: crypto.randomUUID() }))
      await vi.waitFor(() => expect(got).toEqual([event.id]), { timeout: 2_000 })

      await db.orm.em.fork().transactional(async (em) => void (await em.execute('select 1')))
      await expect(
        db.orm.em.fork().transactional(async (em) => {
          recordEvent(em, 'identity.user.deleted.v1', { userId: crypto.randomUUID() })
          throw new Error('rolled back')
        }),
      ).rejects.toThrow('rolled back')
      // Outside a transaction: the flush commits by itself.
      const em = db.orm.em.fork()
      const outside = recordEvent(em, 'identity.user.deleted.v1', { userId: crypto.randomUUID() })
      await em.flush()
      await vi.waitFor(() => expect(got).toEqual([event.id, outside.id]), { timeout: 2_000 })
    } finally {
      await relay.stop()
      await bus.close()
    }
  })

  it('publishes outside the committing transaction: another ORM’s handler writes to its own database (single-node mode)', async () => {
    const otherDb = await createTestDatabase('server_kit_autokick_other')
    const other = await openDatabase({ service: 'autokick-other', url: otherDb.url, dataDir: '/tmp', entities: [], migrations: [], logger: silentLogger })
    const bus = createInProcessBus()
    const relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 600_000 })
    try {
      await other.orm.em.fork().execute('create table seen (event_id uuid primary key)')
      const handled: string[] = []
      await bus.subscribe('other-service', ['identity.>'], async (e) => {
        // A fork of the other ORM: MikroORM would resolve it to the publisher's transaction if the
        // handler ran in that transaction's async context.
        await other.orm.em.fork().transactional((em) => em.execute('insert into seen (event_id) values (?)', [e.id]))
        handled.push(e.id)
      })
      const event = await db.orm.em.fork().transactional(async (em) => recordEvent(em, 'identity.user.deleted.v1', { userId: crypto.randomUUID() }))
      await vi.waitFor(() => expect(handled).toEqual([event.id]), { timeout: 2_000 })
      expect(await other.orm.em.fork().execute('select event_id from seen')).toEqual([{ event_id: event.id }])
    } finally {
      await relay.stop()
      await bus.close()
      await other.close()
      await otherDb.drop()
    }
  })
})
