import { spawn, type ChildProcess } from 'node:child_process'
import { Agent, createServer, request, type Server } from 'node:http'
import { once } from 'node:events'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { createServiceApp, listen, trustedProxies } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { createGatewayHandler, type GatewayOptions } from './app.ts'
import { DEFAULT_UPSTREAM_TIMEOUTS } from './proxy.ts'

/** A gateway in front of the given upstreams (those not given are unreachable). */
async function gatewayFor(upstreams: Partial<GatewayOptions['upstreams']>, more: Partial<GatewayOptions> = {}) {
  const server: Server = createServer(
    createGatewayHandler({
      logger: silentLogger,
      upstreams: { identity: 'http://127.0.0.1:1', learning: 'http://127.0.0.1:1', certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1', ...upstreams },
      shellDir: '/nonexistent',
      remotes: [],
      ...more,
    }),
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      server.close()
      server.closeAllConnections()
    },
  }
}

interface Answer {
  status: number | string
  ms: number
  body: string
  /** Sent on a connection of `agent` that had carried a request before. */
  reused?: boolean
}

/** One request on `agent`'s connections; a client that waits more than `waitMs` gives up ('hung'). */
function call(port: number, method: string, path: string, opts: { agent?: Agent; body?: Buffer; headers?: Record<string, string>; waitMs?: number } = {}) {
  return new Promise<Answer>((resolve) => {
    const start = Date.now()
    const req = request(
      { host: '127.0.0.1', port, method, path, agent: opts.agent ?? false, headers: { ...(opts.body ? { 'content-length': String(opts.body.length) } : {}), ...opts.headers } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode!, ms: Date.now() - start, body, reused: req.reusedSocket }))
        res.on('error', (err) => resolve({ status: `response error ${err.message}`, ms: Date.now() - start, body }))
      },
    )
    req.setTimeout(opts.waitMs ?? 5_000, () => req.destroy(new Error('hung')))
    req.on('error', (err) => resolve({ status: err.message, ms: Date.now() - start, body: '' }))
    req.end(opts.body)
  })
}

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

describe('gateway proxy: a service that answers before reading the whole body', () => {
  it('answers the sender 413 and keeps its connection and everyone else’s requests working', async () => {
    // A real service app: its common body limit answers 413 without reading the rest.
    const app = createServiceApp({ service: 'identity', logger: silentLogger, maxBodyBytes: 64 * 1024 })
    app.post('/auth/echo', async (c) => c.json({ bytes: (await c.req.text()).length }))
    app.get('/auth/ping', (c) => c.json({ ok: true }))
    const service = await listen(app, 0)
    cleanups.push(service.close)
    const gw = await gatewayFor({ identity: `http://127.0.0.1:${service.port}` })
    cleanups.push(gw.close)

    const sender = new Agent({ keepAlive: true, maxSockets: 1 })
    const others = new Agent({ keepAlive: true, maxSockets: 1 })
    cleanups.push(
      () => sender.destroy(),
      () => others.destroy(),
    )
    const seen: string[] = []
    for (const size of [200_000, 1_000_000, 5_000_000]) {
      for (let i = 0; i < 4; i++) {
        const big = await call(gw.port, 'POST', '/api/auth/echo', { agent: sender, body: Buffer.alloc(size, 120) })
        const again = await call(gw.port, 'GET', '/api/auth/ping', { agent: sender })
        const other = await call(gw.port, 'GET', '/api/auth/ping', { agent: others })
        seen.push(`${size}: ${big.status} ${again.status} ${other.status}`)
      }
    }
    expect(seen).toEqual(seen.map((s) => `${s.split(':')[0]}: 413 200 200`))
    expect((await call(gw.port, 'POST', '/api/auth/echo', { body: Buffer.from('small') })).body).toBe('{"bytes":5}')
  })

  it('answers the next request with a body on the same connection with the service’s own answer, not 503, also under load', async () => {
    // As notify's admin e-mails: the common 1 MiB limit, a JSON body read by the route.
    const app = createServiceApp({ service: 'notify', logger: silentLogger })
    app.post('/admin/emails', async (c) => c.json({ subject: (await c.req.json<{ subject: string }>()).subject }, 201))
    const service = await listen(app, 0)
    cleanups.push(service.close)
    const gw = await gatewayFor({ notify: `http://127.0.0.1:${service.port}` })
    cleanups.push(gw.close)
    const json = { 'content-type': 'application/json' }
    const big = Buffer.from(JSON.stringify({ subject: 'big', body: 'x'.repeat(2 * 1024 * 1024) }))
    const valid = (n: number) => Buffer.from(JSON.stringify({ subject: `mail ${n}` }))

    const sender = new Agent({ keepAlive: true, maxSockets: 1 })
    const other = new Agent({ keepAlive: true, maxSockets: 1 })
    cleanups.push(
      () => sender.destroy(),
      () => other.destroy(),
    )
    // Meanwhile another client posts valid bodies, none of which may fail.
    let sending = true
    const othersSeen: (number | string)[] = []
    const others = (async () => {
      for (let n = 0; sending; n++) othersSeen.push((await call(gw.port, 'POST', '/api/admin/emails', { agent: other, body: valid(n), headers: json })).status)
    })()
    const seen: string[] = []
    for (let i = 0; i < 40; i++) {
      const tooBig = await call(gw.port, 'POST', '/api/admin/emails', { agent: sender, body: big, headers: json })
      const next = await call(gw.port, 'POST', '/api/admin/emails', { agent: sender, body: valid(i), headers: json })
      seen.push(`${tooBig.status} ${JSON.parse(tooBig.body || '{}').code} / ${next.status} ${next.body} ${next.reused ? 'same connection' : 'new connection'}`)
    }
    sending = false
    await others
    expect(seen).toEqual(seen.map((_, i) => `413 payload_too_large / 201 {"subject":"mail ${i}"} same connection`))
    expect(othersSeen.length).toBeGreaterThanOrEqual(20)
    expect(othersSeen.filter((s) => s !== 201)).toEqual([])
  }, 60_000)
})

