// Shared set-up of notify's route tests: a fresh PostgreSQL database, tokens from a test issuer,
// users announced through identity's events (notify's projection), the learning consumer on an
// in-process bus, a movable clock and a caller of the app.
import { PlatformEnv, createInProcessBus, createTokenIssuer, createTokenVerifier, createUserProjection, loadOrCreateSigningKey, openDatabase, type Actor } from '@portal/server-kit'
import { appCaller, createTestDatabase, silentLogger, sqlOf } from '@portal/server-kit/testing'
import { createApp } from './app.ts'
import { createLearningHandler, subscribeLearning } from './consumers/learning.consumer.ts'
import { createDeliveryRepository } from './deliveries/delivery.repository.ts'
import { learningFacts } from './group-reports/learning-facts.repository.ts'
import { migrationsList } from './migrations/index.ts'
import { USERS_CONSUMER, entities } from './server.ts'

export async function createHarness() {
  const testDb = await createTestDatabase('notify')
  const env = PlatformEnv.parse({ LOG_LEVEL: 'silent' })
  const db = await openDatabase({ service: 'notify', url: testDb.url, dataDir: '/tmp/unused', entities, migrations: migrationsList, logger: silentLogger })
  const key = await loadOrCreateSigningKey(undefined)
  const jwtOpts = { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE }
  const issuer = createTokenIssuer(key, { ...jwtOpts, ttlSeconds: 3600 })
  const verifier = createTokenVerifier(issuer.jwks(), jwtOpts)
  const bus = createInProcessBus()
  let offsetMs = 0
  const clock = () => new Date(Date.now() + offsetMs)
  const { app, ctx } = createApp({ orm: db.orm, verifier, logger: silentLogger, mailbox: null, clock })
  // As in server.ts: identity's user events fill the projection, learning's events the facts.
  const users = createUserProjection({ orm: db.orm, logger: silentLogger, consumer: USERS_CONSUMER, onDeleted: learningFacts.dropUser })
  const deliveries = createDeliveryRepository(db.orm)
  const subscriptions = [await users.subscribe(bus), await subscribeLearning(bus, createLearningHandler({ orm: db.orm, deliveries, logger: silentLogger }))]
  const call = appCaller(app)
  const sql = sqlOf(db.orm)

  /** A signed-in caller with a fresh id, announced the way identity does; `group` puts them in a user group. */
  const user = async (o: { admin?: boolean; name?: string; group?: string | null; known?: boolean } = {}) => {
    const actor: Actor = {
      userId: crypto.randomUUID(),
      email: `${Math.random().toString(36).slice(2, 8)}@acme.test`,
      name: o.name ?? 'Test User',
      isAdmin: Boolean(o.admin),
      isManager: false,
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

  return {
    app,
    ctx,
    orm: db.orm,
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
      for (const s of subscriptions) await s.stop()
      await bus.close()
      await db.close()
      await testDb.drop()
    },
  }
}
export type Harness = Awaited<ReturnType<typeof createHarness>>
export type TestUser = Awaited<ReturnType<Harness['user']>>
