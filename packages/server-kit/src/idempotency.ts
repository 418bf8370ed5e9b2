import { createHash } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { MikroORM } from '@mikro-orm/postgresql'
import { AppError } from './app-error.ts'
import type { TokenVerifier } from './auth.ts'
import { createBackgroundTask } from './background.ts'
import { clientAddress, ownBodyLimit, type AppEnv } from './http.ts'
import type { Logger } from './logger.ts'

/**
 * Writes sent with an `Idempotency-Key` (the IETF httpapi draft, as Stripe does it): the first is
 * done and its answer kept for 24 hours; a repeat of it is answered with that answer, never done
 * again. What the gateway's retry on another replica and any client's retry rely on.
 *
 * - A key is 1 to 255 visible ASCII characters; another is a 400 `invalid_idempotency_key`.
 * - A key is the caller's own: its record is named by the key, the caller (the bearer token's
 *   subject; for another credential, a hash of it; else the client's address, or "anonymous"),
 *   the method and the path. A bearer token that does not verify is left to the route (its 401);
 *   nothing is recorded.
 * - The request is fingerprinted by the sha-256 of its query string and body (a multipart body
 *   without its boundary, which a client draws anew for each request). A body a route
 *   streams itself (`ownBodyLimit`, e.g. an upload) larger than 1 MiB or of unknown length is not
 *   read: its declared length and type stand for it.
 * - First request: the key is recorded as in progress (one row, `idempotency_keys`), the route
 *   runs, and its answer is kept: status, Content-Type, Location and body.
 * - The same key and fingerprint again: the kept answer, byte for byte, with `Idempotent-Replayed:
 *   true`. While the first still runs: 409 `idempotency_in_progress` (with Retry-After). Another
 *   fingerprint: 422 `idempotency_key_reused`.
 * - A 5xx, 401, 408 or 429 says the request was not done: its record is dropped and a retry runs.
 *   Any other answer is kept.
 * - An answer that is not JSON or text (a file, a stream, SSE), larger than 1 MiB, an attachment,
 *   or one that sets a cookie or says `Cache-Control: no-store` (it carries credentials) is not
 *   kept, but the key stays used: a repeat gets 409 `idempotency_answer_not_kept`, and the write is
 *   not done twice. A new key does it again.
 * - A request in progress for over 15 minutes is taken as lost (its process died); records older
 *   than 24 hours are forgotten, and deleted hourly (`createIdempotencyExpiry`).
 *
 * The pool of an embedded database holds one connection: no connection is held while the route
 * runs, only short queries before and after it.
 */

/** The header. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
/** How long a key's record and answer are kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000
/** The largest answer kept (and the largest streamed body read for the fingerprint). */
export const IDEMPOTENCY_MAX_KEPT_BYTES = 1024 * 1024
/** A request in progress longer than this is taken as lost; longer than any upload may take (`UPLOAD_REQUEST_TIMEOUT_MS`). */
export const IDEMPOTENCY_LOST_AFTER_MS = 15 * 60_000

const KEY = /^[\x21-\x7e]{1,255}$/
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Answers that say the request was not done (its record is dropped, so a retry runs). */
const NOT_DONE = new Set([401, 408, 429])
/** The headers of an answer that are kept and replayed. */
const KEPT_HEADERS = ['content-type', 'location'] as const
const MULTIPART_BOUNDARY = /^\s*multipart\/[^;]*;(?:.*;)?\s*boundary=("[^"]+"|[^;\s]+)/i
const TEXTUAL = /^\s*(application\/([a-z0-9.+-]+\+)?json|text\/(?!event-stream))/i

const inProgress = () => new AppError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is being processed. Try again in a moment.', {}, { 'Retry-After': '1' })

const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex')

interface KeyRecord {
  fingerprint: string
  status: number | null
  kept: boolean
  headers: Record<string, string> | string | null
  body: Uint8Array | null
}

/** Who is asking, as a record's name takes it; undefined for a bearer token that does not verify. */
async function callerOf(c: Context, verify: TokenVerifier): Promise<string | undefined> {
  const authorization = c.req.header('authorization')
  if (authorization) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)
    if (!bearer) return `credential:${sha256(authorization)}`
    try {
      return `user:${(await verify(bearer[1]!)).userId}`
    } catch {
      return undefined
    }
  }
  const address = clientAddress(c)
  return address === 'unknown' ? 'anonymous' : `address:${address}`
}

