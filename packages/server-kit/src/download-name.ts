/** Extensions of the types the portal stores and serves, the first being the one a name is given. */
const EXTENSIONS: Record<string, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'application/zip': ['zip'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'video/mp4': ['mp4'],
  'video/webm': ['webm'],
  'audio/mpeg': ['mp3'],
  'audio/wav': ['wav'],
}

// Control characters (C0, DEL, C1), format characters (bidi overrides and isolates such as U+202E,
// zero-width characters, the BOM), line and paragraph separators: invisible, or they reorder or
// break what a person reads as the name ("report\u202Efdp.exe" reads "reportexe.pdf").
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu
// What names a folder on some system, or cannot end a Windows name.
const SEPARATORS = /[/\\]/g
const MAX_STEM = 150
// Something a system would take for an extension: letters and digits with at least one letter.
const EXTENSION = /\.([A-Za-z0-9]{1,10})$/

/**
 * The name a stored file is served under: `name` (the uploader's) without control, bidi or other
 * invisible characters and folder separators, and with an extension of `type` (the type stored,
 * judged by content): a `.html`, `.svg` or `.exe` ending of a PDF becomes `.pdf`. A type the list
 * does not know keeps the name's extension. `fallback` (without extension) names a file whose name
 * has nothing left.
 */
export function downloadName(name: string, type: string, fallback = 'download'): string {
  const clean = name.normalize('NFC').replace(INVISIBLE, '').replace(SEPARATORS, '_').trim()
  const known = EXTENSIONS[type.split(';')[0]!.trim().toLowerCase()]
  const ext = EXTENSION.exec(clean)
  const hasExt = ext !== null && /[A-Za-z]/.test(ext[1]!) && ext.index > 0
  let stem = hasExt && known ? clean.slice(0, ext.index) : clean
  let suffix = ''
  if (known) suffix = `.${hasExt && known.includes(ext[1]!.toLowerCase()) ? ext[1] : known[0]}`
  // Leading dots hide a file; trailing dots and spaces are dropped by Windows (and so change the extension).
  stem = [...stem.replace(/^[\s.]+|[\s.]+$/g, '')]
    .slice(0, MAX_STEM)
    .join('')
    .replace(/[\s.]+$/, '')
  return `${stem || fallback}${suffix}`
}

const rfc5987 = (s: string) => encodeURIComponent(s).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)

/**
 * `Content-Disposition` for a stored file (RFC 6266): `downloadName(name, type, fallback)` as an
 * ASCII `filename` (other characters, quotes, backslashes and `%` as `_`) and exactly as
 * `filename*` (RFC 5987, UTF-8). Without `type` the name is only cleaned (for files the service
 * names itself).
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string, type = '', fallback = 'download'): string {
  const safe = downloadName(name, type, fallback)
  const ascii = safe.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${rfc5987(safe)}`
}
