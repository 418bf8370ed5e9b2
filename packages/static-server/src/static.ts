import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Context, MiddlewareHandler } from 'hono'
import { getMimeType } from 'hono/utils/mime'

/** A file name with a content hash (`main.3f2a9c81d0.js`, as build-kit names chunks): it never changes. */
const HASHED = /\.[0-9a-f]{8,}\.[a-z0-9]+$/
const IMMUTABLE = 'public, max-age=31536000, immutable'
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json|manifest\+json|xml)|image\/svg\+xml)/
const MIN_COMPRESS_BYTES = 1024

/**
 * How long a browser may keep a file of a build: hashed chunks for good; everything else
 * (`remoteEntry.js`, `mf-manifest.json`, `index.html`) is revalidated on every load, so a
 * redeployed build is picked up by the next page load.
 */
export const cacheControlFor = (path: string): string => (HASHED.test(path) ? IMMUTABLE : 'no-cache')

type Encoding = 'br' | 'gzip'

interface BuildFile {
  body: Buffer
  /** Weak (it holds for every encoding of the body) and from the content: alike on every replica. */
  etag: string
  type: string
  lastModified: string
  mtimeMs: number
  /** On disk (with mtimeMs: whether the file changed since it was read). */
  size: number
  encoded: Partial<Record<Encoding, Promise<Buffer>>>
}

/** What a server changes in a file's text before sending it (e.g. links it adds to `index.html`). */
export type Rewrite = (text: string) => string

// Builds are small and their files are read again only when they change on disk (a rebuild in
// development), so every file served is kept in memory with its hash and compressed forms (a
// rewritten file as rewritten, one cache per rewrite).
const files = new Map<string, BuildFile>()
const rewritten = new WeakMap<Rewrite, Map<string, BuildFile>>()

function cacheOf(rewrite: Rewrite | undefined): Map<string, BuildFile> {
  if (!rewrite) return files
  let cache = rewritten.get(rewrite)
  if (!cache) rewritten.set(rewrite, (cache = new Map()))
  return cache
}

async function load(path: string, rewrite?: Rewrite): Promise<BuildFile | undefined> {
  const cache = cacheOf(rewrite)
  const st = await stat(path).catch(() => undefined)
  if (!st?.isFile()) {
    cache.delete(path)
    return undefined
  }
  const known = cache.get(path)
  if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known
  const read = await readFile(path)
  const body = rewrite ? Buffer.from(rewrite(read.toString('utf8'))) : read
  const file: BuildFile = {
    body,
    etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    type: getMimeType(path) ?? 'application/octet-stream',
    lastModified: st.mtime.toUTCString(),
    mtimeMs: st.mtimeMs,
    size: st.size,
    encoded: {},
  }
  cache.set(path, file)
  return file
}

const compress: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
}

/** The encoding to send: brotli, else gzip, when the browser accepts it (q=0 refuses). */
function pickEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || !/^\s*q=0(?:\.0*)?\s*$/.test(q))
      .map(([name]) => name!.trim().toLowerCase()),
  )
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined
}

const matchesEtag = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch &&
  ifNoneMatch.split(',').some((t) => {
    const tag = t.trim()
    return tag === '*' || tag.replace(/^W\//, '') === etag.replace(/^W\//, '')
  })

async function respond(c: Context, file: BuildFile, cacheControl: string): Promise<Response> {
  const headers: Record<string, string> = {
    'Cache-Control': cacheControl,
    ETag: file.etag,
    'Last-Modified': file.lastModified,
    Vary: 'Accept-Encoding',
  }
  if (matchesEtag(c.req.header('if-none-match'), file.etag)) return c.body(null, 304, headers)
  const encoding = COMPRESSIBLE.test(file.type) && file.body.length >= MIN_COMPRESS_BYTES ? pickEncoding(c.req.header('accept-encoding')) : undefined
  const body = encoding ? await (file.encoded[encoding] ??= compress[encoding](file.body)) : file.body
  if (encoding) headers['Content-Encoding'] = encoding
  headers['Content-Type'] = file.type
  headers['Content-Length'] = String(body.length)
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers)
}

/** The path below `prefix`, when it is a plain relative file path (no dot segments, no escapes). */
function relativePath(path: string, prefix: string): string | undefined {
  if (!path.startsWith(`${prefix}/`)) return undefined
  const rel = path.slice(prefix.length + 1)
  if (!rel || /[%\\\0]/.test(rel) || rel.split('/').some((s) => s === '' || s === '.' || s === '..')) return undefined
  return rel
}

/**
 * Sends one file (e.g. a single-page app's `index.html`) with an ETag and the given caching; with
 * `rewrite`, its text as rewritten (the ETag is of what is sent). The rewrite must give the same
 * text for the same file: its result is kept until the file changes.
 */
export async function sendFile(c: Context, path: string, cacheControl = cacheControlFor(path), rewrite?: Rewrite): Promise<Response | undefined> {
  const file = await load(path, rewrite)
  return file && respond(c, file, cacheControl)
}

export interface ServeBuildOptions {
  /** The build folder (e.g. `mf-exams/dist`). */
  root: string
  /**
   * Earlier builds whose hashed files stay servable: a page loaded before a redeploy still finds
   * the chunks it has not fetched yet. Entry files always come from `root`.
   */
  previousRoots?: readonly string[]
  /** URL prefix the build is mounted under (e.g. `/remotes/mf-exams`); default the root. */
  prefix?: string
}

/**
 * Serves a build's files for GET and HEAD: a content ETag (304 on `If-None-Match`), hashed chunks
 * immutable and the rest revalidated, brotli or gzip. Anything it does not find goes to `next`.
 */
export function serveBuild(opts: ServeBuildOptions): MiddlewareHandler {
  const prefix = opts.prefix ?? ''
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const rel = relativePath(c.req.path, prefix)
    if (!rel) return next()
    let file = await load(join(opts.root, rel))
    if (!file && HASHED.test(rel)) for (const root of opts.previousRoots ?? []) if ((file = await load(join(root, rel)))) break
    if (!file) return next()
    return respond(c, file, cacheControlFor(rel))
  }
}
