import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '@portal/server-kit/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { createStaticServerApp, start } from './server.ts'

let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'remote-'))
  await writeFile(join(root, 'mf-manifest.json'), '{"id":"mf_exams"}')
})

describe("a remote's server", () => {
  it('reports health and serves the build, answering 404 in the error shape for the rest', async () => {
    const app = createStaticServerApp({ name: 'mf-exams', logger: silentLogger, root })
    expect(await (await app.request('/healthz')).json()).toEqual({ status: 'ok', service: 'mf-exams' })
    const manifest = await app.request('/mf-manifest.json')
    expect(manifest.status).toBe(200)
    expect(manifest.headers.get('x-content-type-options')).toBe('nosniff')
    expect(manifest.headers.get('access-control-allow-origin')).toBeNull()
    expect((await app.request('/nope.js')).status).toBe(404)
  })

  it('lets the portal on another origin fetch the manifest and load the chunks (CORS, resource policy)', async () => {
    const app = createStaticServerApp({ name: 'mf-exams', logger: silentLogger, root, corsOrigins: ['https://portal.example'] })
    const ok = await app.request('/mf-manifest.json', { headers: { origin: 'https://portal.example' } })
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://portal.example')
    expect(ok.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    const other = await app.request('/mf-manifest.json', { headers: { origin: 'https://evil.example' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('refuses to start without a build, saying how to make one', async () => {
    await expect(start({ STATIC_DIR: join(root, 'missing', 'dist'), PORT: '0', LOG_LEVEL: 'silent' })).rejects.toThrow(/npm run build -w missing/)
  })
})
