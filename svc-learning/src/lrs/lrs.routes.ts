import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { AppError, badRequest, doc, documented, ownBodyLimit, readBodyText, unauthorized, validate, validationFailed, type AppEnv } from '@portal/server-kit'
import { z } from 'zod'
import type { LearningContext } from '../context.ts'
import { sessionCredentials } from './credential.ts'
import { createLrsService, LRS_MAX_BODY_BYTES, type DocumentResource, type LrsHooks } from './lrs.service.ts'
import { ActivityProfileQuery, AgentProfileQuery, StateQuery, StatementIdQuery, StatementsQuery } from './schemas.ts'
import type { Cmi5SessionCredential } from './types.ts'

export const XAPI_VERSION = '1.0.3'

/** The LRS's credential in the OpenAPI document: the launch's auth-token as HTTP Basic. */
export const LRS_SECURITY_SCHEME = 'lrsAuthToken'
const tags = ['Learning record store (xAPI)']
const roles = "the AU holding its session's auth-token (its learner and registration only)"
/** xAPI objects are the spec's (xAPI 1.0.3 §2); the document names their envelope only. */
const XapiObject = z.looseObject({})
const StatementResult = z.object({ statements: z.array(XapiObject), more: z.string() })
const documentBody = { media: 'application/json', description: 'The document (any content type; JSON documents are merged by POST)' }

type LrsEnv = { Variables: AppEnv['Variables'] & { session: Cmi5SessionCredential; authToken: string } }

export interface LrsOptions {
  /** The LRS's path as AUs reach it (the `more` URLs of statement pages): default `/api/lrs`. */
  publicPath?: string
  /** How long a session looked up by its auth-token is reused (ms); default 5 s. */
  credentialTtlMs?: number
}

/** Version header of every answer; requests must say they speak xAPI 1.0.x (the About resource excepted). */
const xapiVersion: MiddlewareHandler<LrsEnv> = async (c, next) => {
  if (c.req.method !== 'OPTIONS' && !c.req.path.endsWith('/about') && !/^1\.0(\.\d+)?$/.test(c.req.header('x-experience-api-version') ?? '')) {
    c.header('X-Experience-API-Version', XAPI_VERSION)
    return c.json({ message: 'Send X-Experience-API-Version: 1.0.3 (this LRS speaks xAPI 1.0.x)', code: 'xapi_version' }, 400)
  }
  await next()
  c.header('X-Experience-API-Version', XAPI_VERSION)
}

/** A document's body (bytes, up to 1 MB: 413 beyond, nothing stored). */
async function readDocument(c: Context): Promise<Buffer> {
  const declared = Number(c.req.header('content-length') ?? NaN)
  if (declared > LRS_MAX_BODY_BYTES) throw new AppError(413, 'payload_too_large', 'Documents are limited to 1 MB')
  const body = Buffer.from(await c.req.arrayBuffer())
  if (body.length > LRS_MAX_BODY_BYTES) throw new AppError(413, 'payload_too_large', 'Documents are limited to 1 MB')
  return body
}

/** A statements body (text, up to 1 MB), as JSON only (attachments in multipart are not taken). */
async function readStatements(c: Context): Promise<string> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'multipart/mixed')
    throw badRequest('Statements with attachments in multipart/mixed are not supported: send JSON (attachments by fileUrl)', 'attachments_unsupported')
  if (type !== 'application/json') throw new AppError(415, 'unsupported_media_type', 'Send statements as JSON (Content-Type: application/json)')
  try {
    return await readBodyText(c, LRS_MAX_BODY_BYTES)
  } catch (err) {
    if (err instanceof AppError && err.status === 413) throw new AppError(413, 'payload_too_large', 'Statement bodies are limited to 1 MB')
    throw err
  }
}

/** A query string checked outside `validate` (routes that read their body by hand): 400 `validation_failed`. */
function queryOf<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const parsed = schema.safeParse(c.req.query())
  if (!parsed.success) throw validationFailed(parsed.error)
  return parsed.data
}

const DOCUMENT_ID: Record<DocumentResource, 'stateId' | 'profileId'> = { state: 'stateId', activity_profile: 'profileId', agent_profile: 'profileId' }

