import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import { once } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { silentLogger } from '@portal/server-kit/testing'
import { createProxy } from './proxy.ts'
import { upstreamUrls } from './server.ts'
import { createUpstreamPool, upstreamList, type HealthCheckOptions } from './upstreams.ts'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

interface Seen {
  method: string
  path: string
  body: string
}

/** A replica of a service (node:http on its own port): answers its name, says ready on /readyz, and keeps what it was sent. */
async function replica(name: string, answer: (req: IncomingMessage) => number = () => 200) {
  const seen: Seen[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (d: string) => (body += d))
    req.on('end', () => {
      if (req.url === '/readyz') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}')
      seen.push({ method: req.method!, path: req.url!, body })
      const status = answer(req)
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ replica: name, status }))
    })
  })
  const listen = async (port = 0) => {
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    return (server.address() as { port: number }).port
  }
  const port = await listen()
  const stop = () =>
    new Promise<void>((r) => {
      server.close(() => r())
      server.closeAllConnections()
    })
  cleanups.push(stop)
  return { name, url: `http://127.0.0.1:${port}`, seen, stop, restart: () => listen(port) }
}

/** A port nothing listens on (connections refused). */
async function refusingUrl() {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  await new Promise((r) => server.close(r))
  return `http://127.0.0.1:${port}`
}

/** The gateway's proxy for one service `svc` (its paths under /api/svc) in front of `urls`. */
async function gatewayFor(urls: string[], check: Partial<HealthCheckOptions> = { intervalMs: 60_000 }) {
  const pool = createUpstreamPool('svc', urls, { logger: silentLogger, healthCheck: check })
  const proxy = createProxy({ logger: silentLogger, upstreams: { svc: pool }, responseHeaders: {} })
  const server = createServer((req, res) => proxy(req, res, { upstream: 'svc', strip: '/api/svc' }, req.url!))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as { port: number }).port
  cleanups.push(
    () => pool.close(),
    () => {
      server.close()
      server.closeAllConnections()
    },
  )
  return { port, pool }
}

function call(port: number, method: string, path: string, opts: { body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: { replica?: string; code?: string } }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false, headers: opts.headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(body) as { replica?: string; code?: string } }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

const until = async (what: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!what()) {
    if (Date.now() > end) throw new Error('not in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('upstream addresses', () => {
  it('reads one URL as today and several comma-separated, trailing slashes dropped', () => {
    expect(upstreamUrls.parse('http://127.0.0.1:4002/')).toEqual(['http://127.0.0.1:4002'])
    expect(upstreamUrls.parse('http://10.0.0.5:4002, http://10.0.0.6:4002/')).toEqual(['http://10.0.0.5:4002', 'http://10.0.0.6:4002'])
    expect(upstreamList(['http://a:1/', ' '])).toEqual(['http://a:1'])
    expect(upstreamUrls.safeParse('http://a:1,not a url').success).toBe(false)
    expect(upstreamUrls.safeParse(' , ').success).toBe(false)
  })
})

