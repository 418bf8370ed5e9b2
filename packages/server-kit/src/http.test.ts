import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { Hono } from 'hono'
import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core'
import { AppError, conflict, notFound, tooManyRequests, validate } from './errors.ts'
import { MAX_INPUT_DEPTH, UNSTORABLE_TEXT_MESSAGE } from './input.ts'
import { createServiceApp, listen, ownBodyLimit, readBodyText, type AppEnv } from './http.ts'
import { createLogger, type Logger } from './logger.ts'
import { silentLogger } from './testing.ts'

/** A logger that keeps what it was told, to check what goes to the logs (not to the client). */
function memoryLogger(): Logger & { lines: { level: string; msg: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = []
  const make = (): Logger => ({
    debug: (msg, fields) => void lines.push({ level: 'debug', msg, fields }),
    info: (msg, fields) => void lines.push({ level: 'info', msg, fields }),
    warn: (msg, fields) => void lines.push({ level: 'warn', msg, fields }),
    error: (msg, fields) => void lines.push({ level: 'error', msg, fields }),
    child: () => make(),
  })
  return Object.assign(make(), { lines })
}

const ItemBody = z.object({ name: z.string().min(1), count: z.number().int().min(0), tags: z.array(z.string()).optional() })

function makeApp(opts: { ready?: () => Promise<void>; logger?: Logger } = {}) {
  const app = createServiceApp({ service: 'kit-test', logger: opts.logger ?? silentLogger, maxBodyBytes: 1024, ready: opts.ready })
  app.post('/items', validate('json', ItemBody), (c) => c.json({ created: c.req.valid('json') }, 201))
  app.get('/items/:id', (c) => c.json({ id: c.req.param('id') }))
  app.get('/boom', () => {
    throw new Error('database password is hunter2')
  })
  app.get('/gone', () => {
    throw notFound('That item does not exist', 'item_not_found')
  })
  app.get('/orm-miss', () => {
    throw NotFoundError.findOneFailed('User', { email: 'secret@example.com' })
  })
  app.get('/orm-duplicate', () => {
    throw new UniqueConstraintViolationException(new Error('duplicate key value violates unique constraint "user_email_unique"'))
  })
  app.get('/taken', () => {
    throw conflict('Already there')
  })
  app.get('/slow-down', () => {
    throw tooManyRequests(2.2)
  })
  app.get('/nul-in-jsonb', () => {
    throw Object.assign(new Error('unsupported Unicode escape sequence'), { code: '22P05' })
  })
  return app
}

const post = (app: Hono<AppEnv>, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) => app.request('/items', { method: 'POST', body, headers })

describe('service app: validation and errors', () => {
  const app = makeApp()

  it('accepts a valid body', async () => {
    const res = await post(app, JSON.stringify({ name: 'a', count: 1 }))
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ created: { name: 'a', count: 1 } })
  })

  it('answers text the database cannot store (NUL, lone surrogates) with 400 invalid_text, in a body or from the database', async () => {
    for (const body of [
      { name: 'a\u0000b', count: 1 },
      { name: 'a', count: 1, tags: ['x\u0000'] },
      { name: 'lone \ud800 high', count: 1 },
      { name: 'a', count: 1, tags: ['lone \udfff low'] },
    ]) {
      const res = await post(app, JSON.stringify(body))
      expect([res.status, await res.json()], JSON.stringify(body)).toEqual([400, { message: UNSTORABLE_TEXT_MESSAGE, code: 'invalid_text' }])
    }
    // A pair is one character (an emoji): stored as it is.
    expect((await post(app, JSON.stringify({ name: 'ok \ud83d\ude00', count: 1 }))).status).toBe(201)
    const res = await app.request('/nul-in-jsonb')
    expect([res.status, await res.json()]).toEqual([400, { message: UNSTORABLE_TEXT_MESSAGE, code: 'invalid_text' }])
  })

  it('checks text and nesting in every part of the request', async () => {
    const app = createServiceApp({ service: 'kit-test', logger: silentLogger })
    app.get('/search', validate('query', z.object({ q: z.string() })), (c) => c.json(c.req.valid('query')))
    app.post('/doc', validate('json', z.object({ doc: z.unknown() })), (c) => c.json({ ok: true }))
    expect((await app.request('/search?q=a%00b')).status).toBe(400)
    const nested = (depth: number) => `{"doc":${'['.repeat(depth)}${']'.repeat(depth)}}`
    const doc = (body: string) => app.request('/doc', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } })
    expect((await doc(nested(MAX_INPUT_DEPTH - 1))).status).toBe(200)
    const deep = await doc(nested(5000))
    expect([deep.status, ((await deep.json()) as { code: string }).code]).toEqual([400, 'validation_failed'])
  })

  it('answers malformed JSON with 400 in the error shape', async () => {
    const res = await post(app, '{"name": "a", ')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: expect.any(String), code: 'bad_request' })
  })

  it('names a missing field: "<field> is required"', async () => {
    const res = await post(app, JSON.stringify({ count: 1 }))
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ message: 'name is required', code: 'validation_failed' })
    expect(body.details).toEqual([{ path: 'name', message: 'name is required' }])
  })

  it('answers wrong types with 400 and lists every issue', async () => {
    const res = await post(app, JSON.stringify({ name: 5, count: 'three', tags: [1] }))
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.code).toBe('validation_failed')
    expect(body.details.map((d: { path: string }) => d.path).sort()).toEqual(['count', 'name', 'tags.0'])
    expect(body.message).not.toMatch(/is required/)
  })

  it('answers a body that is not an object with 400', async () => {
    for (const body of ['null', '[]', '"text"', '42']) {
      const res = await post(app, body)
      expect(res.status).toBe(400)
      expect((await res.json()).code).toBe('validation_failed')
    }
  })

  it('answers a JSON route sent another content type (or none) with 415', async () => {
    for (const headers of [{ 'Content-Type': 'text/plain' }, { 'Content-Type': 'application/x-www-form-urlencoded' }, {}] as Record<string, string>[]) {
      const res = await post(app, JSON.stringify({ name: 'a', count: 1 }), headers)
      expect([res.status, ((await res.json()) as { code: string }).code], JSON.stringify(headers)).toEqual([415, 'unsupported_media_type'])
    }
    expect((await post(app, JSON.stringify({ name: 'a', count: 1 }), { 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(201)
  })

  it('answers a body its route reads by hand but cannot parse with 400 in the error shape, not a logged 500', async () => {
    const logger = memoryLogger()
    const app = createServiceApp({ service: 'kit-test', logger })
    app.post('/form', async (c) => c.json(await c.req.parseBody()))
    app.post('/form-data', async (c) => c.json([...(await c.req.formData()).keys()]))
    app.post('/json', async (c) => c.json(await c.req.json()))
    const send = async (path: string, contentType: string, body: string) => {
      const res = await app.request(path, { method: 'POST', headers: { 'content-type': contentType }, body })
      return [res.status, await res.json()]
    }
    const multipart = { message: 'Malformed multipart body', code: 'invalid_multipart' }
    expect(await send('/form', 'multipart/form-data; boundary=x', '{"token":"abc"}')).toEqual([400, multipart])
    expect(await send('/form', 'multipart/form-data', 'token=abc')).toEqual([400, multipart])
    expect(await send('/form-data', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb')).toEqual([400, multipart])
    expect(await send('/form-data', 'text/plain', 'a=b')).toEqual([400, { message: 'The body is not a valid form', code: 'invalid_form' }])
    expect(await send('/json', 'application/json', '{"a": ')).toEqual([400, { message: 'The body is not valid JSON', code: 'invalid_json' }])
    expect(await send('/json', 'application/json', '')).toEqual([400, { message: 'The body is not valid JSON', code: 'invalid_json' }])
    // Well-formed bodies still read as before.
    expect(await send('/form', 'application/x-www-form-urlencoded', 'token=abc')).toEqual([200, { token: 'abc' }])
    expect(await send('/json', 'application/json', '{"a":1}')).toEqual([200, { a: 1 }])
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([])
  })

  it('answers a body over maxBodyBytes with 413 payload_too_large', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2000), count: 1 })
    const res = await post(app, big, { 'Content-Type': 'application/json', 'Content-Length': String(big.length) })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ message: 'Request body is too large', code: 'payload_too_large' })
  })

  it('answers a streamed body (no Content-Length) over the limit with 413 too', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(600))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk)
        controller.enqueue(chunk)
        controller.close()
      },
    })
    const res = await app.request('/items', {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': 'application/json' },
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect((await res.json()).code).toBe('payload_too_large')
  })

  it('answers an unknown route with 404 route_not_found', async () => {
    const res = await app.request('/nope')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'No route for GET /nope', code: 'route_not_found' })
  })

  it('keeps the status and code of an AppError, with its headers', async () => {
    const gone = await app.request('/gone')
    expect(gone.status).toBe(404)
    expect(await gone.json()).toEqual({ message: 'That item does not exist', code: 'item_not_found' })
    expect((await app.request('/taken')).status).toBe(409)
    const slow = await app.request('/slow-down')
    expect(slow.status).toBe(429)
    expect(slow.headers.get('Retry-After')).toBe('3')
  })

  it("turns MikroORM's not-found into 404 and a unique violation into 409, without leaking the query", async () => {
    const miss = await app.request('/orm-miss')
    expect(miss.status).toBe(404)
    const missText = await miss.text()
    expect(missText).not.toContain('secret@example.com')
    expect(JSON.parse(missText)).toEqual({ message: 'Not found', code: 'not_found' })
    const dup = await app.request('/orm-duplicate')
    expect(dup.status).toBe(409)
    expect(await dup.json()).toEqual({ message: 'That already exists', code: 'conflict' })
  })

  it('answers a thrown Error with a generic 500 that leaks nothing, and logs it with the request id', async () => {
    const logger = memoryLogger()
    const res = await makeApp({ logger }).request('/boom', { headers: { 'X-Request-Id': 'req-500' } })
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(text).not.toContain('hunter2')
    expect(JSON.parse(text)).toEqual({ message: 'Something went wrong. Please try again later.', code: 'internal_error' })
    const logged = logger.lines.find((l) => l.level === 'error')
    expect(logged?.fields?.requestId).toBe('req-500')
    expect((logged?.fields?.err as Error).message).toContain('hunter2')
  })

  it('AppError is an Error with status, code and extra', () => {
    const err = new AppError(422, 'unprocessable', 'Nope', { details: ['x'] })
    expect(err).toBeInstanceOf(Error)
    expect([err.status, err.code, err.message, err.extra]).toEqual([422, 'unprocessable', 'Nope', { details: ['x'] }])
  })
})

