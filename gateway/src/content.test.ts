import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, parseEnv } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { contentOriginFor, contentOrigins, contentPolicy, createContentHandler, playerPolicy } from './content.ts'
import { ContentEnv, contentListenerOf, loopbackOrigins, start } from './server.ts'

const PORTAL = ['http://localhost:8080', 'http://127.0.0.1:8080']

describe('content policies', () => {
  it('let package files run their own scripts but reach no other origin, and be framed only by the player and the portal', () => {
    const csp = contentPolicy(PORTAL)
    expect(csp).not.toContain('https:')
    expect(csp).not.toMatch(/(^|\s)\*(\s|;|$)/)
    expect(csp).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval';")
    expect(csp).toContain("connect-src 'self';")
    expect(csp).toContain("frame-src 'self' blob:;")
    expect(csp).toContain("img-src 'self' data: blob:;")
    expect(csp).toContain("form-action 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("frame-ancestors 'self' http://localhost:8080 http://127.0.0.1:8080;")
  })
  it('add what the allow-list names, each to its own directives', () => {
    const csp = contentPolicy(PORTAL, { scripts: ['https://ajax.googleapis.com'], frames: ['https://www.youtube-nocookie.com'], connect: ['https://lrs.example.com'] })
    expect(csp).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval' https://ajax.googleapis.com;")
    expect(csp).toContain("style-src 'self' 'unsafe-inline' https://ajax.googleapis.com;")
    expect(csp).toContain("frame-src 'self' blob: https://www.youtube-nocookie.com;")
    expect(csp).toContain("connect-src 'self' https://lrs.example.com;")
    expect(csp).not.toContain("connect-src 'self' https://ajax")
  })
  it('let the player page run only its own scripts and be framed only by the portal', () => {
    const csp = playerPolicy(PORTAL)
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self';")
    expect(csp).toContain('frame-ancestors http://localhost:8080 http://127.0.0.1:8080;')
    expect(csp).not.toContain('unsafe-eval')
  })
})

describe('content origin variables', () => {
  const env = (vars: Record<string, string>, PORT = 8080, PUBLIC_URL?: string) => ({ ...parseEnv(ContentEnv, vars), PORT, PUBLIC_URL })
  it('default to the next port on the portal’s host', () => {
    expect(contentListenerOf(env({}))).toMatchObject({ port: 8081, origin: 'http://localhost:8081', perHost: true })
    expect(contentListenerOf(env({ CONTENT_PORT: '', CONTENT_ORIGIN: '', CONTENT_ALLOW_SCRIPTS: '', PORTAL_ORIGINS: '' }))).toMatchObject({
      port: 8081,
      origin: 'http://localhost:8081',
      allow: { scripts: [] },
    })
    expect(contentListenerOf(env({}, 8080, 'https://portal.example.com'))).toMatchObject({
      port: 8081,
      origin: 'https://portal.example.com:8081',
      portalOrigins: ['https://portal.example.com'],
    })
    // a port chosen at start: the origin is known once it listens
    expect(contentListenerOf(env({}, 0)).origin).toBeUndefined()
  })
  it('let the portal be opened by its loopback names when it is on loopback (single node, development), else at PUBLIC_URL only unless PORTAL_ORIGINS says', () => {
    const loopback = ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']
    expect(loopbackOrigins(8080)).toEqual(loopback)
    expect(contentListenerOf(env({})).portalOrigins).toEqual(loopback)
    expect(contentListenerOf(env({}, 8080, 'http://localhost:8080')).portalOrigins).toEqual(loopback)
    expect(contentListenerOf(env({}, 3000, 'http://127.0.0.1:8080/')).portalOrigins).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080'])
    expect(contentListenerOf(env({}, 8080, 'https://portal.example.com')).portalOrigins).toEqual(['https://portal.example.com'])
    // PUBLIC_URL's origin first (the address to use), then the list as given
    expect(contentListenerOf(env({ PORTAL_ORIGINS: 'http://devbox:8080, http://10.0.0.5:8080/' }, 8080, 'http://localhost:8080')).portalOrigins).toEqual([
      'http://localhost:8080',
      'http://devbox:8080',
      'http://10.0.0.5:8080',
    ])
    expect(contentListenerOf(env({ PORTAL_ORIGINS: 'https://portal.example.com https://learn.example.com' }, 8080, 'https://portal.example.com')).portalOrigins).toEqual([
      'https://portal.example.com',
      'https://learn.example.com',
    ])
    // a content origin of its own is the same whatever address the portal was opened at
    expect(contentListenerOf(env({ CONTENT_ORIGIN: 'https://content.example.com' }, 8080, 'https://portal.example.com')).perHost).toBe(false)
  })
  it('take a content origin behind a proxy and an allow-list', () => {
    const c = contentListenerOf(
      env({
        CONTENT_PORT: '9000',
        CONTENT_ORIGIN: 'https://content.example.com/',
        CONTENT_ALLOW_FRAMES: 'https://www.youtube.com, https://*.vimeo.com',
        CONTENT_ALLOW_CONNECT: 'https://lrs.example.com',
      }),
    )
    expect(c).toMatchObject({ port: 9000, origin: 'https://content.example.com' })
    expect(c.allow).toEqual({ scripts: [], frames: ['https://www.youtube.com', 'https://*.vimeo.com'], connect: ['https://lrs.example.com'] })
  })
  it('refuse what is not an origin', () => {
    expect(() => parseEnv(ContentEnv, { CONTENT_ALLOW_SCRIPTS: "https://cdn.example.com 'unsafe-hashes'" })).toThrow(/CONTENT_ALLOW_SCRIPTS/)
    expect(() => parseEnv(ContentEnv, { CONTENT_ALLOW_CONNECT: 'https:' })).toThrow(/CONTENT_ALLOW_CONNECT/)
    expect(() => parseEnv(ContentEnv, { CONTENT_ALLOW_FRAMES: '*' })).toThrow(/CONTENT_ALLOW_FRAMES/)
    expect(() => parseEnv(ContentEnv, { CONTENT_ORIGIN: 'content' })).toThrow(/CONTENT_ORIGIN/)
    for (const bad of ['*', 'https://*.example.com', 'portal.example.com', 'https://portal.example.com/app'])
      expect(() => parseEnv(ContentEnv, { PORTAL_ORIGINS: bad }), bad).toThrow(/PORTAL_ORIGINS/)
  })
})

describe('the content origin for each address of the portal', () => {
  const site = { portalOrigins: ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'https://devbox.lan'], origin: 'http://localhost:8081', port: 8081 }
  it('is the portal’s host name on the content port when the portal was opened at one of its origins', () => {
    expect(contentOriginFor(site, 'localhost:8080')).toBe('http://localhost:8081')
    expect(contentOriginFor(site, '127.0.0.1:8080')).toBe('http://127.0.0.1:8081')
    expect(contentOriginFor(site, '[::1]:8080')).toBe('http://[::1]:8081')
    expect(contentOriginFor(site, 'DevBox.lan')).toBe('https://devbox.lan:8081')
    expect(contentOrigins(site)).toEqual(['http://localhost:8081', 'http://127.0.0.1:8081', 'http://[::1]:8081', 'https://devbox.lan:8081'])
  })
  it('is the configured one at another address, or whatever the address with CONTENT_ORIGIN', () => {
    expect(contentOriginFor(site, 'evil.example:8080')).toBe('http://localhost:8081')
    expect(contentOriginFor(site, '127.0.0.1:9999')).toBe('http://localhost:8081')
    expect(contentOriginFor(site, undefined)).toBe('http://localhost:8081')
    const own = { portalOrigins: ['https://portal.example.com', 'https://learn.example.com'], origin: 'https://content.example.com' }
    expect(contentOriginFor(own, 'learn.example.com')).toBe('https://content.example.com')
    expect(contentOrigins(own)).toEqual(['https://content.example.com'])
  })
})

