import busboy from 'busboy'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { COURSE_MESSAGES, type ModuleExtension } from '@portal/contracts'
import { AppError, badRequest } from '@portal/server-kit'
import type { UploadLimits } from '../context.ts'
import type { Storage } from '@portal/server-kit'
import { contentMatches, extensionOf, isAllowedExtension } from './sniff.ts'

/** What a route hands to a service: the raw request body and the headers that describe it. */
export interface UploadRequest {
  contentType: string | undefined
  contentLength: number | undefined
  body: ReadableStream<Uint8Array> | null
}

/** A file of the request, already written to storage. */
export interface StoredFile {
  /** Form field it came in. */
  field: string
  /** File name as the client sent it (without any folder part). */
  originalName: string
  /** Lower-case extension without the dot (`zip`, `pdf`, ...). */
  extension: ModuleExtension
  key: string
  size: number
}

export interface ReceivedUpload {
  /** Text fields; a field sent more than once keeps every value in order. */
  fields: Map<string, string[]>
  files: StoredFile[]
}

export interface ReceiveOptions {
  storage: Storage
  /** Storage prefix of this request's files (`uploads/<uuid>`); the caller owns its clean-up. */
  prefix: string
  limits: UploadLimits
  /** Form fields that may carry files; a file in any other field is rejected. */
  fileFields: readonly string[]
}

/** Bytes read from the start of a file before its content is checked against its extension. */
export const SNIFF_BYTES = 4096
// Text fields are held in memory: bounded each and together (module lists are small JSON texts;
// `modulesToDelete` may come as one field per id).
const MAX_FIELD_BYTES = 256 * 1024
const MAX_TOTAL_FIELD_BYTES = 2 * 1024 * 1024
const MAX_FIELDS = 1100

/** A byte limit in MB for messages (512 MiB → 512; limits under 1 MB keep 3 significant digits). */
export const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024)
  return mb >= 1 ? Math.round(mb * 100) / 100 : Number(mb.toPrecision(3))
}

export const uploadTooLarge = (limits: UploadLimits) =>
  new AppError(413, 'upload_too_large', COURSE_MESSAGES.uploadTooLarge(megabytes(limits.maxRequestBytes)))

/** Rejects what can be rejected before reading the body: not multipart (415), declared too large (413). */
export function checkUploadHeaders(req: UploadRequest, limits: UploadLimits) {
  if (!req.contentType || !/^multipart\/form-data\s*;/i.test(req.contentType))
    throw new AppError(415, 'unsupported_media_type', 'Expected a multipart/form-data body')
  if (req.contentLength !== undefined && req.contentLength > limits.maxRequestBytes) throw uploadTooLarge(limits)
}

const baseName = (name: string) => name.split(/[\\/]/).pop()!.trim()

/**
 * Streams a multipart body: text fields are collected, every file goes straight to storage under
 * `prefix` (never whole in memory; backpressure flows from storage back to the socket) after its
 * first bytes were checked against its extension. Enforces the per-file, per-request and file-count
 * limits while reading. On failure it rejects once every write has settled; files already written
 * stay under `prefix` for the caller to delete.
 */
export async function receiveUpload(req: UploadRequest, opts: ReceiveOptions): Promise<ReceivedUpload> {
  const { limits, storage, prefix } = opts
  checkUploadHeaders(req, limits)
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
  const files: StoredFile[] = []
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
    const extension = extensionOf(name)
    if (!isAllowedExtension(extension)) {
      stream.resume()
      return fail(new AppError(415, 'unsupported_file_type', COURSE_MESSAGES.fileTypeNotSupported(name)))
    }
    const file: StoredFile = { field, originalName: name, extension, key: `${prefix}/${files.length + 1}.${extension}`, size: 0 }
    files.push(file)
    writes.push(
      storage.put(file.key, checkedFile(stream, name, extension, limits)).then(
        ({ size }) => void (file.size = size),
        (err: Error) => fail(err),
      ),
    )
  })
  parser.on('filesLimit', () => fail(new AppError(413, 'too_many_files', COURSE_MESSAGES.tooManyFiles(limits.maxFiles))))
  parser.on('fieldsLimit', () => fail(new AppError(413, 'too_many_fields', 'Too many form fields')))
  parser.on('partsLimit', () => fail(new AppError(413, 'too_many_parts', 'Too many form parts')))

  let received = 0
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      received += chunk.length
      if (received > limits.maxRequestBytes) cb(uploadTooLarge(limits))
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

/** The file's bytes, failing as soon as it is too large or its first bytes do not match its extension. */
async function* checkedFile(stream: AsyncIterable<Buffer>, name: string, extension: ModuleExtension, limits: UploadLimits) {
  let head: Buffer[] = []
  let headBytes = 0
  let size = 0
  let sniffed = false
  const check = () => {
    sniffed = true
    const bytes = Buffer.concat(head)
    head = []
    if (!contentMatches(extension, bytes)) throw new AppError(415, 'file_content_mismatch', COURSE_MESSAGES.fileContentMismatch(name))
    return bytes
  }
  for await (const chunk of stream) {
    size += chunk.length
    if (size > limits.maxFileBytes) throw new AppError(413, 'file_too_large', COURSE_MESSAGES.fileTooLarge(name, megabytes(limits.maxFileBytes)))
    if (sniffed) {
      yield chunk
      continue
    }
    head.push(chunk)
    headBytes += chunk.length
    if (headBytes >= SNIFF_BYTES) yield check()
  }
  if (!sniffed) yield check()
}
