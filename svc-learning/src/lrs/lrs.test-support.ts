// Test set-up of the learning record store: cmi5 registrations and sessions inserted directly
// (with a known auth-token), the LRS mounted on a service app of its own with a recording hook,
// statements and an xAPI caller that sends the version header and the credential.
import { randomBytes } from 'node:crypto'
import { createServiceApp } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import type { Harness } from '../harness.test-support.ts'
import { learnerAgent } from './agents.ts'
import { authTokenHash } from './credential.ts'
import { createLrs, type LrsOptions } from './lrs.routes.ts'
import type { LrsHooks } from './lrs.service.ts'
import type { Cmi5SessionCredential, XapiStatement } from './types.ts'

export interface TestSession {
  token: string
  sessionId: string
  registration: string
  userId: string
  moduleId: number
  courseId: number
  auId: string
}

/** A fetched cmi5 session (auth-token set) of `userId`, in a new registration unless given one. */
export async function insertSession(h: Harness, userId: string, opts: { registration?: TestSession; auId?: string } = {}): Promise<TestSession> {
  let reg = opts.registration
  if (!reg) {
    const at = h.now()
    const [course] = await h.sql<{ id: number }>("insert into courses (title, is_assigned_to_all, created_at, updated_at) values ('cmi5 course', true, ?, ?) returning id", [
      at,
      at,
    ])
    const courseId = course!.id
    const [module] = await h.sql<{ id: number }>(
      `insert into course_modules (course_id, title, position, original_name, content_type, size, is_scorm, scorm_version, storage_key, processing_status, created_at, updated_at)
       values (?, 'AUs', 1, 'cmi5.zip', 'application/zip', 0, true, 'cmi5', 'pending', 'ready', ?, ?) returning id`,
      [courseId, at, at],
    )
    const moduleId = module!.id
    const registration = crypto.randomUUID()
    await h.sql('insert into cmi5_registrations (registration, user_id, course_id, module_id, created_at) values (?, ?, ?, ?, ?)', [
      registration,
      userId,
      courseId,
      moduleId,
      h.now(),
    ])
    reg = { token: '', sessionId: '', registration, userId, moduleId, courseId, auId: '' }
  }
  const token = randomBytes(24).toString('base64')
  const sessionId = crypto.randomUUID()
  const auId = opts.auId ?? 'https://au.example.test/au/1'
  await h.sql(
    `insert into cmi5_sessions (session_id, registration, au_id, launch_mode, fetch_token_hash, fetch_used_at, auth_token_hash, created_at, expires_at)
     values (?, ?, ?, 'Normal', ?, ?, ?, ?, ?)`,
    [sessionId, reg.registration, auId, randomBytes(32), h.now(), authTokenHash(token), h.now(), new Date(h.now().getTime() + 3_600_000)],
  )
  return { ...reg, token, sessionId, auId }
}

/** What the recording hook saw, and how it should answer next. */
export interface HookLog {
  calls: { session: Cmi5SessionCredential; statements: XapiStatement[] }[]
  /** Thrown by the next calls (the cmi5 runtime refusing a statement). */
  fail?: Error
}

/**
 * The LRS on a service app of its own (as app.ts mounts it), with a hook that records its calls.
 * `judges` as the cmi5 runtime's (absent: the hook judges every statement, so none takes the hot path).
 */
export function lrsApp(h: Harness, opts: LrsOptions & { judges?: LrsHooks['judges'] } = {}) {
  const { judges, ...lrsOptions } = opts
  const log: HookLog = { calls: [] }
  const hooks: LrsHooks = {
    judges,
    async onStatements(em, session, statements) {
      // Run a query in the transaction, as the cmi5 runtime does, so a failure afterwards proves the rollback.
      await em.execute('select 1')
      log.calls.push({ session, statements })
      if (log.fail) throw log.fail
    },
  }
  const app = createServiceApp({ service: 'learning', logger: silentLogger, maxBodyBytes: 1024 * 1024 })
  app.route('/lrs', createLrs(h.ctx, hooks, { publicPath: '/lrs', ...lrsOptions }))
  return { app, log }
}

export interface XapiAnswer {
  status: number
  headers: Headers
  /** JSON when the answer is JSON, else the text. */
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string
}

/** Calls the LRS as an AU does: version header and `Authorization: Basic <token>` unless told otherwise. */
export function xapiCaller(app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }) {
  return async (
    method: string,
    path: string,
    opts: { token?: string | null; body?: unknown; contentType?: string; headers?: Record<string, string>; version?: string | null } = {},
  ): Promise<XapiAnswer> => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.version !== null) headers['X-Experience-API-Version'] = opts.version ?? '1.0.3'
    if (opts.token) headers.Authorization = `Basic ${opts.token}`
    let body: BodyInit | undefined
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? (opts.body as string) : JSON.stringify(opts.body)
      headers['Content-Type'] = opts.contentType ?? 'application/json'
    }
    const res = await app.request(path, { method, headers, body })
    const text = await res.text()
    let json: unknown = text
    if ((res.headers.get('content-type') ?? '').includes('json') && text) json = JSON.parse(text)
    return { status: res.status, headers: res.headers, body: json, text }
  }
}

export const VERBS = {
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
  experienced: 'http://adlnet.gov/expapi/verbs/experienced',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  terminated: 'http://adlnet.gov/expapi/verbs/terminated',
  voided: 'http://adlnet.gov/expapi/verbs/voided',
}

/** A statement of the session's learner in its registration (no id or timestamp: the LRS fills them). */
export function statementOf(h: Harness, s: TestSession, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    actor: learnerAgent(h.ctx, s.userId),
    verb: { id: VERBS.experienced, display: { 'en-US': 'experienced' } },
    object: { objectType: 'Activity', id: s.auId },
    context: { registration: s.registration, extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/sessionid': s.sessionId } },
    ...over,
  }
}

/** How many statements the LRS holds (of a registration). */
export async function statementCount(h: Harness, registration?: string): Promise<number> {
  const [row] = await h.sql<{ n: string }>(
    registration ? 'select count(*) as n from xapi_statements where registration = ?' : 'select count(*) as n from xapi_statements',
    registration ? [registration] : [],
  )
  return Number(row!.n)
}
