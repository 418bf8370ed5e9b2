// An external LRS for the tests of statements out: node:http on a free port, storing statements
// PUT by id as a real LRS does (a second PUT of a stored id: 409), and answering `about`.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TestLrs {
  endpoint: string
  /** Statements stored, by id, in the order they arrived. */
  stored: Map<string, unknown>
  /** Every PUT's statement id and answer status. */
  puts: { id: string; status: number }[]
  /** Authorization headers seen. */
  auth: string[]
  /** The next answers to give instead of storing (e.g. 500, 400). */
  failNext: number[]
  /** Stops listening (the LRS is down); `start()` listens again on the same port. */
  stop(): Promise<void>
  start(): Promise<void>
  close(): Promise<void>
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let s = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (s += c))
    req.on('end', () => resolve(s))
    req.on('error', reject)
  })

export async function startTestLrs(opts: { username?: string; password?: string } = {}): Promise<TestLrs> {
  const expected = opts.username !== undefined ? `Basic ${Buffer.from(`${opts.username}:${opts.password ?? ''}`).toString('base64')}` : null
  const lrs: Omit<TestLrs, 'endpoint' | 'stop' | 'start' | 'close'> = { stored: new Map(), puts: [], auth: [], failNext: [] }
  let server: Server
  let port = 0
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer(async (req, res) => {
        const url = new URL(req.url ?? '/', 'http://lrs.test')
        lrs.auth.push(req.headers.authorization ?? '')
        if (req.headers['x-experience-api-version'] !== '1.0.3') return void res.writeHead(400).end('X-Experience-API-Version header missing')
        if (expected && req.headers.authorization !== expected) return void res.writeHead(401).end('unauthorized')
        if (req.method === 'GET' && url.pathname === '/xapi/about') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":["1.0.3"]}')
        if (req.method === 'PUT' && url.pathname === '/xapi/statements') {
          const id = url.searchParams.get('statementId') ?? ''
          const statement = JSON.parse(await body(req)) as { id?: string }
          const forced = lrs.failNext.shift()
          const status = forced ?? (statement.id !== id ? 400 : lrs.stored.has(id) ? 409 : 204)
          if (status === 204) lrs.stored.set(id, statement)
          lrs.puts.push({ id, status })
          return void res.writeHead(status).end(status >= 400 ? `refused (${status})` : undefined)
        }
        res.writeHead(404).end()
      })
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port
        resolve()
      })
    })
  await listen()
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { ...lrs, endpoint: `http://127.0.0.1:${port}/xapi/`, stop, start: listen, close: stop }
}