/**
 * The request's fingerprint: the sha-256 of its query string and body. The body read here is the
 * one the route reads (Hono keeps it; a route reading the raw stream gets the same bytes again).
 */
async function fingerprintOf(c: Context): Promise<string> {
  const query = new URL(c.req.url).search
  const declared = c.req.header('content-length')
  const streamed = matchedRoutes(c).some((r) => r.handler === ownBodyLimit)
  if (streamed && !(declared !== undefined && Number(declared) <= IDEMPOTENCY_MAX_KEPT_BYTES)) {
    // An upload the route streams stays streamed: what it says of itself stands for its bytes.
    return `declared:${sha256(`${query}\n${declared ?? 'unknown'}\n${c.req.header('content-type') ?? ''}`)}`
  }
  const body = new Uint8Array(await c.req.arrayBuffer())
  const raw = c.req.raw
  c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body: body.byteLength ? body : undefined, signal: raw.signal })
  const hash = createHash('sha256').update(query).update('\n')
  // A form sent again is the same request, whatever boundary its client drew this time.
  const boundary = MULTIPART_BOUNDARY.exec(c.req.header('content-type') ?? '')?.[1]
  for (const part of boundary ? splitOn(body, Buffer.from(boundary.replace(/^"|"$/g, ''))) : [body]) hash.update(part).update('\0')
  return hash.digest('hex')
}

/** `bytes` cut at every `separator` (which is left out). */
function splitOn(bytes: Uint8Array, separator: Buffer): Uint8Array[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const parts: Uint8Array[] = []
  let from = 0
  for (let at = buffer.indexOf(separator, from); at !== -1; at = buffer.indexOf(separator, from)) {
    parts.push(buffer.subarray(from, at))
    from = at + separator.length
  }
  parts.push(buffer.subarray(from))
  return parts
}

/** The answer's body, when it is one to keep (see the module's comment); undefined otherwise. */
async function keptBody(res: Response): Promise<Uint8Array | undefined> {
  const h = res.headers
  if (h.has('set-cookie') || /no-store/i.test(h.get('cache-control') ?? '') || /^\s*attachment/i.test(h.get('content-disposition') ?? '')) return undefined
  if (res.body === null) return new Uint8Array()
  if (!TEXTUAL.test(h.get('content-type') ?? '')) return undefined
  if (Number(h.get('content-length') ?? 0) > IDEMPOTENCY_MAX_KEPT_BYTES) return undefined
  const reader = res.clone().body!.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > IDEMPOTENCY_MAX_KEPT_BYTES) {
      // Not awaited: a branch of a tee is cancelled once the other one (the client's) is done.
      void reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, size)
}

const replayHeaders = (stored: KeyRecord['headers']): Record<string, string> => ({
  ...(typeof stored === 'string' ? (JSON.parse(stored) as Record<string, string>) : (stored ?? {})),
  'Idempotent-Replayed': 'true',
})

/** Options of `idempotency`. */
export interface IdempotencyOptions {
  orm: MikroORM
  /** The service's verifier: whose a bearer token is. */
  verifier: TokenVerifier
  logger: Logger
}

/**
 * The middleware (see the module's comment). `defineService` puts it on the app of every service,
 * after the common middleware of `createServiceApp` and before the routes.
 */