describe('service app: health, readiness, metrics, request ids', () => {
  it('answers /healthz', async () => {
    const res = await makeApp().request('/healthz')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok', service: 'kit-test' })
  })

  it('answers /readyz with 200 when ready and 503 when a check fails', async () => {
    expect((await makeApp({ ready: async () => undefined }).request('/readyz')).status).toBe(200)
    const res = await makeApp({ ready: async () => Promise.reject(new Error('db down')) }).request('/readyz')
    expect(res.status).toBe(503)
    expect((await res.json()).status).toBe('not ready')
  })

  it('serves Prometheus text on /metrics with the route pattern, not the raw path', async () => {
    const app = makeApp()
    await app.request('/items/123')
    await app.request('/items/456')
    await app.request('/nope')
    const res = await app.request('/metrics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await res.text()
    expect(text).toContain('# TYPE http_request_duration_seconds histogram')
    expect(text).toContain('http_request_duration_seconds_count{service="kit-test",method="GET",route="/items/:id",status="200"} 2')
    expect(text).not.toContain('/items/123')
    expect(text).not.toContain('route="/nope"')
  })

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const app = makeApp()
    const kept = await app.request('/healthz', { headers: { 'X-Request-Id': 'abc-123.DEF_4' } })
    expect(kept.headers.get('X-Request-Id')).toBe('abc-123.DEF_4')
    for (const bad of ['has space', 'x'.repeat(101), 'inject\u00e9', '']) {
      const res = await app.request('/healthz', { headers: { 'X-Request-Id': bad } })
      const id = res.headers.get('X-Request-Id')
      expect(id).not.toBe(bad)
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
    }
    const onError = await app.request('/nope', { headers: { 'X-Request-Id': 'r-404' } })
    expect(onError.headers.get('X-Request-Id')).toBe('r-404')
  })

  it('listen() serves the app on a free port and closes', async () => {
    const server = await listen(makeApp(), 0)
    try {
      // A 10-minute course upload must not hit Node's default 5-minute request timeout.
      expect((server.server as unknown as { requestTimeout: number }).requestTimeout).toBeGreaterThanOrEqual(600_000)
      const res = await fetch(`http://127.0.0.1:${server.port}/healthz`)
      expect(res.status).toBe(200)
    } finally {
      await server.close()
    }
  })
})

