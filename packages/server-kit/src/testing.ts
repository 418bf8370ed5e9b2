import { createServer } from 'node:net'
import pg from 'pg'
import { createLogger } from './logger.ts'
import type { ContractChecker } from './openapi-contract.ts'

export * from './openapi-contract.ts'

/** Server the integration tests use (the machine's PostgreSQL). */
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
/** NATS with JetStream the integration tests use. */
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222'

export const silentLogger = createLogger('test', 'silent')

/** A TCP port free on the loopback interface right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })

/** A fresh, uniquely named database on the test server; `drop()` removes it. */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${prefix.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client({ connectionString: TEST_PG_URL })
  await admin.connect()
  await admin.query(`create database "${name}"`)
  await admin.end()
  const url = new URL(TEST_PG_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_PG_URL })
      await c.connect()
      await c.query(`drop database if exists "${name}" with (force)`)
      await c.end()
    },
  }
}

/** A unique name for test-owned NATS streams and consumers. */
export const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`.toUpperCase()

/** An S3-compatible server for tests (s3rver, in this process) with one empty bucket. */
export interface TestS3 {
  options: { endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: true }
  close(): Promise<void>
}

/** Starts s3rver on a free port with a fresh bucket; `close()` stops it and removes its files. */
export async function startTestS3(): Promise<TestS3> {
  const { mkdtemp, rm } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  // Loaded on demand: only storage tests need it.
  const { default: S3rver } = (await import('s3rver' as string)) as {
    default: new (opts: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> }
  }
  const dir = await mkdtemp(join(tmpdir(), 's3rver-'))
  const bucket = 'portal-test'
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] })
  const { port } = await server.run()
  return {
    // s3rver accepts these fixed credentials.
    options: { endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
    async close() {
      await server.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * JSON as a test reads it (an answer's body, a row, an event's data): any field, each checked by the
 * test's own assertions, so the services' route and repository tests need no casts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads JSON it asserts on; typing it would only add casts
type TestJson = any

/** A JSON body parsed, or the text when it is not JSON (or undefined when empty). */
const parseBody = (text: string): TestJson => {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return text
  }
}

/**
 * Calls a service's Hono app as route tests do: a JSON body (or `raw` text), a bearer token, the
 * answer's status, parsed body and headers.
 */
export function appCaller(app: { request(path: string, init?: RequestInit): Response | Promise<Response> }, opts: { contract?: ContractChecker } = {}) {
  return async (method: string, path: string, o: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...o.headers }
    if (o.token) headers.authorization = `Bearer ${o.token}`
    let body: string | undefined
    if (o.raw !== undefined || o.body !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = o.raw ?? JSON.stringify(o.body)
    }
    const res = await app.request(path, { method, headers, body })
    const answer = { status: res.status, body: parseBody(await res.text()), headers: res.headers }
    // A contract test: every answer the route tests get must fit the service's OpenAPI document.
    opts.contract?.assert(method, path, answer)
    return answer
  }
}

/** `appCaller` answering status and body only, for tests that compare the whole answer. */
export function appStatusCaller(app: Parameters<typeof appCaller>[0], opts: Parameters<typeof appCaller>[1] = {}) {
  const caller = appCaller(app, opts)
  return async (...args: Parameters<typeof caller>) => {
    const { status, body } = await caller(...args)
    return { status, body }
  }
}

/** Runs SQL on a service's database (its ORM's connection). */
export const sqlOf =
  (orm: { em: { getConnection(): { execute(sql: string, params?: unknown[]): Promise<unknown> } } }) =>
  async <T = Record<string, TestJson>>(query: string, params: unknown[] = []) =>
    (await orm.em.getConnection().execute(query, params)) as T[]

/** The events in a service's outbox (of one type, when given), in the order they were recorded. */
export async function outboxEvents(sql: ReturnType<typeof sqlOf>, type?: string) {
  const rows = await sql<{ payload: unknown }>(type ? 'select payload from outbox where type = ? order by seq' : 'select payload from outbox order by seq', type ? [type] : [])
  return rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as { id: string; type: string; occurredAt: string; data: TestJson })
}

/** Bodies no route can read: garbage under each content type a client may claim, and under none. */
export const MALFORMED_BODIES: readonly { name: string; contentType?: string; body: string }[] = [
  { name: 'multipart type, JSON body', contentType: 'multipart/form-data; boundary=----fuzz', body: '{"token":"x"}' },
  { name: 'multipart type without a boundary', contentType: 'multipart/form-data', body: 'token=x' },
  { name: 'multipart cut short', contentType: 'multipart/form-data; boundary=fuzz', body: '--fuzz\r\nContent-Disposition: form-data; name="token"\r\n\r\nx' },
  { name: 'multipart part without headers', contentType: 'multipart/form-data; boundary=fuzz', body: '--fuzz\r\ngarbage\r\n--fuzz--\r\n' },
  {
    name: 'multipart file cut short',
    contentType: 'multipart/form-data; boundary=fuzz',
    body: '--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4',
  },
  { name: 'malformed JSON', contentType: 'application/json', body: '{"a": ' },
  { name: 'empty JSON', contentType: 'application/json', body: '' },
  { name: 'JSON of the wrong kind', contentType: 'application/json', body: '[null, 1, "x"]' },
  { name: 'malformed urlencoded', contentType: 'application/x-www-form-urlencoded', body: '%zz=%&a=%E0%A4%A&&==&token' },
  { name: 'JSON sent as text', contentType: 'text/plain', body: '{"a":1}' },
  { name: 'XML', contentType: 'application/xml', body: '<a/>' },
  { name: 'no content type', body: '{"a":1}' },
]

/** A value for a path parameter `:name{pattern}`: `params[name]`, else one the pattern accepts ('1', the first of `a|b`). */
const paramValue = (name: string, pattern: string | undefined, params: Record<string, string>) =>
  params[name] ?? (pattern && /^[a-z]+(\|[a-z]+)*$/i.test(pattern) ? pattern.split('|')[0]! : '1')

/**
 * Sends every body of `MALFORMED_BODIES` to every route of `app` that may read one (POST, PUT,
 * PATCH, DELETE), with `token` and path parameters filled (`params` by name). Resolves with the
 * answers that break the rule "bad input is a 4xx in the error shape": each a line naming the
 * route, the body and what came back (none: an empty array).
 */
export async function malformedBodyAnswers(
  app: { routes: { method: string; path: string }[]; request(path: string, init?: RequestInit): Response | Promise<Response> },
  opts: { token?: string; params?: Record<string, string> } = {},
): Promise<string[]> {
  // Deletions last, so that what the other routes' parameters name is still there.
  const routes = [...new Set(app.routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method)).map((r) => `${r.method} ${r.path}`))].sort(
    (a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')),
  )
  const wrong: string[] = []
  for (const route of routes) {
    const [method, pattern] = route.split(' ') as [string, string]
    const path = pattern.replace(/:(\w+)(?:\{([^}]*)\})?/g, (_m, name: string, p?: string) => paramValue(name, p, opts.params ?? {})).replace(/\*$/, 'x')
    for (const b of MALFORMED_BODIES) {
      const headers: Record<string, string> = {}
      if (b.contentType) headers['content-type'] = b.contentType
      if (opts.token) headers.authorization = `Bearer ${opts.token}`
      // Bytes, so that no content type is added for the body.
      const res = await app.request(path, { method, headers, body: new TextEncoder().encode(b.body) })
      const text = await res.text()
      const json = (res.headers.get('content-type') ?? '').includes('json') ? parseBody(text) : undefined
      const shaped = res.status < 400 || !json || (typeof json.message === 'string' && typeof json.code === 'string')
      if (res.status >= 500 || !shaped) wrong.push(`${route} (${path}), ${b.name}: ${res.status} ${text.slice(0, 200)}`)
    }
  }
  return wrong
}

/** Runs `fn` over `items` with at most `limit` at a time; the results in the items' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i]!, i)
      }
    }),
  )
  return out
}
