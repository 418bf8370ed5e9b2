/**
 * One trace from the browser's request to svc-notify's mail (issue 29): the gateway, identity and
 * notify started as the launchers start them, on the machine's PostgreSQL (a database each), NATS
 * JetStream (a stream and subject namespace of the test's) and a real SMTP receiver; tracing on
 * with OTEL_EXPORTER_OTLP_ENDPOINT at an OTLP/HTTP receiver in this test. A registration through
 * the gateway must come back as one trace: gateway -> identity -> outbox publish -> notify's
 * consumer -> the SMTP send, each span the child of the one before.
 */
import { createServer, type Server } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNatsBus, flushTraces, startTracing, type EventBus, type Tracing } from '@portal/server-kit'
import { TEST_NATS_URL, createTestDatabase, silentLogger, uniqueName } from '@portal/server-kit/testing'
import { start as startGateway } from 'gateway/server'
import { IdentityProcessEnv, start as startIdentity } from 'svc-identity/server'
import { start as startNotify } from 'svc-notify/server'
import { eventually, startSmtpReceiver } from 'svc-notify/test-support'

/** A span as OTLP/JSON carries it (the fields the test reads). */
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[]
}

/** An OTLP/HTTP receiver: POST /v1/traces with JSON (what the exporter sends), every span kept. */
async function startOtlpReceiver() {
  const spans: OtlpSpan[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) return void res.writeHead(415).end()
      const doc = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }
      for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { spans, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value
  return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : undefined)
}
// OTLP's span kinds.
const SERVER = 2
const CLIENT = 3
const PRODUCER = 4
const CONSUMER = 5

const cleanups: (() => Promise<unknown>)[] = []
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>
let gatewayUrl: string
let tracing: Tracing

beforeAll(async () => {
  otlp = await startOtlpReceiver()
  cleanups.push(otlp.close)
  tracing = startTracing('portal-test', { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url })
  cleanups.push(() => tracing.shutdown())
  smtp = await startSmtpReceiver()
  cleanups.push(smtp.close)
  const dataDir = await mkdtemp(join(tmpdir(), 'tracing-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const stream = uniqueName('TRACING')
  const bus: EventBus = await createNatsBus({
    url: TEST_NATS_URL,
    stream,
    subjects: ['identity.>', 'learning.>', 'certs.>', 'notify.>'],
    subjectPrefix: `${stream.toLowerCase()}.`,
    logger: silentLogger,
  })
  cleanups.push(async () => {
    await bus.close()
    const { connect } = await import('@nats-io/transport-node')
    const { jetstreamManager } = await import('@nats-io/jetstream')
    const nc = await connect({ servers: TEST_NATS_URL })
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined)
    await nc.close()
  })
  const [identityDb, notifyDb] = await Promise.all([createTestDatabase('tracing_identity'), createTestDatabase('tracing_notify')])
  cleanups.push(identityDb.drop, notifyDb.drop)
  const env = IdentityProcessEnv.parse({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, SMTP_URL: smtp.url, COMPANY_EMAIL_DOMAIN: 'acme.test', NODE_ENV: 'test' })
  const identity = await startIdentity({ env, logger: silentLogger, bus, port: 0, databaseUrl: identityDb.url, kdf: { N: 1024, r: 8, p: 1 } })
  cleanups.push(identity.close)
  const notify = await startNotify({ env, logger: silentLogger, bus, port: 0, jwks: { keys: [] }, databaseUrl: notifyDb.url, sender: { intervalMs: 100 } })
  cleanups.push(notify.close)
  const unused = 'http://127.0.0.1:9'
  const gateway = await startGateway({
    logger: silentLogger,
    port: 0,
    hostname: '127.0.0.1',
    upstreams: { identity: `http://127.0.0.1:${identity.port}`, notify: `http://127.0.0.1:${notify.port}`, learning: unused, certs: unused },
    content: { port: 0 },
    remotes: [],
  })
  cleanups.push(gateway.close)
  gatewayUrl = `http://127.0.0.1:${gateway.port}`
})

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined)
})

describe('tracing (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  it('follows a registration from the browser through the gateway, identity, the outbox and NATS to the verification mail', async () => {
    // The browser's own trace context: the gateway continues it.
    const browserTrace = '4bf92f3577b34da6a3ce929d0e0e4736'
    const email = `traced.${Date.now()}@acme.test`
    const res = await fetch(`${gatewayUrl}/api/auth/register?utm=secret-query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${browserTrace}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ name: 'Traced Person', email, password: 'Traced1234!' }),
    })
    expect(res.status).toBe(201)
    await eventually(() => smtp.to(email).length > 0, 20_000)

    const mail = await eventually(async () => {
      await flushTraces()
      return otlp.spans.find((s) => s.traceId === browserTrace && s.name === 'smtp send')
    }, 20_000)
    const trace = otlp.spans.filter((s) => s.traceId === browserTrace)
    const byId = new Map(trace.map((s) => [s.spanId, s]))
    const parentOf = (s: OtlpSpan) => byId.get(s.parentSpanId ?? '')

    const gateway = trace.find((s) => s.kind === SERVER && s.parentSpanId === '00f067aa0ba902b7')!
    expect(gateway).toMatchObject({ name: 'POST /api/auth' })
    expect([attr(gateway, 'http.route'), attr(gateway, 'http.response.status_code'), attr(gateway, 'portal.upstream')]).toEqual(['/api/auth', 201, 'identity'])
    const identity = trace.find((s) => s.kind === SERVER && s.parentSpanId === gateway.spanId)!
    expect(identity).toMatchObject({ name: 'POST /auth/register' })
    expect([attr(identity, 'http.route'), attr(identity, 'http.response.status_code')]).toEqual(['/auth/register', 201])

    // The mail's span, then up its parents: notify's consumer, the relay's publish, identity's request.
    expect(mail.kind).toBe(CLIENT)
    const consumer = parentOf(mail)!
    expect(consumer).toMatchObject({ kind: CONSUMER, name: 'process identity.verification.requested.v1' })
    expect(attr(consumer, 'messaging.consumer.group.name')).toMatch(/^notify/)
    const publish = parentOf(consumer)!
    expect(publish).toMatchObject({ kind: PRODUCER, name: 'publish identity.verification.requested.v1' })
    expect(attr(publish, 'messaging.system')).toBe('nats')
    expect(parentOf(publish)).toBe(identity)
    // Nothing of the path's query (nor any token) is in the trace.
    expect(JSON.stringify(trace)).not.toContain('secret-query')
  })

  it('makes no span anywhere for a trace the browser dropped, and still carries it to the mail', async () => {
    await flushTraces()
    const before = otlp.spans.length
    const email = `untraced.${Date.now()}@acme.test`
    const res = await fetch(`${gatewayUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: '00-5bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b8-00' },
      body: JSON.stringify({ name: 'Untraced Person', email, password: 'Traced1234!' }),
    })
    expect(res.status).toBe(201)
    await eventually(() => smtp.to(email).length > 0, 20_000)
    await flushTraces()
    // The services follow the browser's decision at every hop (the sampler is parent-based): had
    // the dropped context not been carried on, the consumer or the send would have started a trace.
    const names = new Set(['POST /api/auth', 'POST /auth/register', 'publish identity.verification.requested.v1', 'process identity.verification.requested.v1', 'smtp send'])
    expect(otlp.spans.slice(before).filter((s) => names.has(s.name))).toEqual([])
  })
})
