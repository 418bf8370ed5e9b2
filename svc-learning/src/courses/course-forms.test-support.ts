/** Helpers of the course tests: multipart course forms and small real files (the storage walk is ../storage.test-support.ts). */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import yazl from 'yazl'
import type { Harness } from '../harness.test-support.ts'

export const scormFixture = (name: string) => fileURLToPath(new URL(`../../../../shared/fixtures/scorm/${name}`, import.meta.url))

/** A small file that starts like a real PDF. */
export const pdfFile = (name = 'intro.pdf', extraBytes = 0) =>
  new File([`%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n${'x'.repeat(extraBytes)}\n%%EOF\n`], name, { type: 'application/pdf' })

/** A zip of the given text entries, built with yazl. */
export async function zipOf(entries: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile()
  for (const [name, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), name)
  zip.end()
  const chunks: Buffer[] = []
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export const zipFile = async (name: string, entries: Record<string, string> = { 'readme.txt': 'not a package' }) =>
  new File([new Uint8Array(await zipOf(entries))], name, { type: 'application/zip' })

export const fixtureFile = async (name: string) => new File([new Uint8Array(await readFile(scormFixture(name)))], name, { type: 'application/zip' })

/** A multipart form: text fields (objects are sent as JSON) and files under `fileField`. */
export function courseForm(fields: Record<string, unknown>, files: File[] = [], fileField = 'moduleFiles') {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue
    form.append(k, typeof v === 'string' ? v : JSON.stringify(v))
  }
  for (const f of files) form.append(fileField, f)
  return form
}

/** Sends a multipart (or any) body to the app and reads the JSON answer. */
export async function send(h: Harness, method: string, path: string, body: FormData | BodyInit | undefined, token?: string, headers: Record<string, string> = {}) {
  const init: RequestInit & { duplex?: 'half' } = { method, body, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } }
  if (body instanceof ReadableStream) init.duplex = 'half'
  const res = await h.app.request(path, init)
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}
