import { REMOTE_NAMES } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { SECURITY_HEADERS } from './app.ts'
import { RemotesEnv, allowRemoteOrigins, manifestPreloads, registryOf, remotesFromEnv, resolveRemote } from './registry.ts'

describe('remote registry from configuration', () => {
  it('serves every remote of the contract from its build folder when nothing is configured', () => {
    const remotes = remotesFromEnv({}, '/app/')
    expect(remotes.map((r) => r.name)).toEqual(REMOTE_NAMES)
    expect(remotes.find((r) => r.name === 'mf_exams')).toEqual({ name: 'mf_exams', dir: '/app/mf-exams/dist' })
    expect(registryOf(remotes).remotes.mf_exams).toEqual({ entry: '/remotes/mf-exams/mf-manifest.json' })
  })

  it('keeps a remote with a server of its own same-origin: the gateway proxies it', () => {
    const remotes = remotesFromEnv({ REMOTE_MF_EXAMS_URL: 'http://mf-exams:8080' }, '/app/')
    expect(remotes.find((r) => r.name === 'mf_exams')).toEqual({ name: 'mf_exams', url: 'http://mf-exams:8080/' })
    expect(registryOf(remotes).remotes.mf_exams!.entry).toBe('/remotes/mf-exams/mf-manifest.json')
    expect(allowRemoteOrigins(SECURITY_HEADERS, remotes)).toBe(SECURITY_HEADERS)
  })

  it('points the shell at a remote on another origin and lets the CSP load scripts and the manifest from it', () => {
    const remotes = remotesFromEnv({ REMOTE_MF_ADMIN_PUBLIC_URL: 'https://admin.cdn.example/v42' }, '/app/')
    expect(registryOf(remotes).remotes.mf_admin!.entry).toBe('https://admin.cdn.example/v42/mf-manifest.json')
    const csp = allowRemoteOrigins(SECURITY_HEADERS, remotes)['content-security-policy']!
    expect(csp).toContain("script-src 'self' https://admin.cdn.example;")
    expect(csp).toContain("connect-src 'self' https://admin.cdn.example;")
    expect(csp).toContain("default-src 'self';")
  })

  it("preloads every remote's manifest in the shell's page at the registry's URL, without cookies, as the federation runtime fetches it", () => {
    const remotes = remotesFromEnv({ REMOTE_MF_ADMIN_PUBLIC_URL: 'https://admin.cdn.example/v42' }, '/app/')
    const head = '<!doctype html><html><head><title>Portal</title><script defer src="/main.js"></script>'
    const page = manifestPreloads(registryOf(remotes))(`${head}</head><body></body></html>`)
    const links = [...page.matchAll(/<link [^>]*>/g)].map(([l]) => l)
    expect(links).toHaveLength(REMOTE_NAMES.length)
    expect(links).toContain('<link rel="preload" href="/remotes/mf-exams/mf-manifest.json" as="fetch" crossorigin="anonymous">')
    expect(links).toContain('<link rel="preload" href="https://admin.cdn.example/v42/mf-manifest.json" as="fetch" crossorigin="anonymous">')
    // In the head, after what was there; nothing inline that runs (the CSP allows no inline script).
    expect(page).toBe(`${head}${links.join('')}</head><body></body></html>`)
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/)
  })

  it('quotes a URL safely inside the link', () => {
    const page = manifestPreloads({ remotes: { mf_admin: { entry: 'https://cdn.example/a&b"<x/mf-manifest.json' } } })('<head></head>')
    expect(page).toBe('<head><link rel="preload" href="https://cdn.example/a&amp;b&quot;&lt;x/mf-manifest.json" as="fetch" crossorigin="anonymous"></head>')
  })

  it('refuses a remote URL that is not http(s), naming the variable', () => {
    const parsed = RemotesEnv.safeParse({ REMOTE_MF_EXAMS_URL: 'file:///etc' })
    expect(parsed.success).toBe(false)
    expect(parsed.error!.issues[0]!.path).toEqual(['REMOTE_MF_EXAMS_URL'])
    expect(RemotesEnv.parse({ REMOTE_MF_EXAMS_URL: '' }).REMOTE_MF_EXAMS_URL).toBeUndefined()
  })

  it("maps a proxied remote's path onto its server, under the server's own path, never above it", () => {
    const remotes = remotesFromEnv({ REMOTE_MF_EXAMS_URL: 'http://static.internal/mf-exams/1.4.2' }, '/app/')
    expect(resolveRemote(remotes, '/remotes/mf-exams/assets/a.0123456789.js?x=1')).toEqual({
      name: 'mf_exams',
      path: '/mf-exams/1.4.2/assets/a.0123456789.js?x=1',
    })
    expect(resolveRemote(remotes, '/remotes/mf-learner/remoteEntry.js')).toBeUndefined() // served from its folder
    for (const path of ['/remotes/mf-exams/../mf-admin/remoteEntry.js', '/remotes/mf-exams/%2e%2e/x', '/remotes/mf-exams/a/..', '/remotes/mf-exams/a%2f..%2fb'])
      expect(resolveRemote(remotes, path), path).toBeUndefined()
  })
})
