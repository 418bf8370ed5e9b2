import { describe, expect, it } from 'vitest'
import { authenticate, createTokenIssuer, createTokenVerifier, loadOrCreateSigningKey, type Actor } from './auth.ts'
import { createServiceApp } from './http.ts'
import { createLogger, type LogLevel } from './logger.ts'

/** A logger writing its JSON lines to memory: what a log collector reading stdout would get. */
function capture(level: LogLevel = 'debug', service = 'learning') {
  const lines: string[] = []
  const logger = createLogger(service, level, { format: 'json', destination: { write: (line) => void lines.push(line) } })
  const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>)
  return { logger, lines, entries }
}

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJtaWQiOjcsInN1YiI6ImFiYyJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg'
const SIGNATURE = TOKEN.split('.')[2]!

describe('createLogger (pino)', () => {
  it('writes one JSON object a line: ISO time, the level by name, service, msg and the fields', () => {
    const { logger, lines, entries } = capture()
    logger.info('course published', { courseId: 'c-1', modules: 3 })
    logger.warn('slow query', { ms: 812 })
    expect(lines).toHaveLength(2)
    expect(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).toBe(true)
    const [info, warn] = entries()
    expect(info).toMatchObject({ level: 'info', service: 'learning', msg: 'course published', courseId: 'c-1', modules: 3 })
    expect(new Date(info!.time as string).toISOString()).toBe(info!.time)
    expect(info).toHaveProperty('pid', process.pid)
    expect(warn).toMatchObject({ level: 'warn', msg: 'slow query', ms: 812 })
  })

  it('leaves out what is below its level, and writes nothing at silent', () => {
    const warnOnly = capture('warn')
    warnOnly.logger.debug('d')
    warnOnly.logger.info('i')
    warnOnly.logger.warn('w')
    warnOnly.logger.error('e')
    expect(warnOnly.entries().map((e) => [e.level, e.msg])).toEqual([
      ['warn', 'w'],
      ['error', 'e'],
    ])
    const silent = capture('silent')
    silent.logger.error('nothing', { err: new Error('x') })
    expect(silent.lines).toEqual([])
  })

  it('keeps the bindings of children, a binding given again replacing the earlier one', () => {
    const { logger, lines, entries } = capture('info', 'portal')
    const identity = logger.child({ service: 'identity' })
    identity.child({ requestId: 'r-1' }).info('signed in', { userId: 'u-1' })
    identity.info('no request')
    expect(entries()).toMatchObject([
      { service: 'identity', requestId: 'r-1', userId: 'u-1', msg: 'signed in' },
      { service: 'identity', msg: 'no request' },
    ])
    expect(entries()[1]).not.toHaveProperty('requestId')
    // Once only in the line, not `"service":"portal"` and then `"service":"identity"`.
    expect(lines[0]!.match(/"service"/g)).toHaveLength(1)
  })

  it('writes secret fields as [redacted], at the top of an entry and one level down', () => {
    const { logger, lines, entries } = capture()
    logger.info('call', {
      authorization: 'Basic dXNlcjpodW50ZXIy',
      password: 'hunter2',
      clientSecret: 's3cr3t',
      headers: { cookie: 'portal_refresh=abc123', 'set-cookie': 'portal_refresh=def456', accept: 'application/json' },
      user: { email: 'tess@example.com', password: 'hunter3' },
    })
    expect(entries()[0]).toMatchObject({
      authorization: '[redacted]',
      password: '[redacted]',
      clientSecret: '[redacted]',
      headers: { cookie: '[redacted]', 'set-cookie': '[redacted]', accept: 'application/json' },
      user: { email: 'tess@example.com', password: '[redacted]' },
    })
    for (const secret of ['dXNlcjpodW50ZXIy', 'hunter2', 's3cr3t', 'abc123', 'def456', 'hunter3']) expect(lines[0]).not.toContain(secret)
  })

  it('never writes a JWT whole: in the message, in fields, in bindings and in error stacks', () => {
    const { logger, lines, entries } = capture()
    logger.child({ launch: `/content/${TOKEN}/index.html` }).warn(`commit refused for /scorm/commit/${TOKEN}`, { body: { note: `bearer ${TOKEN}` }, list: [TOKEN] })
    logger.error('unhandled error', { err: new Error(`verify failed: ${TOKEN}`) })
    const text = lines.join('')
    expect(text).not.toContain(SIGNATURE)
    const [warn, error] = entries()
    expect(warn).toMatchObject({ msg: 'commit refused for /scorm/commit/[token]', launch: '/content/[token]/index.html', body: { note: 'bearer [token]' }, list: ['[token]'] })
    const err = error!.err as { type: string; message: string; stack: string }
    expect(err.type).toBe('Error')
    expect(err.message).toBe('verify failed: [token]')
    expect(err.stack).toMatch(/^Error: verify failed: \[token\]\n\s+at /)
  })

  it('writes an error as its type, message and stack only, and any other err value as it is', () => {
    const { logger, entries } = capture()
    const err = Object.assign(new TypeError('bad row'), { sql: 'select * from users where email = $1', params: ['tess@example.com'] })
    logger.error('query failed', { err })
    logger.warn('upstream unreachable', { err: 'ECONNREFUSED' })
    const [first, second] = entries()
    expect(Object.keys(first!.err as object).sort()).toEqual(['message', 'stack', 'type'])
    expect(first!.err).toMatchObject({ type: 'TypeError', message: 'bad row' })
    expect(second!.err).toBe('ECONNREFUSED')
  })

  it('prints pretty lines when asked, with the service, the level and the fields, tokens still redacted', async () => {
    const chunks: string[] = []
    const write = process.stdout.write.bind(process.stdout)
    process.stdout.write = ((chunk: string | Uint8Array) => chunks.push(String(chunk)) > 0) as typeof process.stdout.write
    try {
      const logger = createLogger('gateway', 'info', { format: 'pretty' })
      logger.info('gateway listening', { port: 8080, path: `/content/${TOKEN}` })
      await new Promise((r) => setImmediate(r))
    } finally {
      process.stdout.write = write
    }
    const text = chunks.join('')
    expect(text).toMatch(/INFO.*\[gateway\] gateway listening/)
    expect(text).toContain('"port":8080')
    expect(text).toContain('/content/[token]')
    expect(text).not.toContain(SIGNATURE)
    expect(() => JSON.parse(text)).toThrow()
  })
})

