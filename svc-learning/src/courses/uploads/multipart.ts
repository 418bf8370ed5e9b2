import { COURSE_MESSAGES, type ModuleExtension } from '@portal/contracts'
import { AppError, SNIFF_BYTES, checkMultipartHeaders, receiveMultipart, type Storage, type UploadRequest } from '@portal/server-kit'
import type { UploadLimits } from '../../context.ts'
import { contentMatches, extensionOf, isAllowedExtension } from './sniff.ts'

export { SNIFF_BYTES, type UploadRequest }

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

/** A byte limit in MB for messages (512 MiB → 512; limits under 1 MB keep 3 significant digits). */
export const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024)
  return mb >= 1 ? Math.round(mb * 100) / 100 : Number(mb.toPrecision(3))
}

export const uploadTooLarge = (limits: UploadLimits) => new AppError(413, 'upload_too_large', COURSE_MESSAGES.uploadTooLarge(megabytes(limits.maxRequestBytes)))

/** Rejects what can be rejected before reading the body: not multipart (415), declared too large (413). */
export function checkUploadHeaders(req: UploadRequest, limits: UploadLimits) {
  checkMultipartHeaders(req, limits, () => uploadTooLarge(limits))
}

/**
 * Streams a course form (the kit's `receiveMultipart`): a file whose extension is not allowed is
 * refused before any of it is stored, and one whose first bytes do not match its extension as soon
 * as they arrive; files go to `prefix/<n>.<ext>`. On failure the files already written stay under
 * `prefix` for the caller to delete.
 */
export async function receiveUpload(req: UploadRequest, opts: ReceiveOptions): Promise<ReceivedUpload> {
  const { limits } = opts
  const received = await receiveMultipart(req, {
    storage: opts.storage,
    limits,
    fileFields: opts.fileFields,
    accept({ name, index }) {
      const extension = extensionOf(name)
      if (!isAllowedExtension(extension)) throw new AppError(415, 'unsupported_file_type', COURSE_MESSAGES.fileTypeNotSupported(name))
      return {
        key: `${opts.prefix}/${index + 1}.${extension}`,
        check(head) {
          if (!contentMatches(extension, head)) throw new AppError(415, 'file_content_mismatch', COURSE_MESSAGES.fileContentMismatch(name))
          return extension
        },
      }
    },
    tooLarge: {
      file: (name) => new AppError(413, 'file_too_large', COURSE_MESSAGES.fileTooLarge(name, megabytes(limits.maxFileBytes))),
      request: () => uploadTooLarge(limits),
      files: () => new AppError(413, 'too_many_files', COURSE_MESSAGES.tooManyFiles(limits.maxFiles)),
    },
  })
  return {
    fields: received.fields,
    files: received.files.map((f) => ({ field: f.field, originalName: f.originalName, extension: extensionOf(f.originalName) as ModuleExtension, key: f.key, size: f.size })),
  }
}