describe('gateway replicas', () => {
  it('balances requests across two replicas', async () => {
    const a = await replica('a')
    const b = await replica('b')
    const gw = await gatewayFor([a.url, b.url])
    const answers = []
    for (let i = 0; i < 10; i++) answers.push(await call(gw.port, 'GET', '/api/svc/courses'))
    expect(answers.every((r) => r.status === 200)).toBe(true)
    expect([a.seen.length, b.seen.length]).toEqual([5, 5])
    expect(a.seen[0]).toEqual({ method: 'GET', path: '/courses', body: '' })
    // Several at once go to the one with fewer in flight: still even.
    await Promise.all(Array.from({ length: 10 }, () => call(gw.port, 'GET', '/api/svc/courses')))
    expect(a.seen.length + b.seen.length).toBe(20)
    expect(Math.abs(a.seen.length - b.seen.length)).toBeLessThanOrEqual(2)
  })

  it('takes a stopped replica out after failed checks and back once it listens again', async () => {
    const a = await replica('a')
    const b = await replica('b')
    const gw = await gatewayFor([a.url, b.url], { intervalMs: 30, timeoutMs: 500, fall: 2, rise: 2 })
    const [ra, rb] = gw.pool.replicas
    await b.stop()
    await until(() => !rb!.up)
    expect(ra!.up).toBe(true)
    // Out by the checks: no request goes there (none refused, none sent again).
    for (let i = 0; i < 6; i++) expect((await call(gw.port, 'GET', '/api/svc/x')).body.replica).toBe('a')
    expect(a.seen.length).toBe(6)
    await b.restart()
    await until(() => rb!.up)
    const back = []
    for (let i = 0; i < 6; i++) back.push((await call(gw.port, 'GET', '/api/svc/x')).body.replica)
    expect(back.filter((r) => r === 'b')).toHaveLength(3)
  })

  it('sends a GET to the other replica when one refuses connections, and takes that one out', async () => {
    const a = await replica('a')
    const gw = await gatewayFor([await refusingUrl(), a.url])
    for (let i = 0; i < 4; i++) expect(await call(gw.port, 'GET', '/api/svc/courses?page=2')).toEqual({ status: 200, body: { replica: 'a', status: 200 } })
    expect(a.seen.map((s) => s.path)).toEqual(Array(4).fill('/courses?page=2'))
    expect(gw.pool.replicas[0]!.up).toBe(false)
  })

  it('does not send a write without an Idempotency-Key to another replica: 503 as with one service', async () => {
    const a = await replica('a')
    const gw = await gatewayFor([await refusingUrl(), a.url])
    // In turn: one of the two goes to the refusing replica and gets the 503, the other reaches a.
    const answers = [
      await call(gw.port, 'POST', '/api/svc/commits', { body: '{"n":1}', headers: { 'content-type': 'application/json' } }),
      await call(gw.port, 'POST', '/api/svc/commits', { body: '{"n":2}', headers: { 'content-type': 'application/json' } }),
    ]
    expect(answers.map((r) => r.status).sort()).toEqual([200, 503])
    expect(answers.find((r) => r.status === 503)!.body.code).toBe('upstream_unavailable')
    expect(a.seen).toHaveLength(1)
  })

  it('sends a write with an Idempotency-Key, its body whole, to the other replica', async () => {
    const a = await replica('a')
    const gw = await gatewayFor([await refusingUrl(), a.url])
    const big = JSON.stringify({ cmi: 'x'.repeat(200_000) })
    const answers = [
      await call(gw.port, 'POST', '/api/svc/commits', { body: '{"n":1}', headers: { 'content-type': 'application/json', 'idempotency-key': 'k1' } }),
      await call(gw.port, 'POST', '/api/svc/commits', { body: big, headers: { 'content-type': 'application/json', 'idempotency-key': 'k2' } }),
    ]
    expect(answers.map((r) => r.status)).toEqual([200, 200])
    expect(a.seen.map((s) => s.body)).toEqual(['{"n":1}', big])
  })

  it('passes on a 5xx a replica answered, never sending the request again', async () => {
    const a = await replica('a')
    const b = await replica('b', () => 500)
    const gw = await gatewayFor([a.url, b.url])
    const answers = [(await call(gw.port, 'GET', '/api/svc/x')).status, (await call(gw.port, 'GET', '/api/svc/x')).status]
    expect(answers.sort()).toEqual([200, 500])
    expect([a.seen.length, b.seen.length]).toEqual([1, 1])
    expect(gw.pool.replicas.every((r) => r.up)).toBe(true)
  })

  it('never sends a GET again once its answer started: the answer is cut short, the other replica not asked', async () => {
    const a = await replica('a')
    let asked = 0
    const cutting = createServer((req, res) => {
      if (req.url === '/readyz') return void res.writeHead(200).end()
      asked += 1
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' })
      res.write('partial')
      setTimeout(() => res.socket?.destroy(), 20)
    })
    cutting.listen(0, '127.0.0.1')
    await once(cutting, 'listening')
    cleanups.push(() => {
      cutting.close()
      cutting.closeAllConnections()
    })
    const gw = await gatewayFor([`http://127.0.0.1:${(cutting.address() as { port: number }).port}`, a.url])
    const outcomes = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<string>((resolve) => {
            const req = request({ host: '127.0.0.1', port: gw.port, path: '/api/svc/file', agent: false }, (res) => {
              let body = ''
              res.on('data', (d: Buffer) => (body += d.toString()))
              res.on('end', () => resolve(`whole ${res.statusCode}`))
              res.on('error', () => resolve(`cut after ${body}`))
            })
            req.on('error', () => resolve('cut'))
            req.end()
          }),
      ),
    )
    expect(outcomes.sort()).toEqual(['cut after partial', 'whole 200'])
    expect([asked, a.seen.length]).toEqual([1, 1])
  })

  it('still tries a replica when the checks took every one out', async () => {
    const a = await replica('a')
    const b = await replica('b')
    const gw = await gatewayFor([a.url, b.url])
    for (const r of gw.pool.replicas) gw.pool.failed(r, Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))
    expect(gw.pool.replicas.some((r) => r.up)).toBe(false)
    expect((await call(gw.port, 'GET', '/api/svc/x')).status).toBe(200)
  })

  it('with one URL: no checks, no other replica, the 503 of an unreachable service as before', async () => {
    const gw = await gatewayFor([await refusingUrl()], { intervalMs: 10 })
    await new Promise((r) => setTimeout(r, 50))
    expect(gw.pool.replicas).toHaveLength(1)
    const res = await call(gw.port, 'GET', '/api/svc/x')
    expect([res.status, res.body.code]).toEqual([503, 'upstream_unavailable'])
    // One replica is never out: there is nothing else to choose.
    expect(gw.pool.replicas[0]!.up).toBe(true)
  })
})