describe('content origin listener', () => {
  let learning: Awaited<ReturnType<typeof listen>>
  let identity: Awaited<ReturnType<typeof listen>>
  let base: string
  let close: () => void
  const seen: { service: string; method: string; path: string }[] = []

  beforeAll(async () => {
    const service = (name: string) => {
      const app = new Hono()
      app.all('*', (c) => {
        seen.push({ service: name, method: c.req.method, path: c.req.path })
        return c.req.path.startsWith('/content/') ? c.body('<html>sco</html>', 200, { 'content-type': 'text/html; charset=utf-8' }) : c.json({ result: true, errorCode: 0 })
      })
      return listen(app, 0)
    }
    learning = await service('learning')
    identity = await service('identity')
    const dir = await mkdtemp(join(tmpdir(), 'player-'))
    await mkdir(join(dir, 'assets'))
    await writeFile(
      join(dir, 'index.html'),
      '<!doctype html><html><head><meta name="portal-origins" content=""><script defer src="/player/assets/player.0123abcd.js"></script></head><body></body></html>',
    )
    await writeFile(join(dir, 'assets', 'player.0123abcd.js'), 'console.log("player")')
    const server = createServer(
      createContentHandler({
        logger: silentLogger,
        upstreams: { identity: `http://127.0.0.1:${identity.port}`, learning: `http://127.0.0.1:${learning.port}`, certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1' },
        playerDir: dir,
        portalOrigins: PORTAL,
      }),
    )
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    close = () => {
      server.close()
      server.closeAllConnections()
    }
  })
  afterAll(async () => {
    close()
    await learning.close()
    await identity.close()
  })

  it('serves package files from learning with the content policy, framable by the portal (no X-Frame-Options)', async () => {
    const res = await fetch(`${base}/api/content/eyJ.tok.sig/shared/launchpage.html?x=1`)
    expect([res.status, await res.text()]).toEqual([200, '<html>sco</html>'])
    expect(seen.at(-1)).toEqual({ service: 'learning', method: 'GET', path: '/content/eyJ.tok.sig/shared/launchpage.html' })
    expect(res.headers.get('content-security-policy')).toBe(contentPolicy(PORTAL))
    expect(res.headers.get('x-frame-options')).toBeNull()
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
  })

  it('passes the player’s commits to learning', async () => {
    const res = await fetch(`${base}/api/scorm/commit/eyJ.tok.sig`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
    expect(res.status).toBe(200)
    expect(seen.at(-1)).toEqual({ service: 'learning', method: 'POST', path: '/scorm/commit/eyJ.tok.sig' })
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
  })

  it('passes cmi5 AUs’ LRS calls and fetch URL to learning (issue 26)', async () => {
    const res = await fetch(`${base}/api/lrs/statements?statementId=x`, { headers: { authorization: 'Basic dG9r', 'x-experience-api-version': '1.0.3' } })
    expect(res.status).toBe(200)
    expect(seen.at(-1)).toEqual({ service: 'learning', method: 'GET', path: '/lrs/statements' })
    const put = await fetch(`${base}/api/lrs/activities/state?stateId=LMS.LaunchData`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(put.status).toBe(200)
    expect(seen.at(-1)).toEqual({ service: 'learning', method: 'PUT', path: '/lrs/activities/state' })
    const fetched = await fetch(`${base}/api/cmi5/fetch/tok`, { method: 'POST' })
    expect(fetched.status).toBe(200)
    expect(seen.at(-1)).toEqual({ service: 'learning', method: 'POST', path: '/cmi5/fetch/tok' })
    expect(fetched.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
  })

  it('answers 404 for the portal’s API, pages and registry: content cannot call them on its own origin', async () => {
    const before = seen.length
    for (const [method, path] of [
      ['GET', '/api/users/me'],
      ['PUT', '/api/users/u-1/profile'],
      ['POST', '/api/auth/login'],
      ['GET', '/api/scorm/7/launch'],
      ['POST', '/api/cmi5/7/launch'],
      ['GET', '/api/modules/7/launch'],
      ['GET', '/remote-registry.json'],
      ['GET', '/user-dashboard'],
      ['GET', '/'],
      ['GET', '/metrics'],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method, headers: { authorization: 'Bearer stolen' }, ...(method === 'GET' ? {} : { body: '{}' }) })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'")
    }
    expect(seen.length, 'no service was reached').toBe(before)
  })

  it('serves the player page with the portal’s origins written in, under its own policy', async () => {
    for (const path of ['/player/', '/player/index.html']) {
      const res = await fetch(`${base}${path}`)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('<meta name="portal-origins" content="http://localhost:8080 http://127.0.0.1:8080">')
      expect(res.headers.get('content-security-policy')).toBe(playerPolicy(PORTAL))
      expect(res.headers.get('cache-control')).toBe('no-cache')
    }
    const js = await fetch(`${base}/player/assets/player.0123abcd.js`)
    expect([js.status, await js.text()]).toEqual([200, 'console.log("player")'])
    expect(js.headers.get('cache-control')).toContain('immutable')
    expect((await fetch(`${base}/player/assets/missing.js`)).status).toBe(404)
  })
})

describe('the gateway with its content origin', () => {
  it('listens on two ports: the portal frames the content origin, which frames nothing of the portal and serves its content', async () => {
    const learning = await listen(
      new Hono().all('*', (c) => c.text(`learning ${c.req.path}`)),
      0,
    )
    const gw = await start({
      logger: silentLogger,
      port: 0,
      hostname: '127.0.0.1',
      upstreams: { identity: 'http://127.0.0.1:1', learning: `http://127.0.0.1:${learning.port}`, certs: 'http://127.0.0.1:1', notify: 'http://127.0.0.1:1' },
      content: { port: 0 },
    })
    try {
      expect(gw.contentPort).not.toBe(gw.port)
      expect(gw.contentOrigin).toBe(`http://localhost:${gw.contentPort}`)
      const portal = `http://127.0.0.1:${gw.port}`
      const content = `http://127.0.0.1:${gw.contentPort}`
      const contents = ['localhost', '127.0.0.1', '[::1]'].map((h) => `http://${h}:${gw.contentPort}`).join(' ')
      const onPortal = await fetch(`${portal}/api/content/tok/index.html`)
      expect(onPortal.status).toBe(404)
      // The portal frames and plays the content origin of each of its loopback names.
      expect(onPortal.headers.get('content-security-policy')).toContain(`frame-src 'self' blob: ${contents};`)
      expect(onPortal.headers.get('content-security-policy')).toContain(`media-src 'self' blob: ${contents};`)
      const onContent = await fetch(`${content}/api/content/tok/index.html`)
      expect(await onContent.text()).toBe('learning /content/tok/index.html')
      // Who may frame content: the portal, by its loopback names when PUBLIC_URL does not say.
      const portals = ['localhost', '127.0.0.1', '[::1]'].map((h) => `http://${h}:${gw.port}`).join(' ')
      expect(onContent.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${portals};`)
      // The registry tells the shell where content plays for the address the portal was opened at.
      const registryAt = (host: string) =>
        new Promise<{ content?: { origin: string; portalOrigins: string[] } }>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port: gw.port, path: '/remote-registry.json', headers: { host } }, (res) => {
            let body = ''
            res.on('data', (d) => (body += d))
            res.on('end', () => resolve(JSON.parse(body)))
          })
          req.on('error', reject)
          req.end()
        })
      const portalOrigins = portals.split(' ')
      expect((await registryAt(`127.0.0.1:${gw.port}`)).content).toEqual({ origin: `http://127.0.0.1:${gw.contentPort}`, portalOrigins })
      expect((await registryAt(`localhost:${gw.port}`)).content).toEqual({ origin: `http://localhost:${gw.contentPort}`, portalOrigins })
      // at an address content may not be framed by: the address to use comes first
      expect((await registryAt(`portal.test:${gw.port}`)).content).toEqual({ origin: `http://localhost:${gw.contentPort}`, portalOrigins })
      expect((await fetch(`${content}/api/auth/login`, { method: 'POST' })).status).toBe(404)
      // SCORM commits: the content origin's, refused by the portal
      const commit = (origin: string) => fetch(`${origin}/api/scorm/commit/eyJ.tok.sig`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
      const onContentCommit = await commit(content)
      expect([onContentCommit.status, await onContentCommit.text()]).toEqual([200, 'learning /scorm/commit/eyJ.tok.sig'])
      const onPortalCommit = await commit(portal)
      expect([onPortalCommit.status, await onPortalCommit.json()]).toEqual([404, { message: expect.any(String), code: 'route_not_found' }])
    } finally {
      await gw.close()
      await learning.close()
    }
  })
})