describe('request lines', () => {
  it('one per request: request id, user id, method, route pattern, status and duration; no path beside a route that names the request', async () => {
    const key = await loadOrCreateSigningKey(undefined)
    const opts = { issuer: 'portal-identity', audience: 'portal', ttlSeconds: 900 }
    const actor: Actor = {
      userId: '6f1c2a34-1b2c-4d5e-8f90-123456789abc',
      email: 'tess@example.com',
      name: 'Tess',
      isAdmin: false,
      isManager: false,
      managerScope: { branches: [], departments: [] },
    }
    const bearer = await createTokenIssuer(key, opts).sign(actor)
    const verify = createTokenVerifier({ keys: [key.publicJwk] }, opts)

    const { logger, lines, entries } = capture('info')
    const app = createServiceApp({ service: 'learning', logger })
    app.post('/scorm/commit/:token', authenticate(verify), (c) => c.json({ ok: true }))
    app.get('/open/:id', (c) => c.json({ id: c.req.param('id') }))

    const res = await app.request(`/scorm/commit/${TOKEN}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'x-request-id': 'req-42' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toBe('req-42')
    const open = await app.request('/open/7')
    const refused = await app.request(`/scorm/commit/${TOKEN}`, { method: 'POST' })
    expect(refused.status).toBe(401)
    await app.request('/healthz')

    const requests = entries().filter((e) => e.msg === 'request')
    expect(requests).toHaveLength(3)
    expect(requests[0]).toMatchObject({
      level: 'info',
      service: 'learning',
      requestId: 'req-42',
      userId: actor.userId,
      method: 'POST',
      route: '/scorm/commit/:token',
      status: 200,
    })
    // The route says what was asked: no path beside it (paths may hold credentials that are no JWT).
    expect(requests[0]).not.toHaveProperty('path')
    expect(typeof requests[0]!.durationMs).toBe('number')
    expect(requests[0]!.durationMs).toBeGreaterThanOrEqual(0)
    // A request without a caller's id gets a new one, echoed to the caller.
    expect(requests[1]).toMatchObject({ requestId: open.headers.get('x-request-id'), method: 'GET', route: '/open/:id', status: 200 })
    expect(requests[1]!.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(requests[1]).not.toHaveProperty('userId')
    expect(requests[2]).toMatchObject({ route: '/scorm/commit/:token', status: 401 })
    expect(requests[2]).not.toHaveProperty('userId')
    const text = lines.join('')
    expect(text).not.toContain(SIGNATURE)
    expect(text).not.toContain(bearer.split('.')[2]!)
  })
})
