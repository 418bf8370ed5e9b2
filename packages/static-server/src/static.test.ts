import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import { Hono } from 'hono'
import { beforeAll, describe, expect, it } from 'vitest'
import { cacheControlFor, sendFile, serveBuild } from './static.ts'

const chunk = 'console.log("chunk")'.repeat(100)
let current: string
let previous: string
let app: Hono
const page = (n: number) => `<!doctype html><html><head><title>Page ${n}</title></head><body>${'text '.repeat(300)}</body></html>`
const withLink = (html: string) => html.replace('</head>', '<link rel="preload" href="/a.json" as="fetch" crossorigin="anonymous"></head>')

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'static-'))
  current = join(dir, 'current')
  previous = join(dir, 'previous')
  for (const d of [current, previous]) await mkdir(join(d, 'assets'), { recursive: true })
  await writeFile(join(current, 'mf-manifest.json'), '{"id":"mf_exams","v":2}')
  await writeFile(join(current, 'remoteEntry.js'), 'var entry = 2')
  await writeFile(join(current, 'index.html'), page(1))
  await writeFile(join(current, 'assets', 'main.0123456789.js'), chunk)
  await writeFile(join(previous, 'mf-manifest.json'), '{"id":"mf_exams","v":1}')
  await writeFile(join(previous, 'assets', 'main.abcdef0123.js'), 'old chunk')
  await writeFile(join(dir, 'secret.txt'), 'not in the build')
  app = new Hono()
  app.use('/remotes/mf-exams/*', serveBuild({ root: current, previousRoots: [previous], prefix: '/remotes/mf-exams' }))
  app.get('/index', async (c) => (await sendFile(c, join(current, 'remoteEntry.js'), 'no-cache')) ?? c.text('none', 404))
  app.get('/page', async (c) => (await sendFile(c, join(current, 'index.html'), 'no-cache', withLink)) ?? c.text('none', 404))
  app.notFound((c) => c.text('not found', 404))
})

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers })

describe('serveBuild', () => {
  it('caches hashed chunks for good and revalidates entry files', async () => {
    expect(cacheControlFor('assets/main.0123456789.js')).toBe('public, max-age=31536000, immutable')
    expect(cacheControlFor('remoteEntry.js')).toBe('no-cache')
    expect(cacheControlFor('mf-manifest.json')).toBe('no-cache')
    const entry = await get('/remotes/mf-exams/remoteEntry.js')
    expect(entry.status).toBe(200)
    expect(entry.headers.get('cache-control')).toBe('no-cache')
    expect(entry.headers.get('content-type')).toMatch(/javascript/)
    expect(await entry.text()).toBe('var entry = 2')
    const hashed = await get('/remotes/mf-exams/assets/main.0123456789.js')
    expect(hashed.headers.get('cache-control')).toContain('immutable')
  })

  it('answers 304 to a revalidation with the same ETag, and the new body once the file changed', async () => {
    const first = await get('/remotes/mf-exams/mf-manifest.json')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/)
    const again = await get('/remotes/mf-exams/mf-manifest.json', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('cache-control')).toBe('no-cache')
    await writeFile(join(current, 'mf-manifest.json'), '{"id":"mf_exams","v":3}')
    const changed = await get('/remotes/mf-exams/mf-manifest.json', { 'if-none-match': etag })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(await changed.json()).toEqual({ id: 'mf_exams', v: 3 })
  })

  it('gives the same ETag for the same content wherever it is served (replicas agree)', async () => {
    const a = await get('/remotes/mf-exams/remoteEntry.js')
    const b = await get('/index')
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'))
  })

  it("serves an earlier build's hashed chunks, never its entry files", async () => {
    const old = await get('/remotes/mf-exams/assets/main.abcdef0123.js')
    expect(old.status).toBe(200)
    expect(await old.text()).toBe('old chunk')
    const manifest = await get('/remotes/mf-exams/mf-manifest.json')
    expect(((await manifest.json()) as { v: number }).v).not.toBe(1)
  })

  it('compresses with brotli or gzip as the browser accepts, and keeps small files plain', async () => {
    const br = await get('/remotes/mf-exams/assets/main.0123456789.js', { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(chunk)
    const gz = await get('/remotes/mf-exams/assets/main.0123456789.js', { 'accept-encoding': 'gzip, br;q=0' })
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(chunk)
    const small = await get('/remotes/mf-exams/remoteEntry.js', { 'accept-encoding': 'br' })
    expect(small.headers.get('content-encoding')).toBeNull()
  })

  it('finds nothing outside the build or for a path it does not have', async () => {
    for (const path of [
      '/remotes/mf-exams/../secret.txt',
      '/remotes/mf-exams/%2e%2e/secret.txt',
      '/remotes/mf-exams/assets/..%2f..%2fsecret.txt',
      '/remotes/mf-exams/',
      '/remotes/mf-exams/nope.js',
    ])
      expect((await get(path)).status, path).toBe(404)
  })

  it('answers HEAD with the headers only', async () => {
    const head = await app.request('/remotes/mf-exams/remoteEntry.js', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe('13')
    expect(head.headers.get('etag')).toBeTruthy()
  })
})

describe('sendFile with a rewrite', () => {
  it('sends the text as rewritten, compressed, with an ETag of what it sends, and the file on disk unchanged', async () => {
    const res = await get('/page', { 'accept-encoding': 'gzip' })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const html = gunzipSync(Buffer.from(await res.arrayBuffer())).toString()
    expect(html).toBe(withLink(page(1)))
    expect(html).toContain('<link rel="preload" href="/a.json" as="fetch" crossorigin="anonymous"></head>')
    expect(await readFile(join(current, 'index.html'), 'utf8')).toBe(page(1))
    // The same file sent plain has another ETag: a browser holding one never gets a 304 for the other.
    const plain = new Hono().get('/', async (c) => (await sendFile(c, join(current, 'index.html'), 'no-cache'))!)
    const etag = res.headers.get('etag')!
    expect((await plain.request('/')).headers.get('etag')).not.toBe(etag)
    expect((await get('/page', { 'if-none-match': etag })).status).toBe(304)
  })

  it('rewrites the file again once it changed on disk', async () => {
    const etag = (await get('/page')).headers.get('etag')!
    await writeFile(join(current, 'index.html'), page(10))
    const res = await get('/page', { 'if-none-match': etag })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(withLink(page(10)))
  })
})