export function idempotency(opts: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  const conn = () => opts.orm.em.getConnection()
  // Once per request, should a service mount one app of `createServiceApp` in another.
  const handled = new WeakSet<Context>()

  /** Takes the key for this request: true when it is ours (new, expired or lost), else the record found. */
  const claim = async (
    id: string,
    owner: string,
    fields: { caller: string; key: string; method: string; path: string },
    fingerprint: string,
  ): Promise<KeyRecord | true | undefined> => {
    const taken = (await conn().execute(
      `insert into idempotency_keys (id, caller, key, method, path, fingerprint, owner, created_at)
       values (?, ?, ?, ?, ?, ?, ?, now())
       on conflict (id) do update set fingerprint = excluded.fingerprint, owner = excluded.owner, created_at = excluded.created_at,
         status = null, kept = false, headers = null, body = null
       where idempotency_keys.created_at < now() - (? * interval '1 millisecond')
          or (idempotency_keys.status is null and idempotency_keys.fingerprint = excluded.fingerprint
              and idempotency_keys.created_at < now() - (? * interval '1 millisecond'))
       returning owner`,
      [id, fields.caller, fields.key, fields.method, fields.path, fingerprint, owner, IDEMPOTENCY_TTL_MS, IDEMPOTENCY_LOST_AFTER_MS],
    )) as { owner: string }[]
    if (taken.length) return true
    const [found] = (await conn().execute('select fingerprint, status, kept, headers, body from idempotency_keys where id = ?', [id])) as KeyRecord[]
    return found
  }

  /** Keeps the route's answer for the key, or drops the key when the answer says nothing was done. */
  const settle = async (c: Context, id: string, owner: string) => {
    const status = c.res.status
    if (status >= 500 || NOT_DONE.has(status)) {
      await conn().execute('delete from idempotency_keys where id = ? and owner = ?', [id, owner])
      return
    }
    const body = await keptBody(c.res)
    if (!body) {
      await conn().execute('update idempotency_keys set status = ?, kept = false where id = ? and owner = ?', [status, id, owner])
      return
    }
    const headers: Record<string, string> = {}
    for (const name of KEPT_HEADERS) {
      const value = c.res.headers.get(name)
      if (value !== null) headers[name] = value
    }
    await conn().execute('update idempotency_keys set status = ?, kept = true, headers = ?::jsonb, body = ? where id = ? and owner = ?', [
      status,
      JSON.stringify(headers),
      Buffer.from(body),
      id,
      owner,
    ])
  }

  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_KEY_HEADER)
    if (key === undefined || !WRITES.has(c.req.method) || handled.has(c)) return next()
    handled.add(c)
    if (!KEY.test(key)) throw new AppError(400, 'invalid_idempotency_key', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters, without spaces')
    const caller = await callerOf(c, opts.verifier)
    if (caller === undefined) return next()
    const fingerprint = await fingerprintOf(c)
    const fields = { caller, key, method: c.req.method, path: c.req.path }
    const id = sha256([caller, key, fields.method, fields.path].join('\n'))
    const owner = crypto.randomUUID()
    // A record dropped between the insert and the read (its request failed) is claimed again.
    let found: KeyRecord | true | undefined
    for (let tries = 0; tries < 3 && found === undefined; tries++) found = await claim(id, owner, fields, fingerprint)
    if (found === true) {
      try {
        await next()
      } catch (err) {
        // Hono turns a route's error into its answer before this point; this is a middleware's own failure.
        await conn()
          .execute('delete from idempotency_keys where id = ? and owner = ?', [id, owner])
          .catch(() => undefined)
        throw err
      }
      await settle(c, id, owner).catch((err: unknown) => {
        // The answer still goes out; the key stays in progress until taken as lost.
        c.get('logger').warn('idempotency: the answer could not be kept', { err: err as Error, path: c.req.path })
      })
      return
    }
    if (!found) throw inProgress()
    if (found.fingerprint !== fingerprint)
      throw new AppError(422, 'idempotency_key_reused', 'This Idempotency-Key was used for a different request. Send a new key with a new request.')
    if (found.status === null) throw inProgress()
    if (!found.kept)
      throw new AppError(
        409,
        'idempotency_answer_not_kept',
        'The request with this Idempotency-Key was done, but its answer (a file, or too large) was not kept; it is not done again. Send a new key to do it again.',
      )
    const headers = replayHeaders(found.headers)
    const status = found.status as 200
    return found.body?.byteLength ? c.body(new Uint8Array(found.body), status, headers) : c.body(null, status, headers)
  }
}

/** Deletes the records older than `olderThanMs` (default 24 h); resolves with how many. */
export async function expireIdempotencyKeys(orm: MikroORM, olderThanMs = IDEMPOTENCY_TTL_MS): Promise<number> {
  const result = await orm.em
    .getConnection()
    .execute<{ affectedRows: number }>("delete from idempotency_keys where created_at < now() - (? * interval '1 millisecond')", [olderThanMs], 'run')
  return result.affectedRows
}

/** The hourly chore deleting expired records (one per service instance; a delete on each is harmless). */
export const createIdempotencyExpiry = (opts: { orm: MikroORM; logger: Logger; intervalMs?: number }) =>
  createBackgroundTask({ name: 'idempotency key expiry', logger: opts.logger, intervalMs: opts.intervalMs ?? 3_600_000, pass: () => expireIdempotencyKeys(opts.orm) })