/**
 * `/lrs`: the xAPI 1.0.3 learning record store for cmi5 AUs (decision 0053). Credential: the
 * session's auth-token (`Authorization: Basic <token>`), scoped to its learner and registration.
 * CORS is open (no cookies: AUs may be hosted elsewhere). `hooks.onStatements` (the cmi5 runtime)
 * runs in each statement insert's transaction.
 */
export function createLrs(ctx: LearningContext, hooks: LrsHooks, opts: LrsOptions = {}) {
  const svc = createLrsService(ctx, hooks)
  const credentials = sessionCredentials(ctx.orm, { ttlMs: opts.credentialTtlMs })
  const publicPath = (opts.publicPath ?? '/api/lrs').replace(/\/$/, '')

  const auth: MiddlewareHandler<LrsEnv> = async (c, next) => {
    const m = /^Basic\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
    if (!m) throw unauthorized('Send the auth-token of the launch: Authorization: Basic <auth-token>', 'lrs_credential_missing')
    const session = await credentials.lookup(m[1]!)
    if (!session) throw unauthorized('This auth-token is unknown (or was never fetched)', 'lrs_credential_invalid')
    if (session.terminatedAt || session.abandonedAt)
      throw new AppError(403, 'session_ended', 'This session has ended (Terminated or abandoned): its auth-token is no longer accepted')
    c.set('session', session)
    c.set('authToken', m[1]!)
    await next()
  }

  /** After statements were stored: a Terminated one ends the session for this instance's cache at once. */
  const afterStore = (c: Context<LrsEnv>, out: { terminated: boolean }) => {
    if (out.terminated) credentials.ended(c.get('authToken'), ctx.now())
  }

  const documents = (kind: DocumentResource, schema: typeof StateQuery | typeof ActivityProfileQuery | typeof AgentProfileQuery) => {
    const idKey = DOCUMENT_ID[kind]
    const idOf = (q: Record<string, unknown>) => (q[idKey] as string | undefined) ?? null
    const write = (method: 'PUT' | 'POST') => async (c: Context<LrsEnv>) => {
      const q = queryOf(c, schema) as Record<string, string | undefined>
      const id = idOf(q)
      if (!id) throw badRequest(`${idKey} is required`, 'validation_failed')
      const content = await readDocument(c)
      await svc.writeDocument(c.get('session'), kind, q, id, {
        method,
        content,
        contentType: (c.req.header('content-type') ?? 'application/octet-stream').trim(),
        ifMatch: c.req.header('if-match'),
        ifNoneMatch: c.req.header('if-none-match'),
      })
      return c.body(null, 204)
    }
    return new Hono<LrsEnv>()
      .get(
        '/',
        doc({
          summary: `A ${kind.replace('_', ' ')} document, or the ids of them`,
          tags,
          roles,
          responses: {
            200: { media: 'application/json', schema: z.array(z.string()), description: 'The ids (no id asked), or the stored document with its own content type' },
            404: null,
          },
        }),
        validate('query', schema),
        async (c) => {
          const q = c.req.valid('query') as Record<string, string | undefined>
          const session = c.get('session')
          const id = idOf(q)
          if (id === null) return c.json(await svc.listDocumentIds(session, kind, q))
          const doc = await svc.getDocument(session, kind, q, id)
          if (!doc) throw new AppError(404, 'document_not_found', 'No document has this id')
          c.header('ETag', `"${doc.etag}"`)
          c.header('Last-Modified', doc.updated.toUTCString())
          c.header('Content-Type', doc.contentType)
          return c.body(new Uint8Array(doc.content), 200)
        },
      )
      .put(
        '/',
        doc({ summary: `Stores a ${kind.replace('_', ' ')} document`, tags, roles, query: schema, body: documentBody, responses: { 204: null, 409: null, 412: null } }),
        ownBodyLimit,
        write('PUT'),
      )
      .post(
        '/',
        doc({ summary: `Stores or merges a ${kind.replace('_', ' ')} document`, tags, roles, query: schema, body: documentBody, responses: { 204: null, 409: null, 412: null } }),
        ownBodyLimit,
        write('POST'),
      )
      .delete('/', doc({ summary: `Deletes ${kind.replace('_', ' ')} documents`, tags, roles, responses: { 204: null, 412: null } }), validate('query', schema), async (c) => {
        const q = c.req.valid('query') as Record<string, string | undefined>
        const id = idOf(q)
        if (id === null && kind !== 'state') throw badRequest(`${idKey} is required`, 'validation_failed')
        await svc.deleteDocument(c.get('session'), kind, q, id, c.req.header('if-match'))
        return c.body(null, 204)
      })
  }

  const statements = new Hono<LrsEnv>()
    // The hot path: the body is read by hand (`ownBodyLimit`, `readBodyText`), one cached session
    // lookup, one insert transaction.
    .post(
      '/',
      doc({
        summary: 'Stores statements',
        tags,
        roles,
        body: { media: 'application/json', schema: XapiObject.or(z.array(XapiObject)), description: 'A statement or an array of them' },
        responses: { 200: z.array(z.string()), 409: null },
      }),
      ownBodyLimit,
      async (c) => {
        const body = await readStatements(c)
        const out = await svc.postStatements(c.get('session'), body)
        afterStore(c, out)
        return c.json(out.ids)
      },
    )
    .put(
      '/',
      doc({
        summary: 'Stores one statement under the id given',
        tags,
        roles,
        query: StatementIdQuery,
        body: { media: 'application/json', schema: XapiObject },
        responses: { 204: null, 409: null },
      }),
      ownBodyLimit,
      async (c) => {
        const { statementId } = queryOf(c, StatementIdQuery)
        const body = await readStatements(c)
        afterStore(c, await svc.putStatement(c.get('session'), statementId, body))
        return c.body(null, 204)
      },
    )
    .get(
      '/',
      doc({ summary: "The session's statements, or one statement", tags, roles, responses: { 200: StatementResult.or(XapiObject), 404: null } }),
      validate('query', StatementsQuery),
      async (c) => {
        const q = c.req.valid('query')
        const session = c.get('session')
        c.header('X-Experience-API-Consistent-Through', ctx.now().toISOString())
        const single = q.statementId ?? q.voidedStatementId
        if (single !== undefined) {
          const others = Object.keys(q).filter((k) => !['statementId', 'voidedStatementId', 'format', 'attachments'].includes(k))
          if ((q.statementId && q.voidedStatementId) || others.length > 0)
            throw badRequest('statementId and voidedStatementId take no other filters (only format and attachments)', 'validation_failed')
          return c.json(await svc.getStatement(session, single, q.voidedStatementId !== undefined))
        }
        const page = await svc.queryStatements(session, q)
        let more = ''
        if (page.more && page.last) {
          const params = new URLSearchParams(c.req.query())
          params.set('cursor', page.last)
          more = `${publicPath}/statements?${params.toString()}`
        }
        return c.json({ statements: page.statements, more })
      },
    )

  return new Hono<LrsEnv>()
    .use(
      '*',
      cors({
        origin: '*',
        allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS'],
        allowHeaders: ['Authorization', 'Content-Type', 'X-Experience-API-Version', 'If-Match', 'If-None-Match'],
        exposeHeaders: ['ETag', 'Last-Modified', 'X-Experience-API-Version', 'X-Experience-API-Consistent-Through'],
        maxAge: 600,
      }),
    )
    .use('*', xapiVersion)
    .get(
      '/about',
      doc({ summary: 'The xAPI versions the LRS speaks', tags, roles: 'anyone (no credential)', responses: { 200: z.object({ version: z.array(z.string()) }) } }),
      (c) => c.json({ version: [XAPI_VERSION] }),
    )
    .use(
      '*',
      documented(auth, {
        security: [{ [LRS_SECURITY_SCHEME]: [] }],
        responses: {
          401: { description: 'No valid auth-token', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          403: { description: 'The session has ended', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      }),
    )
    .route('/statements', statements)
    .route('/activities/state', documents('state', StateQuery))
    .route('/activities/profile', documents('activity_profile', ActivityProfileQuery))
    .route('/agents/profile', documents('agent_profile', AgentProfileQuery))
}
