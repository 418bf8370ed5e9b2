import busboy from 'busboy'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { AppError, badRequest } from './errors.ts'
import type { Storage } from './storage.ts'

/** What a route hands to a service: the raw request body and the headers that describe it. */
export interface UploadRequest {
  contentType: string | undefined
  contentLength: number | undefined
  body: ReadableStream<Uint8Array> | null
}

export interface MultipartLimits {
  maxFileBytes: number
  maxRequestBytes: number
  maxFiles: number
}

/** A file of the request, already written to storage; `checked` is what its check returned. */
export interface ReceivedFile<C = unknown> {
  /** Form field it came in. */
  field: string
  /** File name as the client sent it (without any folder part). */
  originalName: string
  key: string
  size: number
  checked: C
}

export interface ReceivedMultipart<C = unknown> {
  /** Text fields; a field sent more than once keeps every value in order. */
  fields: Map<string, string[]>
  files: ReceivedFile<C>[]
}

/** Where an accepted file goes and how its first bytes are judged (`ReceiveMultipartOptions.accept`). */
export interface AcceptedFile<C> {
  key: string
  check(head: Buffer): C
}

export interface ReceiveMultipartOptions<C> {
  storage: Storage
  limits: MultipartLimits
  /** Form fields that may carry files; a file in any other field is rejected. */
  fileFields: readonly string[]
  /**
   * Called as a file part begins, with the text fields received before it: where it goes (`key`)
   * and how its first bytes are judged. Throw or reject (an AppError) to refuse the file before any
   * of it is read or stored; while a returned promise is pending (e.g. an access check on the
   * database) the file, and so the request, is not read further. `check` sees the first
   * `SNIFF_BYTES` bytes (all of them for a shorter file, none for an empty one) and throws to refuse
   * the file; what it returns is kept as the file's `checked`.
   */
  accept(part: { field: string; name: string; index: number; fields: ReadonlyMap<string, string[]> }): AcceptedFile<C> | Promise<AcceptedFile<C>>
  /** The errors for a file over `maxFileBytes`, a request over `maxRequestBytes` and (optionally) more than `maxFiles` files. */
  tooLarge: { file(name: string): AppError; request(): AppError; files?(): AppError }
}

/** Bytes read from the start of a file before its content is checked. */
export const SNIFF_BYTES = 4096
// Text fields are held in memory: bounded each and together.
const MAX_FIELD_BYTES = 256 * 1024
const MAX_TOTAL_FIELD_BYTES = 2 * 1024 * 1024
const MAX_FIELDS = 1100

/** Rejects what can be rejected before reading the body: not multipart (415), declared too large. */
export function checkMultipartHeaders(req: UploadRequest, limits: MultipartLimits, requestTooLarge: () => AppError) {
  if (!req.contentType || !/^multipart\/form-data\s*;/i.test(req.contentType)) throw new AppError(415, 'unsupported_media_type', 'Expected a multipart/form-data body')
  if (req.contentLength !== undefined && req.contentLength > limits.maxRequestBytes) throw requestTooLarge()
}

const baseName = (name: string) => name.split(/[\\/]/).pop()!.trim()

/**
 * Streams a multipart body (busboy): text fields are collected, every file goes straight to storage
 * (never whole in memory; backpressure flows from storage back to the socket) once its first bytes
 * passed its check. Enforces the per-file, per-request and file-count limits while reading. On
 * failure it rejects once every write has settled; files already written stay in storage for the
 * caller to delete (it chose their keys).
 */