describe('gateway health with replicas', () => {
  it('says a service is up when one of its replicas is, and lists each', async () => {
    const { createGateway } = await import('./app.ts')
    const a = await replica('a')
    const down = await refusingUrl()
    const ok = (await replica('ok')).url
    const gateway = createGateway({ logger: silentLogger, upstreams: { identity: ok, learning: `${down},${a.url}`, certs: ok, notify: ok }, shellDir: '/nonexistent', remotes: [] })
    const res = await gateway.request('/healthz')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      status: 'ok',
      services: { identity: 'ok', learning: 'ok', certs: 'ok', notify: 'ok' },
      replicas: { learning: { [down]: 'unreachable', [a.url]: 'ok' } },
    })
  })
})

describe('the started gateway with replicas', () => {
  it('shares one pool per service between the portal and the content origin', async () => {
    const { start } = await import('./server.ts')
    const a = await replica('a')
    const b = await replica('b')
    const gw = await start({
      logger: silentLogger,
      port: 0,
      hostname: '127.0.0.1',
      upstreams: { identity: 'http://127.0.0.1:1', learning: `${a.url}, ${b.url}`, certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1' },
      content: { port: 0 },
    })
    cleanups.push(gw.close)
    const stats = await call(gw.port, 'GET', '/api/users/7/stats')
    const commit = await call(gw.contentPort, 'POST', '/api/scorm/commit/eyJ.tok.sig', { body: '{}', headers: { 'content-type': 'text/plain' } })
    expect([stats.status, commit.status]).toEqual([200, 200])
    expect([stats.body.replica, commit.body.replica].sort()).toEqual(['a', 'b'])
    expect([...a.seen, ...b.seen].map((s) => s.path).sort()).toEqual(['/scorm/commit/eyJ.tok.sig', '/users/7/stats'])
  })

  it('sends a SCORM commit (repeatable) to the other replica when one refuses, and LRS statements (not repeatable) never', async () => {
    const { start } = await import('./server.ts')
    const a = await replica('a')
    const gw = await start({
      logger: silentLogger,
      port: 0,
      hostname: '127.0.0.1',
      upstreams: { identity: 'http://127.0.0.1:1', learning: `${await refusingUrl()}, ${a.url}`, certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1' },
      content: { port: 0 },
    })
    cleanups.push(gw.close)
    const commits = [1, 2, 3, 4].map((seq) => call(gw.contentPort, 'POST', '/api/scorm/commit/eyJ.tok.sig', { body: `{"seq":${seq}}`, headers: { 'content-type': 'text/plain' } }))
    expect((await Promise.all(commits)).map((r) => r.status)).toEqual([200, 200, 200, 200])
    expect(a.seen.map((s) => s.body).sort()).toEqual(['{"seq":1}', '{"seq":2}', '{"seq":3}', '{"seq":4}'])
    // The refusing replica is out now; bring it back into the picture with a fresh gateway: statements get the 503.
    const gw2 = await start({
      logger: silentLogger,
      port: 0,
      hostname: '127.0.0.1',
      upstreams: { identity: 'http://127.0.0.1:1', learning: `${await refusingUrl()}, ${a.url}`, certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1' },
      content: { port: 0 },
    })
    cleanups.push(gw2.close)
    const statements = [
      await call(gw2.contentPort, 'POST', '/api/lrs/statements', { body: '{"n":1}', headers: { 'content-type': 'application/json' } }),
      await call(gw2.contentPort, 'POST', '/api/lrs/statements', { body: '{"n":2}', headers: { 'content-type': 'application/json' } }),
    ]
    expect(statements.map((r) => r.status).sort()).toEqual([200, 503])
  })
})