describe('readBodyText', () => {
  const app = () => {
    const a = createServiceApp({ service: 'kit-test', logger: silentLogger, maxBodyBytes: 10 })
    a.post('/raw', ownBodyLimit, async (c) => c.json({ text: await readBodyText(c, 100) }))
    return a
  }
  it('reads the body of a route that skips the common limit, in memory and over real HTTP', async () => {
    expect(await (await app().request('/raw', { method: 'POST', body: 'é'.repeat(30) })).json()).toEqual({ text: 'é'.repeat(30) })
    const server = await listen(app(), 0)
    try {
      const url = `http://127.0.0.1:${server.port}/raw`
      expect(await (await fetch(url, { method: 'POST', body: 'é'.repeat(50) })).json()).toEqual({ text: 'é'.repeat(50) })
      const chunks = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('a'.repeat(60))), c.enqueue(new TextEncoder().encode('b'.repeat(60))), c.close()) })
      const streamed = await fetch(url, { method: 'POST', body: chunks, duplex: 'half' } as RequestInit)
      expect([streamed.status, ((await streamed.json()) as { code: string }).code]).toEqual([413, 'payload_too_large'])
      const declared = await fetch(url, { method: 'POST', body: 'x'.repeat(101) })
      expect(declared.status).toBe(413)
      // the connection is still usable after a refused body
      expect((await fetch(url, { method: 'POST', body: 'ok' })).status).toBe(200)
    } finally {
      await server.close()
    }
  })
  it('answers 413 in memory too', async () => {
    expect((await app().request('/raw', { method: 'POST', body: 'x'.repeat(101) })).status).toBe(413)
  })
})

describe('createLogger', () => {
  it('is silent at level silent', () => {
    const logger = createLogger('quiet', 'silent')
    expect(() => logger.error('nothing', { err: new Error('x') })).not.toThrow()
  })

  it('never writes a token whole: launch tokens in paths, messages and stacks are redacted', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJtaWQiOjcsInN1YiI6ImFiYyJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg'
    const lines: string[] = []
    const spies = [process.stdout, process.stderr].map((stream) =>
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk))
        return true
      }),
    )
    try {
      const logger = createLogger('learning', 'debug')
      const app = createServiceApp({ service: 'learning', logger })
      app.post('/scorm/commit/:token', () => {
        throw new Error(`commit failed for /scorm/commit/${token}`)
      })
      const res = await app.request(`/scorm/commit/${token}`, { method: 'POST' })
      expect(res.status).toBe(500)
      logger.info('bearer', { authorization: `Bearer ${token}` })
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
    const text = lines.join('')
    expect(text).toContain('unhandled error')
    expect(text).toContain('/scorm/commit/[token]')
    expect(text).toContain('"authorization":"[redacted]"')
    expect(text).not.toContain(token.split('.')[2])
  })
})