export async function receiveMultipart<C>(req: UploadRequest, opts: ReceiveMultipartOptions<C>): Promise<ReceivedMultipart<C>> {
  const { limits, storage } = opts
  checkMultipartHeaders(req, limits, opts.tooLarge.request)
  if (!req.body) throw badRequest('The upload is empty', 'invalid_multipart')
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': req.contentType! },
      defParamCharset: 'utf8',
      limits: { files: limits.maxFiles, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: limits.maxFiles + MAX_FIELDS },
    })
  } catch {
    throw badRequest('Malformed multipart body', 'invalid_multipart')
  }

  const fields = new Map<string, string[]>()
  const files: ReceivedFile<C>[] = []
  const writes: Promise<unknown>[] = []
  let failure: Error | undefined
  const fail = (err: Error) => {
    if (failure) return
    failure = err
    parser.destroy(err)
  }

  let fieldBytes = 0
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) return fail(new AppError(413, 'field_too_large', `Field ${name} is too large`))
    fieldBytes += Buffer.byteLength(value) + Buffer.byteLength(name)
    if (fieldBytes > MAX_TOTAL_FIELD_BYTES) return fail(new AppError(413, 'fields_too_large', 'The form fields are too large'))
    fields.set(name, [...(fields.get(name) ?? []), value])
  })
  parser.on('file', (field, stream, info) => {
    // Aborting the parser destroys the file in hand with the cause, which is reported once, by the parser.
    stream.on('error', () => undefined)
    const name = baseName(info.filename ?? '')
    if (failure) return void stream.resume()
    if (!opts.fileFields.includes(field)) {
      stream.resume()
      return fail(badRequest(`Unexpected file field: ${field}`, 'unexpected_file'))
    }
    const file = { field, originalName: name, key: '', size: 0, checked: undefined as C }
    const index = files.push(file) - 1
    const store = async () => {
      // Until it is accepted the file is not read: busboy, then the request, wait for it.
      const accepted = await opts.accept({ field, name, index, fields })
      if (failure) return void stream.resume()
      file.key = accepted.key
      const source = checkedFile(stream, name, limits, opts.tooLarge.file, (head) => (file.checked = accepted.check(head)))
      file.size = (await storage.put(file.key, source)).size
    }
    writes.push(
      store().catch((err: Error) => {
        stream.resume()
        fail(err)
      }),
    )
  })
  parser.on('filesLimit', () => fail(opts.tooLarge.files?.() ?? new AppError(413, 'too_many_files', `At most ${limits.maxFiles} file(s) per upload`)))
  parser.on('fieldsLimit', () => fail(new AppError(413, 'too_many_fields', 'Too many form fields')))
  parser.on('partsLimit', () => fail(new AppError(413, 'too_many_parts', 'Too many form parts')))

  let received = 0
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      received += chunk.length
      if (received > limits.maxRequestBytes) cb(opts.tooLarge.request())
      else cb(null, chunk)
    },
  })
  try {
    await pipeline(Readable.fromWeb(req.body as WebReadableStream<Uint8Array>), counter, parser)
  } catch (err) {
    fail(err instanceof AppError ? err : badRequest('The upload was interrupted or malformed', 'invalid_multipart'))
  }
  await Promise.allSettled(writes)
  if (failure) throw failure
  return { fields, files }
}

/** The file's bytes, failing as soon as it is too large or its first bytes fail the check. */
async function* checkedFile(stream: AsyncIterable<Buffer>, name: string, limits: MultipartLimits, fileTooLarge: (name: string) => AppError, check: (head: Buffer) => void) {
  let head: Buffer[] = []
  let headBytes = 0
  let size = 0
  let sniffed = false
  const checkHead = () => {
    sniffed = true
    const bytes = Buffer.concat(head)
    head = []
    check(bytes)
    return bytes
  }
  for await (const chunk of stream) {
    size += chunk.length
    if (size > limits.maxFileBytes) throw fileTooLarge(name)
    if (sniffed) {
      yield chunk
      continue
    }
    head.push(chunk)
    headBytes += chunk.length
    if (headBytes >= SNIFF_BYTES) yield checkHead()
  }
  if (!sniffed) yield checkHead()
}

/** The raw request body of a streamed upload (never read by a middleware first; see `ownBodyLimit`). */
export function uploadRequestOf(c: { req: { header(name: string): string | undefined; raw: Request } }): UploadRequest {
  const length = c.req.header('content-length')
  return {
    contentType: c.req.header('content-type'),
    contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
    body: c.req.raw.body,
  }
}
