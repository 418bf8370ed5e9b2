// Shared set-up of certs' route tests: a fresh PostgreSQL database, a local proof folder, tokens
// from a test issuer, users registered through identity's event (the projection), a movable clock
// and helpers to call the app, upload multipart forms and read the outbox.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addDays, todayIn, type Branch, type CertificationTypeInput, type Department, type ManagerScope, type TierLevel } from '@portal/contracts'
import { PlatformEnv, createInProcessBus, createLocalStorage, createTokenIssuer, loadOrCreateSigningKey, type Actor, type Storage } from '@portal/server-kit'
import { appCaller, contractChecker, createTestDatabase, outboxEvents, silentLogger, sqlOf } from '@portal/server-kit/testing'
import type { AppDeps } from './app.ts'
import { DEFAULT_SCHEDULE } from './notifications/notification.runner.ts'
import { certsService } from './server.ts'

/** `timeZone`: the company's (default UTC, the date the tests compute with). */
export async function createHarness(opts: { storage?: Storage; runs?: AppDeps['runs']; timeZone?: string } = {}) {
  const timeZone = opts.timeZone ?? 'UTC'
  const testDb = await createTestDatabase('certs')
  const env = PlatformEnv.parse({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/unused', PUBLIC_URL: 'http://portal.test' })
  const key = await loadOrCreateSigningKey(undefined)
  const issuer = createTokenIssuer(key, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 3600 })
  const bus = createInProcessBus()
  let offsetMs = 0
  const clock = () => new Date(Date.now() + offsetMs)
  const storageDir = await mkdtemp(join(tmpdir(), 'certs-storage-'))
  // The service as server.ts wires it (identity's user events fill the users projection; notify's
  // outcomes the log), called in process: nothing served, no job running (tests drive them).
  const service = await certsService.assemble({
    env,
    logger: silentLogger,
    bus,
    jwks: issuer.jwks(),
    databaseUrl: testDb.url,
    clock,
    storage: opts.storage ?? createLocalStorage(storageDir),
    // "Today" of every figure and of the notification runs: UTC unless a test names the company's zone.
    schedule: { ...DEFAULT_SCHEDULE, enabled: false, timeZone },
    runs: opts.runs,
  })
  const { app, ctx, runner, users, garbage, relay, storage } = service

  // Every answer the route tests get is checked against the service's OpenAPI document (a contract test).
  const contract = contractChecker(await (await app.request('/openapi.json')).json())
  const call = appCaller(app, { contract })
  const parse = (text: string) => {
    try {
      return text ? JSON.parse(text) : undefined
    } catch {
      return text
    }
  }

  /** Posts a multipart form: text fields, and files as `[field, name, bytes]`. */
  const upload = async (path: string, token: string | undefined, fields: Record<string, string>, files: [string, string, Uint8Array][] = []) => {
    const form = new FormData()
    for (const [k, v] of Object.entries(fields)) form.append(k, v)
    for (const [field, name, bytes] of files) form.append(field, new Blob([new Uint8Array(bytes)]), name)
    const res = await app.request(path, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {}, body: form })
    const answer = { status: res.status, body: parse(await res.text()), headers: res.headers }
    contract.assert('POST', path, answer)
    return answer
  }

  /** GET returning the raw bytes. */
  const download = async (path: string, token?: string) => {
    const res = await app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} })
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
  }

  const sql = sqlOf(service.orm)
  const events = (type?: string) => outboxEvents(sql, type)

  /**
   * A signed-in caller with a fresh id, announced the way identity does (so the projection knows
   * them); `manager` makes them a manager with that scope; `known: false` leaves them out of it.
   */
  const user = async (
    o: {
      admin?: boolean
      name?: string
      manager?: ManagerScope
      branch?: Branch | null
      department?: Department | null
      employeeId?: string | null
      hireDate?: string | null
      known?: boolean
    } = {},
  ) => {
    const actor: Actor = {
      userId: crypto.randomUUID(),
      email: `${Math.random().toString(36).slice(2, 8)}@acme.test`,
      name: o.name ?? 'Test User',
      isAdmin: Boolean(o.admin),
      isManager: Boolean(o.manager),
      managerScope: o.manager ?? { branches: [], departments: [] },
    }
    if (o.known !== false)
      await bus.publish({
        id: crypto.randomUUID(),
        type: 'identity.user.registered.v1',
        occurredAt: new Date().toISOString(),
        data: {
          ...actor,
          branch: o.branch === undefined ? 'Portland' : o.branch,
          department: o.department === undefined ? 'Service' : o.department,
          userGroup: null,
          employeeId: o.employeeId ?? null,
          hireDate: o.hireDate ?? null,
        },
      })
    return { id: actor.userId, actor, token: await issuer.sign(actor) }
  }

  let codes = 0
  /** A certification type made through the admin API; `over` replaces fields. */
  const type = async (admin: { token: string }, over: Partial<CertificationTypeInput> = {}) => {
    const res = await call('POST', '/admin/certifications', {
      token: admin.token,
      body: { name: `Type ${++codes}`, code: `T-${codes}-${Math.random().toString(36).slice(2, 6)}`, tier_level: 0 as TierLevel, validity_period: 24, ...over },
    })
    if (res.status !== 201) throw new Error(`type not created: ${JSON.stringify(res.body)}`)
    return res.body.certification as { id: number; code: string; name: string }
  }

  return {
    app,
    ctx,
    orm: service.orm,
    bus,
    relay,
    storage,
    storageDir,
    garbage,
    issuer,
    users,
    call,
    upload,
    download,
    sql,
    events,
    user,
    type,
    now: clock,
    /** The date `days` from the service's today (the company's date), `YYYY-MM-DD`. */
    daysFromToday: (days: number) => addDays(todayIn(timeZone, clock()), days),
    /** Moves the service's clock forward. */
    advance: (ms: number) => void (offsetMs += ms),
    /** Sets the service's clock to `instant` (it runs on from there). */
    setNow: (instant: Date) => void (offsetMs = instant.getTime() - Date.now()),
    runner,
    async close() {
      await service.close()
      await bus.close()
      await testDb.drop()
      await rm(storageDir, { recursive: true, force: true })
    },
  }
}
export type Harness = Awaited<ReturnType<typeof createHarness>>
export type TestUser = Awaited<ReturnType<Harness['user']>>

/** Small valid files of each accepted kind, and some that are not. */
export const FILES = {
  pdf: Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  /** A Windows executable's header. */
  exe: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]),
}
