import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RemoteRegistry } from '@portal/contracts'
import { listen } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { createServer, request as httpRequest } from 'node:http'
import { createGateway, createGatewayHandler } from './app.ts'
import { CONTENT_ROUTE_TABLE, isUpload, resolvePortalRoute, resolveRoute, ROUTE_TABLE } from './routes.ts'

describe('route table', () => {
  it('matches whole path segments and prefers the longest prefix', () => {
    expect(resolveRoute('/api/auth/login')?.upstream).toBe('identity')
    expect(resolveRoute('/api/authx')).toBeUndefined()
    expect(resolveRoute('/api/admin/user-groups')?.upstream).toBe('identity')
    expect(resolveRoute('/api/admin/sign-in/providers/entra')?.upstream).toBe('identity')
    expect(resolveRoute('/api/auth/oidc/entra/callback')?.upstream).toBe('identity')
    expect(resolveRoute('/api/dev/mailbox')?.upstream).toBe('notify')
    expect(resolveRoute('/api/admin/emails/3/toggle')?.upstream).toBe('notify')
    expect(resolveRoute('/api/admin/notification-rules')?.upstream).toBe('notify')
    expect(resolveRoute('/api/admin/audit/identity')?.upstream).toBe('identity')
    expect(resolveRoute('/api/admin/audit/learning')?.upstream).toBe('learning')
    expect(resolveRoute('/api/admin/audit/notify')?.upstream).toBe('notify')
    expect(resolveRoute('/api/email-reports/groups/Crew%20A/tracking')?.upstream).toBe('notify')
    expect(resolveRoute('/mailbox')?.strip).toBe('')
    expect(resolveRoute('/user-dashboard')).toBeUndefined()
    expect(resolveRoute('/api/exams/3/attempts')?.upstream).toBe('learning')
    expect(resolveRoute('/api/admin/exams')?.upstream).toBe('learning')
    expect(resolveRoute('/api/admin/assignment-rules/3/report/export')?.upstream).toBe('learning')
    expect(resolveRoute('/api/admin/lrs-forwarding/test')).toMatchObject({ upstream: 'learning', strip: '/api' })
    expect(resolveRoute('/api/assignments/mine')).toMatchObject({ upstream: 'learning', strip: '/api' })
  })
  it("sends each service's OpenAPI document to it as its /openapi.json (GET only), and nothing else under that name", () => {
    for (const service of ['identity', 'learning', 'certs', 'notify'] as const) {
      const route = resolveRoute(`/api/${service}/openapi.json`, ROUTE_TABLE, 'GET')
      expect(route, service).toMatchObject({ upstream: service, strip: `/api/${service}` })
      expect(`/api/${service}/openapi.json`.slice(route!.strip.length)).toBe('/openapi.json')
      expect(resolveRoute(`/api/${service}/openapi.json`, ROUTE_TABLE, 'POST')).toBeUndefined()
      expect(resolveRoute(`/api/${service}/metrics`, ROUTE_TABLE, 'GET')).toBeUndefined()
    }
  })
  it('sends the certification slice’s paths to certs', () => {
    for (const path of [
      '/api/technician/profile/1',
      '/api/technician/certifications/upload',
      '/api/admin/certifications',
      '/api/admin/certifications/tier-requirements',
      '/api/manager/team',
      '/api/reports/certifications/export',
      '/api/revenue/leaderboard',
      '/api/revenue/leaderboard/me',
      '/api/revenue/me/trend',
      '/api/certification-notifications/logs',
    ])
      expect(resolveRoute(path)?.upstream, path).toBe('certs')
  })
  it('sends every course, module and SCORM path to learning', () => {
    for (const path of [
      '/api/courses',
      '/api/courses/with-progress',
      '/api/admin/courses',
      '/api/modules/course/4/progress',
      '/api/scorm/7/launch',
      '/api/scorm/commit/eyJ.token.sig',
      '/api/scorm-editor/edit/7',
    ])
      expect(resolveRoute(path), path).toMatchObject({ upstream: 'learning', strip: '/api' })
    expect(resolveRoute('/api/scormx')).toBeUndefined()
  })
  it('sends cmi5 launches, statuses and waivers to learning on the portal, and keeps the LRS and the fetch URL for the content origin', () => {
    for (const path of ['/api/cmi5/7/launch', '/api/cmi5/7/status', '/api/cmi5/7/waive'])
      expect(resolvePortalRoute(path, ROUTE_TABLE, 'POST'), path).toMatchObject({ upstream: 'learning', strip: '/api' })
    for (const path of ['/api/lrs/statements', '/api/lrs/activities/state', '/api/cmi5/fetch/abc', '/api/cmi5/fetch']) {
      expect(resolvePortalRoute(path, ROUTE_TABLE, 'POST'), path).toBeUndefined()
      expect(resolveRoute(path, CONTENT_ROUTE_TABLE), path).toMatchObject({ upstream: 'learning', strip: '/api' })
    }
    // Only whole segments: a module's launch is not the fetch URL.
    expect(resolveRoute('/api/cmi5/fetcher', CONTENT_ROUTE_TABLE)).toBeUndefined()
    expect(resolveRoute('/api/lrsx', CONTENT_ROUTE_TABLE)).toBeUndefined()
  })
  it('gives uploads (courses, a timing edit with a replacement video) the long timeout', () => {
    expect(isUpload('POST', '/api/courses')).toBe(true)
    expect(isUpload('PUT', '/api/courses/3')).toBe(true)
    expect(isUpload('POST', '/api/scorm-editor/edit-timing')).toBe(true)
    expect(isUpload('POST', '/api/scorm-editor/analyze')).toBe(false)
    expect(isUpload('GET', '/api/scorm-editor/edit-timing')).toBe(false)
  })
  it('routes no course content on the portal (it has an origin of its own)', () => {
    expect(resolveRoute('/api/content/eyJ.token.sig/shared/launchpage.html')).toBeUndefined()
  })
})

