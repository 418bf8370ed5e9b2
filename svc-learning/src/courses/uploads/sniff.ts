import { COURSE_UPLOAD, type ModuleExtension } from '@portal/contracts'

export type { ModuleExtension }

/** The extension of a file name: lower case, without the dot; '' when there is none. */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1)
  const dot = base.lastIndexOf('.')
  return dot <= 0 || dot === base.length - 1 ? '' : base.slice(dot + 1).toLowerCase()
}

export function isAllowedExtension(ext: string): ext is ModuleExtension {
  return (COURSE_UPLOAD.allowedExtensions as readonly string[]).includes(ext)
}

const startsWith = (head: Uint8Array, bytes: number[], at = 0) => head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b)
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))

const ZIP_LOCAL = [0x50, 0x4b, 0x03, 0x04]
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06]

/** XML text: '<' after an optional byte order mark (UTF-8, or UTF-16 in either byte order) and whitespace. */
function looksLikeXml(head: Uint8Array): boolean {
  const utf16 = startsWith(head, [0xff, 0xfe]) ? 'utf-16le' : startsWith(head, [0xfe, 0xff]) ? 'utf-16be' : null
  const text = new TextDecoder(utf16 ?? 'utf-8').decode(head.subarray(utf16 ? 2 : 0, head.length - (head.length % 2)))
  return /^\uFEFF?[ \t\r\n]*</.test(text)
}

/** Extensions whose modules are packages, extracted by the ingest worker: a zip, or a cmi5.xml alone. */
export const isPackageExtension = (ext: ModuleExtension): boolean => ext === 'zip' || ext === 'xml'

/**
 * Whether the first bytes (>= 16 when the file is that long; pass what you have) match the
 * extension's format: xml '<' (after a byte order mark and whitespace), pdf '%PDF-', zip/pptx 'PK\x03\x04' (also an empty zip 'PK\x05\x06'), mp4 'ftyp'
 * at offset 4, webm EBML 1A45DFA3, mp3 'ID3' or an MPEG frame sync, wav 'RIFF'....'WAVE'.
 */
export function contentMatches(ext: ModuleExtension, head: Uint8Array): boolean {
  switch (ext) {
    case 'pdf':
      return startsWith(head, ascii('%PDF-'))
    case 'zip':
      return startsWith(head, ZIP_LOCAL) || startsWith(head, ZIP_EMPTY)
    case 'pptx':
      return startsWith(head, ZIP_LOCAL)
    case 'mp4':
      return startsWith(head, ascii('ftyp'), 4)
    case 'webm':
      return startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])
    case 'mp3':
      return startsWith(head, ascii('ID3')) || (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0)
    case 'wav':
      return startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WAVE'), 8)
    case 'xml':
      return looksLikeXml(head)
  }
}

const CONTENT_TYPES: Record<ModuleExtension, string> = {
  pdf: 'application/pdf',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  zip: 'application/zip',
  xml: 'application/xml',
}

/** The content type a module file of this extension is stored and served with. */
export function contentTypeOf(ext: ModuleExtension): string {
  return CONTENT_TYPES[ext]
}
