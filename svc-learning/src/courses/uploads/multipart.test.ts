import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COURSE_MESSAGES } from '@portal/contracts'
import { createLocalStorage, type Storage } from '@portal/server-kit'
import { megabytes, receiveUpload, type UploadRequest } from './multipart.ts'

let dir: string
let storage: Storage
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'multipart-'))
  storage = createLocalStorage(dir)
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const MiB = 1024 * 1024
const limits = { maxFileBytes: 4 * MiB, maxRequestBytes: 8 * MiB, maxFiles: 3 }
const BOUNDARY = 'portal-test-boundary'

/** A multipart body produced lazily: a text field, then one PDF of `fileBytes` bytes in 64 KiB chunks; `pulled()` tells how much was read. */
function lazyUpload(fileBytes: number, name = 'big.pdf') {
  let produced = 0
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nStreamed\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="moduleFiles"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
  )
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  let stage = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stage === 0) {
        stage = 1
        controller.enqueue(head)
      } else if (produced < fileBytes) {
        const n = Math.min(64 * 1024, fileBytes - produced)
        produced += n
        controller.enqueue(new Uint8Array(n).fill(0x61))
      } else if (stage === 1) {
        stage = 2
        controller.enqueue(tail)
      } else controller.close()
    },
  })
  const req: UploadRequest = { contentType: `multipart/form-data; boundary=${BOUNDARY}`, contentLength: undefined, body }
  return { req, pulled: () => produced }
}

describe('receiveUpload', () => {
  it('streams a file to storage and collects the text fields', async () => {
    const { req } = lazyUpload(3 * MiB)
    const result = await receiveUpload(req, { storage, prefix: 'uploads/a', limits, fileFields: ['moduleFiles'] })
    expect(result.fields.get('title')).toEqual(['Streamed'])
    expect(result.files).toEqual([{ field: 'moduleFiles', originalName: 'big.pdf', extension: 'pdf', key: 'uploads/a/1.pdf', size: 3 * MiB + 9 }])
    const stored = await readFile(join(dir, 'uploads', 'a', '1.pdf'))
    expect(stored.length).toBe(3 * MiB + 9)
    expect(stored.subarray(0, 9).toString()).toBe('%PDF-1.4\n')
  })

  it('stops reading as soon as a file passes the per-file limit', async () => {
    const { req, pulled } = lazyUpload(200 * MiB)
    await expect(receiveUpload(req, { storage, prefix: 'uploads/b', limits, fileFields: ['moduleFiles'] })).rejects.toMatchObject({
      status: 413,
      code: 'file_too_large',
      message: COURSE_MESSAGES.fileTooLarge('big.pdf', megabytes(limits.maxFileBytes)),
    })
    expect(pulled()).toBeLessThan(8 * MiB)
    expect(await storage.stat('uploads/b/1.pdf')).toBeNull()
  })

  it('stops reading as soon as the request passes its limit', async () => {
    const { req, pulled } = lazyUpload(200 * MiB)
    await expect(receiveUpload(req, { storage, prefix: 'uploads/c', limits: { ...limits, maxFileBytes: 500 * MiB }, fileFields: ['moduleFiles'] })).rejects.toMatchObject({
      status: 413,
      code: 'upload_too_large',
      message: COURSE_MESSAGES.uploadTooLarge(8),
    })
    expect(pulled()).toBeLessThan(16 * MiB)
  })

  it('refuses a file in an unexpected field', async () => {
    const { req } = lazyUpload(10)
    await expect(receiveUpload(req, { storage, prefix: 'uploads/d', limits, fileFields: ['newModuleFiles'] })).rejects.toMatchObject({
      status: 400,
      code: 'unexpected_file',
    })
  })

  it('states limits in MB with three significant digits', () => {
    expect(megabytes(512 * MiB)).toBe(512)
    expect(megabytes(1024 * MiB)).toBe(1024)
    expect(megabytes(64 * 1024)).toBe(0.0625)
    expect(megabytes(150 * 1024)).toBe(0.146)
  })
})

describe('receiveUpload text fields', () => {
  const fieldsBody = (fields: [string, string][]) => {
    const text = fields.map(([n, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join('') + `--${BOUNDARY}--\r\n`
    return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, contentLength: undefined, body: new Response(text).body } satisfies UploadRequest
  }
  it('keeps every value of a repeated field in order', async () => {
    const result = await receiveUpload(
      fieldsBody([
        ['modulesToDelete', '3'],
        ['title', 'T'],
        ['modulesToDelete', '1'],
      ]),
      { storage, prefix: 'uploads/e', limits, fileFields: [] },
    )
    expect(result.fields.get('modulesToDelete')).toEqual(['3', '1'])
    expect(result.files).toEqual([])
  })
  it('bounds the size of one field and of all fields together', async () => {
    const opts = { storage, prefix: 'uploads/f', limits, fileFields: [] }
    await expect(receiveUpload(fieldsBody([['existingModules', 'x'.repeat(300 * 1024)]]), opts)).rejects.toMatchObject({ status: 413, code: 'field_too_large' })
    const many = Array.from({ length: 10 }, (_, i) => [`f${i}`, 'y'.repeat(250 * 1024)] as [string, string])
    await expect(receiveUpload(fieldsBody(many), opts)).rejects.toMatchObject({ status: 413, code: 'fields_too_large' })
  })
})
