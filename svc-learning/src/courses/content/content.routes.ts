import { Readable } from 'node:stream'
import { Hono, type Context } from 'hono'
import { contentDisposition, doc, notFound, type AppEnv } from '@portal/server-kit'
import type { LaunchTokens } from '../../shared/index.ts'
import type { Storage } from '@portal/server-kit'
import type { ContentService } from './content.service.ts'

/** A single byte range of a `size`-byte object, 'unsatisfiable', or null to send the whole object. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!m || (m[1] === '' && m[2] === '')) return null // malformed or multiple ranges: the whole object
  if (m[1] === '') {
    const n = Number(m[2])
    if (n === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - n), end: size - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}

const contentNotFound = () => notFound('Not found', 'content_not_found')

/**
 * `/content/{token}/*`: the files of a launch, with no bearer (frames and media elements cannot
 * send one): the launch token in the path is the credential and binds the learner and module.
 * The gateway serves these paths on the content origin only and adds the content's security
 * policy there (it knows the portal's and the content's origins).
 */
export const contentRoutes = (svc: ContentService, launchTokens: LaunchTokens, storage: Storage) =>
  new Hono<AppEnv>().get(
    '/:token/*',
    doc({
      summary: 'A file of a launch (its package or media), with byte ranges',
      description: "Served on the content origin only; `*` is the file's path in the package.",
      tags: ['Content'],
      roles: 'the launch holding the signed launch token in its path',
      responses: {
        200: { media: 'application/octet-stream', description: 'The file, with its own content type' },
        206: { media: 'application/octet-stream', description: 'A byte range of it' },
        401: null,
        404: null,
        416: null,
      },
    }),
    async (c: Context<AppEnv>) => {
      const token = c.req.param('token') ?? ''
      const claims = await launchTokens.verify(token)
      // The raw (still %-encoded) path after the token; query strings (`?content=...`) are not part of it.
      const pathname = new URL(c.req.url).pathname
      const marker = `/${token}/`
      const at = pathname.indexOf(marker)
      if (at < 0) throw contentNotFound()
      const rest = pathname.slice(at + marker.length)
      const found = await svc.locate(claims, rest)
      if (!found) throw contentNotFound()
      const { info } = found
      const etag = `"${info.size.toString(16)}-${Math.floor(info.modifiedAt.getTime()).toString(16)}"`
      const headers: Record<string, string> = {
        'Content-Type': found.type,
        'Accept-Ranges': 'bytes',
        ETag: etag,
        'Last-Modified': info.modifiedAt.toUTCString(),
        'Cache-Control': 'private, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
      }
      // The module's name made safe to save (its type's extension, no control or bidi characters).
      if (found.download) headers['Content-Disposition'] = contentDisposition('attachment', found.download, found.type, 'module')
      const inm = c.req.header('if-none-match')
      if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*')) {
        return new Response(null, { status: 304, headers })
      }
      // If-Modified-Since counts only without If-None-Match (RFC 9110 13.1.3); dates have whole seconds.
      const ims = inm ? NaN : Date.parse(c.req.header('if-modified-since') ?? '')
      if (ims >= Math.floor(info.modifiedAt.getTime() / 1000) * 1000) return new Response(null, { status: 304, headers })
      const ifRange = c.req.header('if-range')
      const range = ifRange && ifRange !== etag && ifRange !== headers['Last-Modified'] ? null : parseRange(c.req.header('range'), info.size)
      if (range === 'unsatisfiable') {
        return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${info.size}` } })
      }
      const head = c.req.method === 'HEAD'
      if (range) {
        headers['Content-Range'] = `bytes ${range.start}-${range.end}/${info.size}`
        headers['Content-Length'] = String(range.end - range.start + 1)
        const body = head ? null : (Readable.toWeb(await storage.get(found.key, range)) as ReadableStream)
        return new Response(body, { status: 206, headers })
      }
      headers['Content-Length'] = String(info.size)
      const body = head || info.size === 0 ? null : (Readable.toWeb(await storage.get(found.key)) as ReadableStream)
      return new Response(body, { status: 200, headers })
    },
  )