describe('gateway', () => {
  let upstream: Awaited<ReturnType<typeof listen>>
  let learning: Awaited<ReturnType<typeof listen>>
  let examsRemote: Awaited<ReturnType<typeof listen>>
  let base: string
  let closeGateway: () => void
  const gateway = { request: (path: string, init?: RequestInit) => fetch(base + path, init) }
  const seen: { path: string; headers: Record<string, string>; body: string }[] = []

  beforeAll(async () => {
    const svc = new Hono()
    svc.all('*', async (c) => {
      seen.push({ path: c.req.path + new URL(c.req.url).search, headers: c.req.header(), body: await c.req.text() })
      if (c.req.path === '/auth/teapot') return c.json({ message: 'no', code: 'teapot' }, 418)
      return c.json({ ok: true, path: c.req.path })
    })
    upstream = await listen(svc, 0)
    const learningSvc = new Hono()
    learningSvc.all('*', (c) => c.json({ service: 'learning', path: c.req.path }))
    learning = await listen(learningSvc, 0)
    // mf-exams has a server of its own (as in cluster mode), under a path of that server.
    const examsSvc = new Hono()
    examsSvc.get('/builds/7/mf-manifest.json', (c) =>
      c.req.header('if-none-match') === 'W/"m1"' ? c.body(null, 304, { ETag: 'W/"m1"' }) : c.json({ id: 'mf_exams' }, 200, { ETag: 'W/"m1"', 'Cache-Control': 'no-cache' }),
    )
    examsRemote = await listen(examsSvc, 0)
    const dir = await mkdtemp(join(tmpdir(), 'gw-'))
    await mkdir(join(dir, 'shell'))
    await mkdir(join(dir, 'learner'))
    await writeFile(join(dir, 'shell', 'index.html'), '<!doctype html><html><head><title>Portal</title><script defer src="/main.0123abcd.js"></script></head><body></body></html>')
    await writeFile(join(dir, 'shell', 'main.0123abcd.js'), 'console.log(1)')
    await writeFile(join(dir, 'learner', 'mf-manifest.json'), '{"id":"mf_learner"}')
    const server = createServer(
      createGatewayHandler({
        logger: silentLogger,
        upstreams: { identity: `http://127.0.0.1:${upstream.port}`, learning: `http://127.0.0.1:${learning.port}`, certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1' },
        shellDir: join(dir, 'shell'),
        remotes: [
          { name: 'mf_learner', dir: join(dir, 'learner') },
          { name: 'mf_exams', url: `http://127.0.0.1:${examsRemote.port}/builds/7/` },
          { name: 'mf_admin', url: 'http://127.0.0.1:1/' },
        ],
        content: { portalOrigins: ['http://portal.test:8080'], origin: 'http://content.test:8081' },
      }),
    )
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    closeGateway = () => {
      server.close()
      server.closeAllConnections()
    }
  })
  afterAll(async () => {
    closeGateway()
    await upstream.close()
    await learning.close()
    await examsRemote.close()
  })

  it('forwards /api calls to the owning service without the /api prefix, with body, query and a request id', async () => {
    const res = await gateway.request('/api/auth/login?x=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'abc-123' },
      body: '{"email":"a@b.c"}',
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toBe('abc-123')
    const last = seen.at(-1)!
    expect(last.path).toBe('/auth/login?x=1')
    expect(last.body).toBe('{"email":"a@b.c"}')
    expect(last.headers['x-request-id']).toBe('abc-123')
  })

  it("forwards /api/<service>/openapi.json to the service's /openapi.json", async () => {
    expect(await (await gateway.request('/api/identity/openapi.json')).json()).toEqual({ ok: true, path: '/openapi.json' })
    expect(await (await gateway.request('/api/learning/openapi.json')).json()).toEqual({ service: 'learning', path: '/openapi.json' })
  })

  it('serves the API explorer at /api/docs from the portal itself, under its CSP, listing the four documents', async () => {
    const page = await gateway.request('/api/docs')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';")
    const html = await page.text()
    // Only scripts of the portal's own origin, none inline.
    expect([...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1])).toEqual([
      ' src="/api/docs/swagger-ui-bundle.js"',
      ' src="/api/docs/swagger-ui-standalone-preset.js"',
      ' src="/api/docs/init.js"',
    ])
    expect(html).not.toMatch(/https?:\/\//)
    const init = await (await gateway.request('/api/docs/init.js')).text()
    for (const service of ['identity', 'learning', 'certs', 'notify']) expect(init).toContain(`{"name":"${service}","url":"/api/${service}/openapi.json"}`)
    expect(init).toContain('validatorUrl: null')
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css']) {
      const res = await gateway.request(`/api/docs/${file}`)
      expect(res.status, file).toBe(200)
      expect((await res.text()).length, file).toBeGreaterThan(1000)
    }
    expect((await gateway.request('/api/docs/package.json')).status).toBe(404)
    expect((await gateway.request('/api/docs/other.js')).status).toBe(404)
  })

  it('sends user stats to learning and the rest of /users to identity', async () => {
    expect(await (await gateway.request('/api/users/abc/stats')).json()).toEqual({ service: 'learning', path: '/users/abc/stats' })
    await gateway.request('/api/users/abc/profile', { method: 'PUT', body: '{}' })
    expect(seen.at(-1)!.path).toBe('/users/abc/profile')
  })

  it("keeps the service's status and error body", async () => {
    const res = await gateway.request('/api/auth/teapot')
    expect(res.status).toBe(418)
    expect(await res.json()).toEqual({ message: 'no', code: 'teapot' })
  })

  it('answers 503 in the error shape when a service is down', async () => {
    const res = await gateway.request('/api/dev/mailbox')
    expect(res.status).toBe(503)
    expect((await res.json()).code).toBe('upstream_unavailable')
  })

  it('answers unknown API routes with 404 in the error shape', async () => {
    const res = await gateway.request('/api/nothing-here', { method: 'POST' })
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'route_not_found' })
  })

  it('serves the remote registry the shell reads at run time', async () => {
    const res = await gateway.request('/remote-registry.json')
    const doc = RemoteRegistry.parse(await res.json())
    expect(doc.remotes.mf_learner.entry).toBe('/remotes/mf-learner/mf-manifest.json')
    // where course content plays, and the addresses of the portal it plays at (the first to be used)
    expect(doc.content).toEqual({ origin: 'http://content.test:8081', portalOrigins: ['http://portal.test:8080'] })
    expect((await gateway.request(doc.remotes.mf_learner.entry)).status).toBe(200)
    expect((await gateway.request('/remotes/mf-learner/missing.js')).status).toBe(404)
  })

  it('proxies a remote with a server of its own, same-origin, keeping its ETag and caching', async () => {
    const doc = RemoteRegistry.parse(await (await gateway.request('/remote-registry.json')).json())
    expect(doc.remotes.mf_exams!.entry).toBe('/remotes/mf-exams/mf-manifest.json')
    const res = await gateway.request(doc.remotes.mf_exams!.entry)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ id: 'mf_exams' })
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    const again = await gateway.request(doc.remotes.mf_exams!.entry, { headers: { 'if-none-match': res.headers.get('etag')! } })
    expect(again.status).toBe(304)
    const down = await gateway.request('/remotes/mf-admin/mf-manifest.json')
    expect(down.status).toBe(503)
    expect((await down.json()).code).toBe('upstream_unavailable')
  })

  it('serves the shell for client-side routes and caches hashed files for good', async () => {
    const page = await gateway.request('/user-dashboard')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<title>Portal</title>')
    const js = await gateway.request('/main.0123abcd.js')
    expect(js.headers.get('cache-control')).toContain('immutable')
    expect((await gateway.request('/nope.js')).status).toBe(404)
  })

  it("serves the shell's page with a preload of every remote's manifest, as the federation runtime fetches it, revalidated by ETag", async () => {
    const doc = RemoteRegistry.parse(await (await gateway.request('/remote-registry.json')).json())
    const res = await gateway.request('/user-dashboard')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const html = await res.text()
    const links = Object.values(doc.remotes).map(({ entry }) => `<link rel="preload" href="${entry}" as="fetch" crossorigin="anonymous">`)
    expect(links).toContain('<link rel="preload" href="/remotes/mf-exams/mf-manifest.json" as="fetch" crossorigin="anonymous">')
    expect(html).toBe(`<!doctype html><html><head><title>Portal</title><script defer src="/main.0123abcd.js"></script>${links.join('')}</head><body></body></html>`)
    // Every address of the shell is the same page, with an ETag of what is sent.
    const etag = res.headers.get('etag')!
    expect((await gateway.request('/', { headers: { 'if-none-match': etag } })).status).toBe(304)
    // The manifests it preloads are the gateway's to answer (served here or proxied), each revalidated on every load.
    for (const entry of ['/remotes/mf-learner/mf-manifest.json', '/remotes/mf-exams/mf-manifest.json']) {
      const manifest = await gateway.request(entry)
      expect(manifest.status, entry).toBe(200)
      expect(manifest.headers.get('cache-control'), entry).toBe('no-cache')
    }
    // Links only, nothing inline that runs: the page's CSP still allows scripts from the portal alone.
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self';")
  })

  it('sends security headers that let the portal frame only itself and the content origin, on pages and API answers', async () => {
    const api = await gateway.request('/api/auth/login')
    expect(api.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(api.headers.get('content-security-policy')).toContain("frame-src 'self' blob: http://content.test:8081")
    const res = await gateway.request('/login')
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain("frame-ancestors 'self'")
    expect(csp).toContain("script-src 'self';")
    expect(csp).toContain("frame-src 'self' blob: http://content.test:8081;")
    // file modules' video and audio play from the content origin
    expect(csp).toContain("media-src 'self' blob: http://content.test:8081;")
    expect(csp).toContain("connect-src 'self';")
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('routes and forwards the path its services will read: dot segments cannot reach outside the route table', async () => {
    // Raw paths (fetch would resolve them before sending).
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: Number(new URL(base).port), path }, (res) => {
          let body = ''
          res.on('data', (d) => (body += d))
          res.on('end', () => resolve({ status: res.statusCode!, body }))
        })
        req.on('error', reject)
        req.end()
      })
    for (const path of ['/api/users/../metrics', '/api/users/%2e%2e/readyz', '/api/users/.%2E/metrics', '/api/auth/x/../../metrics']) {
      const res = await raw(path)
      expect([res.status, JSON.parse(res.body).code], path).toEqual([404, 'route_not_found'])
    }
    expect((await raw('/api/users\\..\\metrics')).status).toBe(400) // Node's parser refuses a backslash
    const before = seen.length
    expect(JSON.parse((await raw('/api/dev/mailbox/../../auth/login?x=1')).body)).toEqual({ ok: true, path: '/auth/login' })
    expect(seen.slice(before).map((s) => s.path)).toEqual(['/auth/login?x=1'])
    // Tokens hold dots, not dot segments: forwarded as they are.
    expect(JSON.parse((await raw('/api/auth/eyJ.a.b/..x')).body)).toEqual({ ok: true, path: '/auth/eyJ.a.b/..x' })
  })

  it('serves /metrics only to a scraper with METRICS_TOKEN, and not at all without one', async () => {
    expect((await gateway.request('/metrics')).status).toBe(404)
    const token = 'scrape-token-0123456789'
    const gw = createGateway({
      logger: silentLogger,
      upstreams: { identity: 'http://127.0.0.1:1', learning: 'http://127.0.0.1:1', certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1' },
      shellDir: '/nonexistent',
      remotes: [],
      metricsToken: token,
    })
    expect((await gw.request('/metrics')).status).toBe(401)
    expect((await gw.request('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401)
    const ok = await gw.request('/metrics', { headers: { authorization: `Bearer ${token}` } })
    expect([ok.status, ok.headers.get('content-type')]).toEqual([200, 'text/plain; version=0.0.4; charset=utf-8'])
    // The refused scrapes are counted by the route pattern, labelled with the gateway.
    expect(await ok.text()).toMatch(/^http_request_duration_seconds_count\{service="gateway",method="GET",route="\/metrics",status="401"\} 2$/m)
  })

  it('does not serve course content: 404 on the portal, never reaching learning', async () => {
    const res = await gateway.request('/api/content/eyJ.token.sig/shared/launchpage.html')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'route_not_found' })
  })

  it('does not take SCORM commits: 404 in the error shape on the portal (they belong to the content origin), never reaching learning', async () => {
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: Number(new URL(base).port), path, method: 'POST', headers: { 'content-type': 'text/plain' } }, (res) => {
          let body = ''
          res.on('data', (d) => (body += d))
          res.on('end', () => resolve({ status: res.statusCode!, body }))
        })
        req.on('error', reject)
        req.end('{"cmi":{}}')
      })
    for (const path of [
      '/api/scorm/commit/eyJ.token.sig',
      '/api/scorm/commit/eyJ.token.sig/',
      '/api/scorm/commit/eyJ.token.sig?x=1',
      '/api/scorm/commit',
      '/api/scorm/7/../commit/eyJ.token.sig',
    ]) {
      const res = await raw(path)
      expect([res.status, JSON.parse(res.body)], path).toEqual([404, { message: expect.any(String), code: 'route_not_found' }])
    }
    // the rest of /api/scorm is learning's on the portal
    expect(await (await gateway.request('/api/scorm/7/launch')).json()).toEqual({ service: 'learning', path: '/scorm/7/launch' })
    expect(await (await gateway.request('/api/scorm/commits', { method: 'POST', body: '{}' })).json()).toEqual({ service: 'learning', path: '/scorm/commits' })
  })

  it('reports degraded health when a service is unreachable', async () => {
    const res = await gateway.request('/healthz')
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ status: 'degraded', services: { identity: 'ok', learning: 'ok', notify: 'unreachable' } })
  })
})

describe('static compression', () => {
  it('gzips static files for browsers that accept it', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises')
    const dir = await mkdtemp(join(tmpdir(), 'gwz-'))
    await writeFile(join(dir, 'index.html'), '<!doctype html>' + 'x'.repeat(5000))
    await writeFile(join(dir, 'app.0123abcd.js'), 'console.log("x");'.repeat(500))
    const gw = createGateway({
      logger: silentLogger,
      upstreams: { identity: 'http://127.0.0.1:1', learning: 'http://127.0.0.1:1', certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1' },
      shellDir: dir,
      remotes: [],
    })
    const res = await gw.request('/app.0123abcd.js', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe('gzip')
  })
})
