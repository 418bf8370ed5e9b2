// Shared set-up of notify's route tests: a fresh PostgreSQL database, tokens from a test issuer,
// users announced through identity's events (notify's projection), the learning consumer on an
// in-process bus, a movable clock and a caller of the app.
import { PlatformEnv, createInProcessBus, createTokenIssuer, loadOrCreateSigningKey, type Actor } from '@portal/server-kit'
import { appCaller, contractChecker, createTestDatabase, silentLogger, sqlOf } from '@portal/server-kit/testing'
import { notifyService } from './server.ts'

export async function createHarness() {
  const testDb = await createTestDatabase('notify')
  // Mail would go out by SMTP, so the dev mailbox routes answer 404 as in a deployment; no sender
  // runs here (nothing is ever sent to that address).
  const env = PlatformEnv.parse({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/unused', SMTP_URL: 'smtp://127.0.0.1:9' })
  const key = await loadOrCreateSigningKey(undefined)
  const issuer = createTokenIssuer(key, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 3600 })
  const bus = createInProcessBus()
  let offsetMs = 0
  const clock = () => new Date(Date.now() + offsetMs)
  // The service as server.ts wires it (identity's user events fill the projection, learning's
  // events the facts), called in process: nothing served, no sender or scheduler running.
  const service = await notifyService.assemble({ env, logger: silentLogger, bus, jwks: issuer.jwks(), databaseUrl: testDb.url, clock })
  const { app, ctx, rules } = service
  // Every answer the route tests get is checked against the service's OpenAPI document (a contract test).
  const call = appCaller(app, { contract: contractChecker(await (await app.request('/openapi.json')).json()) })
  const sql = sqlOf(service.orm)

  /** A signed-in caller with a fresh id, announced the way identity does; `group` puts them in a user group, `manager` makes them a manager of everything. */
  const user = async (o: { admin?: boolean; manager?: boolean; name?: string; group?: string | null; known?: boolean } = {}) => {
    const actor: Actor = {
      userId: crypto.randomUUID(),
      email: `${Math.random().toString(36).slice(2, 8)}@acme.test`,
      name: o.name ?? 'Test User',
      isAdmin: Boolean(o.admin),
      isManager: Boolean(o.manager),
      managerScope: { branches: [], departments: [] },
    }
    if (o.known !== false)
      await bus.publish({
        id: crypto.randomUUID(),
        type: 'identity.user.registered.v1',
        occurredAt: new Date().toISOString(),
        data: { ...actor, branch: 'Portland', department: 'Service', userGroup: o.group ?? null },
      })
    return { id: actor.userId, actor, token: await issuer.sign(actor) }
  }

  /** The mails queued for a recipient (deliveries not yet sent, since no sender runs here). */
  const queuedTo = async (to: string) =>
    (await sql('select kind, subject, text, html, event_id from email_deliveries where lower(recipient) = lower(?) order by created_at', [to])) as {
      kind: string
      subject: string
      text: string
      html: string
      event_id: string
    }[]

  /** A group as identity announces it (notify makes its rule). */
  const group = async (name: string) => {
    await bus.publish({
      id: crypto.randomUUID(),
      type: 'identity.group.created.v1',
      occurredAt: new Date().toISOString(),
      data: { groupId: crypto.randomUUID(), name, createdAt: new Date().toISOString() },
    })
    const [rule] = await sql<{ id: number }>('select id from notification_rules where user_group = ?', [name])
    if (!rule) throw new Error(`no rule made for ${name}`)
    return rule.id
  }

  /** An event of learning, as its outbox publishes it. */
  const learningEvent = (type: 'learning.exam.submitted.v1' | 'learning.course.completed.v1' | 'learning.course.progressed.v1', data: Record<string, unknown>) =>
    bus.publish({ id: crypto.randomUUID(), type, occurredAt: clock().toISOString(), data })

  return {
    app,
    ctx,
    rules,
    group,
    learningEvent,
    orm: service.orm,
    bus,
    issuer,
    call,
    sql,
    user,
    queuedTo,
    now: clock,
    /** Moves the service's clock forward. */
    advance: (ms: number) => void (offsetMs += ms),
    async close() {
      await service.close()
      await bus.close()
      await testDb.drop()
    },
  }
}
export type Harness = Awaited<ReturnType<typeof createHarness>>
export type TestUser = Awaited<ReturnType<Harness['user']>>