describe('gateway proxy: connections to a service', () => {
  it('are kept alive and reused for requests the service read whole (with a body or not)', async () => {
    const ports = new Set<number>()
    const app = new Hono()
    app.all('*', async (c) => {
      ports.add((c.env as { incoming: { socket: { remotePort: number } } }).incoming.socket.remotePort)
      return c.json({ bytes: (await c.req.text()).length })
    })
    const service = await listen(app, 0)
    cleanups.push(service.close)
    const gw = await gatewayFor({ learning: `http://127.0.0.1:${service.port}` })
    cleanups.push(gw.close)
    const client = new Agent({ keepAlive: true, maxSockets: 1 })
    cleanups.push(() => client.destroy())
    for (let i = 0; i < 20; i++) {
      const post = await call(gw.port, 'POST', '/api/exams/3/attempts', { agent: client, body: Buffer.alloc(8_000, 97) })
      expect([post.status, post.body]).toEqual([200, '{"bytes":8000}'])
      expect((await call(gw.port, 'GET', '/api/exams', { agent: client })).status).toBe(200)
    }
    expect(ports.size).toBe(1)
  })
})

describe('gateway proxy: a hung service', () => {
  let paused: ChildProcess | undefined
  afterAll(() => {
    if (paused?.exitCode === null) {
      paused.kill('SIGCONT')
      paused.kill('SIGKILL')
    }
  })

  it('answers 504 at the route’s timeout when the service is paused (SIGSTOP): short for API calls, long only for uploads', async () => {
    // A service in its own process, answering every request; then stopped with SIGSTOP.
    const child = spawn(process.execPath, [
      '-e',
      "const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => { r.setHeader('content-type', 'application/json'); r.end('{\"ok\":true}') }) }); s.listen(0, '127.0.0.1', () => console.log(s.address().port))",
    ])
    paused = child
    const [line] = (await once(child.stdout!, 'data')) as [Buffer]
    const port = Number(line.toString().trim())
    const gw = await gatewayFor({ learning: `http://127.0.0.1:${port}` }, { timeouts: { apiMs: 300, uploadMs: 1_500 } })
    cleanups.push(gw.close)
    expect((await call(gw.port, 'GET', '/api/exams')).status).toBe(200)

    child.kill('SIGSTOP')
    try {
      const [api, post, upload] = await Promise.all([
        call(gw.port, 'GET', '/api/exams'),
        call(gw.port, 'POST', '/api/exams/3/attempts', { body: Buffer.from('{}') }),
        call(gw.port, 'POST', '/api/courses', { body: Buffer.from('--x--') }),
      ])
      expect([api.status, JSON.parse(api.body).code]).toEqual([504, 'upstream_timeout'])
      expect(api.ms).toBeLessThan(1_200)
      expect([post.status, post.ms < 1_200]).toEqual([504, true])
      expect(upload.status).toBe(504)
      expect(upload.ms).toBeGreaterThanOrEqual(1_400)
    } finally {
      child.kill('SIGCONT')
    }
    expect((await call(gw.port, 'GET', '/api/exams')).status).toBe(200)
    child.kill('SIGKILL')
  })

  it('waits at most 30 s for an API answer by default, and the 10 minutes of an upload only for uploads', () => {
    expect(DEFAULT_UPSTREAM_TIMEOUTS.apiMs).toBeLessThanOrEqual(30_000)
    expect(DEFAULT_UPSTREAM_TIMEOUTS.uploadMs).toBeGreaterThanOrEqual(600_000)
  })
})

describe('gateway proxy: the client address', () => {
  it('passes on the peer’s address, or what trusted reverse proxies say it is', async () => {
    const svc = new Hono()
    svc.all('*', (c) => c.json({ xff: c.req.header('x-forwarded-for') }))
    const service = await listen(svc, 0)
    cleanups.push(service.close)
    const forwardedAs = async (gw: { port: number }, xff?: string) =>
      JSON.parse((await call(gw.port, 'GET', '/api/auth/x', { headers: xff ? { 'x-forwarded-for': xff } : {} })).body).xff as string

    const direct = await gatewayFor({ identity: `http://127.0.0.1:${service.port}` }, { trustedProxies: trustedProxies('') })
    cleanups.push(direct.close)
    expect(await forwardedAs(direct)).toBe('127.0.0.1')
    expect(await forwardedAs(direct, '203.0.113.9')).toBe('127.0.0.1') // a client's own header is not believed

    const behindProxy = await gatewayFor({ identity: `http://127.0.0.1:${service.port}` }, { trustedProxies: trustedProxies('loopback, 10.0.0.0/8') })
    cleanups.push(behindProxy.close)
    expect(await forwardedAs(behindProxy, '203.0.113.9')).toBe('203.0.113.9')
    // Read from the right: what the client wrote itself (left of its proxies' entries) is not believed.
    expect(await forwardedAs(behindProxy, '198.51.100.1, 203.0.113.9, 10.1.2.3')).toBe('203.0.113.9')
  })
})
