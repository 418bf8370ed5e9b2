import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jetstream } from '@nats-io/jetstream'
import { addDays, daysUntil, todayIn, type Branch, type Department, type EventData, type EventEnvelope, type EventType } from '@portal/contracts'
import { eventually, startNotifyStack } from '../test-support/index.ts'

// The reminder chain of training that is due (issue 24) on PostgreSQL, NATS JetStream and the SMTP
// receiver: learning's events as its scan raises them, identity's users and certs' configurations
// and pauses as their services announce them, the digest sender running in the background on the
// test's clock (the company's day moves as the test says) with a short settle time.

const TZ = 'America/Los_Angeles'
const SETTLE_MS = 1_000
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const envelope = <T extends EventType>(type: T, data: EventData<T>): EventEnvelope => ({ id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data })
/** Noon of a company day, in its time zone (winter or summer). */
const noonOf = (day: string) => new Date(`${day}T20:00:00.000Z`)

type Person = { userId: string; name: string; email: string }
type Item = { ruleId: number; title: string; kind?: 'course' | 'exam'; dueOn: string }

describe('training-due reminders and digests on PostgreSQL, NATS JetStream and SMTP', () => {
  let stack: Awaited<ReturnType<typeof startNotifyStack>>
  const run = Date.now().toString(36)
  // The company's day of the test: ten days from now, so real pauses "until next year" hold.
  const start = addDays(todayIn(TZ), 10)
  let now = noonOf(start)
  const setDay = (day: string) => (now = noonOf(day))
  const today = () => todayIn(TZ, now)
  let nextRule = 1
  const rule = () => nextRule++

  const person = (name: string): Person => ({ userId: crypto.randomUUID(), name, email: `${name.split(' ')[0]!.toLowerCase()}.${run}@acme.test` })
  const mia = person('Mia Manager')
  const ada = person('Ada Lovelace')
  const bo = person('Bo Portland')
  const cleo = person('Cleo Three')
  const rex = person('Rex Again')
  const eve = person('Eve Done')
  const fay = person('Fay Later')
  const pia = person('Pia Paused')
  const addresses = {
    seattleManager: `seattle-manager.${run}@acme.test`,
    seattleOps: `seattle-ops.${run}@acme.test`,
    staleOps: `stale-ops.${run}@acme.test`,
    portlandManager: `portland-manager.${run}@acme.test`,
    portlandOps: `portland-ops.${run}@acme.test`,
  }

  const sql = async (query: string, params: unknown[] = []) => (await stack.service.orm.em.fork().getConnection().execute(query, params)) as Record<string, unknown>[]
  const publish = (event: EventEnvelope) => stack.bus.publish(event)
  const announce = (p: Person, placement: { branch: Branch; department: Department }, manager?: { branches: Branch[]; departments: Department[] }) =>
    publish(
      envelope('identity.user.registered.v1', {
        ...p,
        isAdmin: false,
        isManager: Boolean(manager),
        managerScope: manager ?? { branches: [], departments: [] },
        ...placement,
        userGroup: null,
      }),
    )
  const config = (configId: number, branch: Branch, department: Department, managerEmail: string, operationsManagerEmail: string, at: string) =>
    publish(envelope('certs.notification-config.changed.v1', { configId, branch, department, managerEmail, operationsManagerEmail, isActive: true, at }))
  /** A reminder step as learning's scan raises it on the test's day. */
  const dueSoon = (p: Person, i: Item, stage: 'before' | 'due') =>
    envelope('learning.assignment.due-soon.v1', {
      ruleId: i.ruleId,
      userId: p.userId,
      itemKind: i.kind ?? 'course',
      itemId: i.ruleId * 10,
      itemTitle: i.title,
      dueOn: i.dueOn,
      on: today(),
      stage,
      daysLeft: daysUntil(i.dueOn, today()),
    })
  const overdue = (p: Person, i: Item, stage: 'overdue' | 'manager' | 'operations') =>
    envelope('learning.assignment.overdue.v1', {
      ruleId: i.ruleId,
      userId: p.userId,
      itemKind: i.kind ?? 'course',
      itemId: i.ruleId * 10,
      itemTitle: i.title,
      dueOn: i.dueOn,
      on: today(),
      stage,
      daysOverdue: -daysUntil(i.dueOn, today()),
    })
  const completed = (p: Person, i: Item, version: number) =>
    envelope('learning.assignment.changed.v1', {
      ruleId: i.ruleId,
      userId: p.userId,
      itemKind: i.kind ?? 'course',
      itemId: i.ruleId * 10,
      itemTitle: i.title,
      assignedOn: addDays(i.dueOn, -30),
      dueOn: i.dueOn,
      opensOn: null,
      completedOn: today(),
      nextDueOn: null,
      nextOpensOn: null,
      exempt: false,
      exemptReason: null,
      dueSoonDays: 7,
      recurring: false,
      removed: false,
      version,
      at: new Date().toISOString(),
    })
  const mails = (to: string) => stack.smtp.to(to)
  /** Waits for the `n`-th mail to `to`, then long enough for a wrong further one to arrive. */
  const nthMail = async (to: string, n: number) => {
    await eventually(() => mails(to).length >= n)
    await sleep(SETTLE_MS + 300)
    expect(mails(to)).toHaveLength(n)
    return mails(to)[n - 1]!
  }
  const reminders = (p: Person) => sql('select rule_id, stage, recipient, status, delivery_id from assignment_reminders where user_id = ? order by id', [p.userId])
  const recorded = (p: Person, n: number) => eventually(async () => (await reminders(p)).length >= n)

  beforeAll(async () => {
    stack = await startNotifyStack('notify_assignments', {
      env: { PUBLIC_URL: 'https://portal.example.com/' },
      clock: () => now,
      digest: { settleMs: SETTLE_MS, timeZone: TZ, intervalMs: 100 },
    })
    const seattle = { branch: 'Seattle', department: 'Service' } as const
    await announce(mia, seattle, { branches: ['Seattle'], departments: [] })
    for (const p of [ada, cleo, rex, eve, fay, pia]) await announce(p, seattle)
    await announce(bo, { branch: 'Portland', department: 'Testing' })
    const earlier = new Date(Date.now() - 60_000).toISOString()
    await config(1, 'Seattle', 'Service', addresses.seattleManager, addresses.seattleOps, new Date().toISOString())
    await config(2, 'Portland', 'Testing', addresses.portlandManager, addresses.portlandOps, new Date().toISOString())
    // An older state of configuration 1, delivered late: the latest `at` wins.
    await config(1, 'Seattle', 'Service', addresses.seattleManager, addresses.staleOps, earlier)
    await eventually(async () => (await sql('select 1 from users')).length === 8)
    await eventually(async () => (await sql('select 1 from inbox where consumer = ?', ['notify-certs-configs'])).length === 3)
  })

  afterAll(async () => {
    await stack?.close()
  })

  it('reminds the learner before the due date, on the day and after it, in one digest a day', async () => {
    const item = { ruleId: rule(), title: 'Ladder Safety', dueOn: addDays(start, 7) }
    await publish(dueSoon(ada, item, 'before'))
    const before = await nthMail(ada.email, 1)
    expect(before.subject).toBe('Training due: 1 item')
    expect(before.text).toContain('Hello Ada Lovelace,')
    expect(before.text).toContain('- Ladder Safety (course), due ')
    expect(before.text).toContain(': due in 7 days')
    expect(before.html).toContain('href="https://portal.example.com/user-dashboard"')

    setDay(item.dueOn)
    await publish(dueSoon(ada, item, 'due'))
    expect((await nthMail(ada.email, 2)).text).toContain(': due today')

    setDay(addDays(item.dueOn, 1))
    await publish(overdue(ada, item, 'overdue'))
    const after = await nthMail(ada.email, 3)
    expect(after.text).toContain(': 1 day overdue')
    expect((await reminders(ada)).map((r) => [r.stage, r.status])).toEqual([
      ['before', 'sent'],
      ['due', 'sent'],
      ['overdue', 'sent'],
    ])
  })

  it("copies the learner's managers, or else the branch's manager address, and then the branch's operations address", async () => {
    const item = { ruleId: 1, title: 'Ladder Safety', dueOn: addDays(start, 7) }
    const boItem = { ruleId: rule(), title: 'Arc Flash', kind: 'exam' as const, dueOn: addDays(start, 7) }
    setDay(addDays(item.dueOn, 7))
    await publish(overdue(ada, item, 'manager'))
    await publish(overdue(bo, boItem, 'manager'))
    const copy = await nthMail(mia.email, 1)
    expect(copy.subject).toBe('Overdue training in your team: 1 item')
    expect(copy.text).toContain('- Ada Lovelace: Ladder Safety (course), due ')
    expect(copy.text).toContain(`: 7 days overdue (https://portal.example.com/manager/technician/${ada.userId})`)
    expect(copy.html).toContain(`href="https://portal.example.com/manager/technician/${ada.userId}"`)
    expect(copy.html).toContain('href="https://portal.example.com/manager/dashboard"')
    // No manager covers Bo in Portland: his branch configuration's manager address is told.
    const fallback = await nthMail(addresses.portlandManager, 1)
    expect(fallback.text).toContain('- Bo Portland: Arc Flash (exam)')
    expect(mails(addresses.seattleManager)).toHaveLength(0)

    setDay(addDays(item.dueOn, 14))
    await publish(overdue(ada, item, 'operations'))
    const ops = await nthMail(addresses.seattleOps, 1)
    expect(ops.subject).toBe('Overdue training in your team: 1 item')
    expect(ops.text).toContain('- Ada Lovelace: Ladder Safety (course)')
    expect(ops.text).toContain(': 14 days overdue')
    expect(mails(addresses.staleOps)).toHaveLength(0)
    expect(mails(ada.email)).toHaveLength(3)
    expect(mails(mia.email)).toHaveLength(1)
  })

  it('puts three items of one learner and day in one e-mail, and a second run that day sends nothing', async () => {
    setDay(addDays(start, 30))
    const items = [
      { ruleId: rule(), title: 'Confined Spaces', dueOn: addDays(today(), 7) },
      { ruleId: rule(), title: 'Fall Protection', kind: 'exam' as const, dueOn: addDays(today(), 3) },
      { ruleId: rule(), title: 'First Aid', dueOn: today() },
    ]
    await publish(dueSoon(cleo, items[0]!, 'before'))
    await publish(dueSoon(cleo, items[1]!, 'before'))
    await publish(dueSoon(cleo, items[2]!, 'due'))
    const mail = await nthMail(cleo.email, 1)
    expect(mail.subject).toBe('Training due: 3 items')
    expect((mail.text ?? '').split('\n').filter((l) => l.startsWith('- '))).toEqual([
      expect.stringMatching(/^- First Aid \(course\), due .*: due today$/),
      expect.stringMatching(/^- Fall Protection \(exam\), due .*: due in 3 days$/),
      expect.stringMatching(/^- Confined Spaces \(course\), due .*: due in 7 days$/),
    ])
    const rows = await reminders(cleo)
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent'])
    expect(new Set(rows.map((r) => r.delivery_id)).size).toBe(1)
    expect(await stack.service.digests.runDue(now)).toBe(0)
    expect(await stack.service.digests.runDue(now)).toBe(0)
    await sleep(500)
    expect(mails(cleo.email)).toHaveLength(1)
    expect(await sql('select day::text from assignment_digests where recipient = ?', [cleo.email])).toEqual([{ day: today() }])
    expect(await sql('select status from email_deliveries where recipient = ?', [cleo.email])).toEqual([{ status: 'sent' }])
  })

  it('sends nothing more for a redelivered event or a second copy of it raised under another id', async () => {
    setDay(addDays(start, 40))
    const item = { ruleId: rule(), title: 'Scaffolds', dueOn: addDays(today(), 7) }
    const event = dueSoon(rex, item, 'before')
    await publish(event)
    // Stored again under another message id (only the inbox stands in the way) and raised again by another instance (the unique key).
    await jetstream(stack.bus.connection).publish(stack.prefix + event.type, JSON.stringify(event), { msgID: crypto.randomUUID() })
    await publish({ ...event, id: crypto.randomUUID() })
    const mail = await nthMail(rex.email, 1)
    expect(mail.subject).toBe('Training due: 1 item')
    // The same step once more after its digest went out, and the next day: nothing.
    await publish({ ...event, id: crypto.randomUUID() })
    await sleep(500)
    setDay(addDays(today(), 1))
    await sleep(SETTLE_MS + 300)
    expect(await stack.service.digests.runDue(now)).toBe(0)
    expect(mails(rex.email)).toHaveLength(1)
    expect(await reminders(rex)).toHaveLength(1)
  })

  it('stops the chain when the learner completes: nothing for that item afterwards, pending reminders cancelled at once', async () => {
    setDay(addDays(start, 50))
    const item = { ruleId: rule(), title: 'Lockout/Tagout', dueOn: addDays(today(), 7) }
    await publish(dueSoon(eve, item, 'before'))
    await nthMail(eve.email, 1)
    setDay(addDays(today(), 2))
    await publish(completed(eve, item, 2))
    await eventually(async () => (await sql('select 1 from assignment_facts where user_id = ? and completed_on is not null', [eve.userId])).length > 0)
    // A later step raised anyway (a scan racing the completion) is recorded as cancelled.
    setDay(item.dueOn)
    await publish(dueSoon(eve, item, 'due'))
    await recorded(eve, 2)
    await sleep(SETTLE_MS + 300)
    expect(mails(eve.email)).toHaveLength(1)
    expect((await reminders(eve)).map((r) => r.status)).toEqual(['sent', 'cancelled'])

    // Fay's digest of the day went out; two more items that day wait for the next day's, and
    // completing one of them meanwhile takes it out.
    setDay(addDays(start, 60))
    const first = { ruleId: rule(), title: 'Hazard Communication', dueOn: addDays(today(), 7) }
    const done = { ruleId: rule(), title: 'Silica Awareness', dueOn: addDays(today(), 5) }
    const open = { ruleId: rule(), title: 'Trenching', dueOn: addDays(today(), 6) }
    await publish(dueSoon(fay, first, 'before'))
    await nthMail(fay.email, 1)
    await publish(dueSoon(fay, done, 'before'))
    await publish(dueSoon(fay, open, 'before'))
    await recorded(fay, 3)
    await sleep(SETTLE_MS + 300)
    expect(mails(fay.email)).toHaveLength(1)
    await publish(completed(fay, done, 3))
    await eventually(async () => (await reminders(fay)).some((r) => r.status === 'cancelled'))
    setDay(addDays(today(), 1))
    const next = await nthMail(fay.email, 2)
    expect(next.subject).toBe('Training due: 1 item')
    expect(next.text).toContain('Trenching')
    expect(next.text).not.toContain('Silica Awareness')
    expect((await reminders(fay)).map((r) => [r.rule_id, r.status])).toEqual([
      [first.ruleId, 'sent'],
      [done.ruleId, 'cancelled'],
      [open.ruleId, 'sent'],
    ])
  })

  it("sends a paused learner nothing, while their manager's copy still goes; resumed, they are reminded again", async () => {
    setDay(addDays(start, 70))
    const item = { ruleId: rule(), title: 'Forklift', dueOn: addDays(today(), 7) }
    const pausedAt = new Date(Date.now() - 1_000).toISOString()
    await publish(envelope('certs.notification-pause.changed.v1', { userId: pia.userId, pausedUntil: new Date(Date.now() + 365 * 86_400_000).toISOString(), at: pausedAt }))
    await eventually(async () => (await sql('select 1 from notification_pauses where user_id = ?', [pia.userId])).length > 0)
    await publish(dueSoon(pia, item, 'before'))
    await recorded(pia, 1)
    await sleep(SETTLE_MS + 300)
    expect(mails(pia.email)).toHaveLength(0)
    expect((await reminders(pia)).map((r) => r.status)).toEqual(['paused'])

    setDay(addDays(item.dueOn, 7))
    await publish(overdue(pia, item, 'overdue'))
    await publish(overdue(pia, item, 'manager'))
    const copy = await nthMail(mia.email, 2)
    expect(copy.text).toContain('- Pia Paused: Forklift (course)')
    expect(mails(pia.email)).toHaveLength(0)

    // Resumed (a late copy of the older pause changes nothing): the next step reaches her.
    await publish(envelope('certs.notification-pause.changed.v1', { userId: pia.userId, pausedUntil: null, at: new Date().toISOString() }))
    await eventually(async () => (await sql('select 1 from notification_pauses where user_id = ? and paused_until is null', [pia.userId])).length > 0)
    await publish(envelope('certs.notification-pause.changed.v1', { userId: pia.userId, pausedUntil: new Date(Date.now() + 86_400_000).toISOString(), at: pausedAt }))
    await sleep(300)
    const later = { ruleId: rule(), title: 'Aerial Lifts', dueOn: addDays(today(), 1) }
    await publish(dueSoon(pia, later, 'before'))
    const mail = await nthMail(pia.email, 1)
    expect(mail.text).toContain('Aerial Lifts')
    expect(mail.text).not.toContain('Forklift')
  })
})
