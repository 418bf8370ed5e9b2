import { CERT_MESSAGES, CERT_UPLOAD, type ProofMimeType } from '@portal/contracts'
import { AppError, badRequest, receiveMultipart, type Storage, type UploadRequest } from '@portal/server-kit'

const startsWith = (head: Uint8Array, bytes: number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b)

/**
 * The proof's type by its first bytes, not its name (DESIGN "Security"): PDF `%PDF-`, JPEG
 * `FF D8 FF`, PNG's 8-byte signature; null for anything else (a renamed executable, a text file).
 */
export function proofTypeOf(head: Uint8Array): ProofMimeType | null {
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  return null
}

export const fileTooLarge = () => new AppError(413, 'file_too_large', CERT_MESSAGES.fileSize)
const wrongType = () => new AppError(415, 'unsupported_file_type', CERT_MESSAGES.fileType)
const emptyFile = () => badRequest(CERT_MESSAGES.fileEmpty, 'file_empty')
export const fileRequired = () => badRequest(CERT_MESSAGES.fileRequired, 'file_required')

/** A proof received into storage. */
export interface ReceivedProof {
  key: string
  name: string
  size: number
  type: ProofMimeType
}

/** Room for the form's text fields beside a 10 MB file. */
const FIELDS_ALLOWANCE = 64 * 1024

/**
 * Streams a proof upload (multipart: `file` plus text fields) into storage at `key`: 415 as soon as
 * the first bytes are not PDF, JPEG or PNG, 413 as soon as it passes 10 MB, 400 for an empty file,
 * a missing file or a second one. `beforeFile` is awaited as the file begins, with the fields sent
 * before it, and refuses the upload by throwing before any of the file is read (the access check).
 * On failure whatever was written under `key` is the caller's to delete.
 */
export async function receiveProof(
  req: UploadRequest,
  storage: Storage,
  key: string,
  beforeFile?: (fields: ReadonlyMap<string, string[]>) => Promise<void>,
): Promise<{ fields: Map<string, string[]>; proof: ReceivedProof }> {
  const { fields, files } = await receiveMultipart(req, {
    storage,
    limits: { maxFileBytes: CERT_UPLOAD.maxBytes, maxRequestBytes: CERT_UPLOAD.maxBytes + FIELDS_ALLOWANCE, maxFiles: 1 },
    fileFields: ['file'],
    accept: async (part) => {
      await beforeFile?.(part.fields)
      return {
        key,
        check(head) {
          if (head.length === 0) throw emptyFile()
          return (
            proofTypeOf(head) ??
            (() => {
              throw wrongType()
            })()
          )
        },
      }
    },
    tooLarge: {
      file: fileTooLarge,
      request: fileTooLarge,
      files: () => badRequest('Send one file per upload', 'too_many_files'),
    },
  })
  const file = files[0]
  if (!file) throw fileRequired()
  return { fields, proof: { key, name: file.originalName || 'proof', size: file.size, type: file.checked } }
}
