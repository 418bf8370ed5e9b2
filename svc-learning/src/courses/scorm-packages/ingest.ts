import { open, type FileHandle } from 'node:fs/promises'
import { Z_BUF_ERROR, Z_NO_FLUSH, Z_OK, Z_STREAM_END, ZStream, zlibInflate, zlibInflateInit2, zlibInflateReset } from 'pako'
import yauzl, { type ZipFile } from 'yauzl'
import { isSafeKey, type Storage } from '@portal/server-kit'
import { forEachLimited } from './concurrency.ts'
import { AICC_EXTENSIONS, parseAicc, type AiccFiles } from './aicc.ts'
import { parseManifest } from './manifest.ts'
import { cmi5Items, parseCmi5Xml } from '../cmi5-packages/cmi5-xml.ts'
import { cmi5Aus, walkItems, type Cmi5Course } from '@portal/contracts'
import { isExternalHref, launchPathOf, PackageError, type PackageInfo } from './package-info.ts'

export interface ExtractLimits {
  /** Files in the package (directories not counted). */
  maxEntries: number
  /** Sum of the extracted sizes. */
  maxTotalBytes: number
  /** Largest extracted file. */
  maxEntryBytes: number
  /** Extracted / compressed size, per file and for the whole zip (see RATIO_MIN_BYTES). */
  maxRatio: number
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 2 * 1024 ** 3,
  maxEntryBytes: 1024 ** 3,
  maxRatio: 200,
}

/** The compression ratio is judged only above this size: small text files legitimately shrink a lot. */
const RATIO_MIN_BYTES = 1024 * 1024
/** The manifest and AICC files are the only entries read into memory. */
const MAX_STRUCTURE_FILE_BYTES = 8 * 1024 * 1024
/**
 * Entries extracted at once. Each lane owns its buffers and decoder (see Lane) and has one read or
 * one storage write under way, so memory does not depend on the package. Two lanes keep the disk
 * busy while the other inflates, and leave half of libuv's thread pool (4) to the service's own
 * file reads; more lanes were no faster on 2,000 files, ~20% faster on 10,000 tiny ones.
 */
const ENTRIES_IN_FLIGHT = 2
/** Bytes read from the zip, and inflated, at a time. */
const CHUNK_BYTES = 64 * 1024
/** The control codes U+0000..U+001F, which no entry name may hold (built from code points, as they are meant). */
const CONTROL_CODES = new RegExp(`[${String.fromCharCode(0x00)}-${String.fromCharCode(0x1f)}]`)
/** Folders and files that zip tools add and that are not part of the content. */
const isJunk = (path: string) => path.startsWith('__MACOSX/') || /(^|\/)(\.DS_Store|Thumbs\.db)$/.test(path)

const invalidZip = () => new PackageError('invalid_zip', 'The package is not a valid zip file')
const tooLarge = () => new PackageError('too_large', 'The package is too large when extracted')
const zipBomb = () => new PackageError('zip_bomb', 'The package looks like a zip bomb (compression ratio too high)')
const unsafePath = (name: string) => new PackageError('unsafe_path', `Unsafe path in package: ${name}`)

/** yauzl's own file name checks (absolute paths, '..', backslashes) reject the whole zip with these. */
const YAUZL_UNSAFE_NAME = /^(?:absolute path|invalid relative path|invalid characters in fileName): ([\s\S]*)$/

/** Errors from reading the zip itself: an unsafe name or a corrupt archive, never an I/O problem of ours. */
function zipReadError(err: unknown): Error {
  if (err instanceof PackageError) return err
  const message = err instanceof Error ? err.message : String(err)
  const unsafe = YAUZL_UNSAFE_NAME.exec(message)
  if (unsafe) return unsafePath(unsafe[1])
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  // File-system errors (ENOENT, EACCES, EMFILE, ...) are not the package's fault.
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return err as Error
  return invalidZip()
}

/** What extraction needs of a central directory record (yauzl's Entry objects hold ~1 KB each). */
interface PackageFile {
  /** Path inside the package after the single top folder (if any) is stripped. */
  path: string
  /** The name as the zip spells it, for messages. */
  name: string
  /** Where the entry's local header starts. */
  headerOffset: number
  compressedSize: number
  size: number
  /** 0 stored, 8 deflated: the only methods let through. */
  method: number
}

/**
 * Reads and checks the central directory: names, links, duplicates, sizes and ratios. Nothing is
 * extracted. Paths are NFC-normalised (macOS zips store decomposed names, manifests composed ones).
 */
async function readCentralDirectory(zip: ZipFile, limits: ExtractLimits): Promise<PackageFile[]> {
  // Directories are entries too, so allow some room before giving up without reading them all.
  if (zip.entryCount > limits.maxEntries * 2 + 100) {
    throw new PackageError('too_many_files', `The package has too many files (${zip.entryCount}, the limit is ${limits.maxEntries})`)
  }
  const files: PackageFile[] = []
  const names = new Set<string>()
  let total = 0
  let compressedTotal = 0
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName
      if (CONTROL_CODES.test(name) || name.length > 900) throw unsafePath(name)
      const isDirectory = name.endsWith('/')
      const path = (isDirectory ? name.slice(0, -1) : name).normalize('NFC')
      if (!isSafeKey(path)) throw unsafePath(name)
      if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000) {
        throw new PackageError('symlink', `The package contains a symbolic link: ${name}`)
      }
      if (isDirectory || isJunk(path)) continue
      if (names.has(path)) throw new PackageError('duplicate_file', `The package contains the same file twice: ${name}`)
      names.add(path)
      if (entry.isEncrypted()) throw new PackageError('encrypted', `The package contains an encrypted file: ${name}`)
      if (!entry.canDecodeFileData()) {
        throw new PackageError('unsupported_compression', `The package uses an unsupported compression method: ${name}`)
      }
      if (entry.uncompressedSize > limits.maxEntryBytes) throw tooLarge()
      total += entry.uncompressedSize
      compressedTotal += entry.compressedSize
      if (total > limits.maxTotalBytes) throw tooLarge()
      if (entry.uncompressedSize >= RATIO_MIN_BYTES && entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxRatio) {
        throw zipBomb()
      }
      files.push({
        path,
        name,
        headerOffset: entry.relativeOffsetOfLocalHeader,
        compressedSize: entry.compressedSize,
        size: entry.uncompressedSize,
        method: entry.compressionMethod,
      })
    }
  } catch (err) {
    throw zipReadError(err)
  }
  if (files.length > limits.maxEntries) {
    throw new PackageError('too_many_files', `The package has too many files (${files.length}, the limit is ${limits.maxEntries})`)
  }
  if (total >= RATIO_MIN_BYTES && total / Math.max(1, compressedTotal) > limits.maxRatio) throw zipBomb()
  // A file whose path is also a folder of another file cannot be stored.
  for (const path of names) {
    for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
      if (names.has(path.slice(0, i))) throw new PackageError('duplicate_file', `The package contains the same file twice: ${path.slice(0, i)}`)
    }
  }
  return files
}

type Layout =
  | { kind: 'scorm'; manifest: PackageFile; files: PackageFile[] }
  | { kind: 'cmi5'; structure: PackageFile; files: PackageFile[] }
  | { kind: 'aicc'; aicc: Partial<Record<(typeof AICC_EXTENSIONS)[number], PackageFile>>; files: PackageFile[] }

const extensionOf = (path: string) => /\.([^./]+)$/.exec(path)?.[1].toLowerCase() ?? ''

/**
 * Finds the package root: the zip's root, or its single top folder when the manifest is there.
 * imsmanifest.xml makes a SCORM package, else cmi5.xml a cmi5 one (cmi5 §14.1), else AICC files.
 */
function locateRoot(entries: PackageFile[]): Layout {
  const at = (strip: string): PackageFile[] => entries.filter((f) => f.path.startsWith(strip)).map((f) => ({ ...f, path: f.path.slice(strip.length) }))
  const tops = new Set(entries.map((f) => (f.path.includes('/') ? f.path.slice(0, f.path.indexOf('/') + 1) : '')))
  const roots = tops.size === 1 && !tops.has('') ? ['', [...tops][0]] : ['']
  for (const strip of roots) {
    const files = at(strip)
    const rootFiles = files.filter((f) => !f.path.includes('/'))
    const manifest = rootFiles.find((f) => f.path === 'imsmanifest.xml') ?? rootFiles.find((f) => f.path.toLowerCase() === 'imsmanifest.xml')
    if (manifest) return { kind: 'scorm', manifest, files }
    const structure = rootFiles.find((f) => f.path === 'cmi5.xml') ?? rootFiles.find((f) => f.path.toLowerCase() === 'cmi5.xml')
    if (structure) return { kind: 'cmi5', structure, files }
    const aicc: Partial<Record<(typeof AICC_EXTENSIONS)[number], PackageFile>> = {}
    for (const f of rootFiles.sort((a, b) => a.path.localeCompare(b.path))) {
      const ext = extensionOf(f.path) as (typeof AICC_EXTENSIONS)[number]
      if ((AICC_EXTENSIONS as readonly string[]).includes(ext)) aicc[ext] ??= f
    }
    if (aicc.au && (aicc.crs || aicc.des || aicc.cst)) return { kind: 'aicc', aicc, files }
  }
  throw new PackageError('no_manifest', 'The package has no imsmanifest.xml or cmi5.xml at its root (not a SCORM or cmi5 package)')
}

/**
 * What one extraction lane reuses for every entry it extracts, so extraction allocates nothing per
 * chunk: memory stays the same whatever the package's size and however late the garbage
 * collector runs (Node's zlib streams allocate a new Buffer for each output chunk).
 */
interface Lane {
  /** Compressed or stored bytes read from the zip. */
  input: Buffer
  /** Inflated bytes. */
  output: Buffer<ArrayBuffer>
  /** A raw-deflate decoder, reset per entry (it keeps its 32 KiB window). */
  inflater: ZStream
}

function newLane(): Lane {
  const inflater = new ZStream()
  // Negative window bits: raw deflate, as zip stores it (no zlib header).
  if (zlibInflateInit2(inflater, -15) !== Z_OK) throw new Error('cannot start the deflate decoder')
  return { input: Buffer.allocUnsafe(CHUNK_BYTES), output: Buffer.allocUnsafe(CHUNK_BYTES), inflater }
}

/**
 * An entry's bytes as stored in the zip, read into `buffer`: each chunk is a view of it, valid
 * until the next one is asked for (storage is done with a chunk by then: see Storage.put).
 */
async function* storedBytes(zipFile: FileHandle, start: number, length: number, buffer: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < length;) {
    const { bytesRead } = await zipFile.read(buffer, 0, Math.min(buffer.length, length - at), start + at)
    if (bytesRead === 0) throw invalidZip()
    at += bytesRead
    yield buffer.subarray(0, bytesRead)
  }
}

/**
 * Inflates raw deflate data into `lane.output`: each chunk is a view of it, valid until the next
 * one is asked for. One call fills at most CHUNK_BYTES, so the event loop is never held long.
 */
async function* inflated(input: AsyncIterable<Buffer>, lane: Lane): AsyncGenerator<Buffer> {
  const z = lane.inflater
  zlibInflateReset(z)
  for await (const chunk of input) {
    z.input = chunk
    z.next_in = 0
    z.avail_in = chunk.length
    for (;;) {
      z.output = lane.output
      z.next_out = 0
      z.avail_out = lane.output.length
      const status = zlibInflate(z, Z_NO_FLUSH)
      // Z_BUF_ERROR only says no progress was possible without more input.
      if (status !== Z_OK && status !== Z_STREAM_END && status !== Z_BUF_ERROR) throw invalidZip()
      const produced = z.next_out
      if (produced > 0) yield lane.output.subarray(0, produced)
      // Bytes after the end of the deflate data are not read; the size check judges the result.
      if (status === Z_STREAM_END) return
      if (z.avail_in === 0 && produced < lane.output.length) break
      if (status === Z_BUF_ERROR) break
    }
  }
  // The compressed data stopped before the end of its deflate stream.
  throw invalidZip()
}

/** The zip being extracted: its file, read at given offsets, and its size. */
interface ZipData {
  file: FileHandle
  size: number
}

/** Local file header: signature, then name and extra field lengths at 26 and 28; the data follows them. */
const LOCAL_HEADER_BYTES = 30
const LOCAL_HEADER_SIGNATURE = 0x04034b50

/** An entry's extracted bytes, through the lane's buffers (see storedBytes and inflated). */
async function* entryBytes(zip: ZipData, file: PackageFile, lane: Lane): AsyncGenerator<Buffer> {
  const header = lane.input
  const { bytesRead } = await zip.file.read(header, 0, LOCAL_HEADER_BYTES, file.headerOffset)
  if (bytesRead < LOCAL_HEADER_BYTES || header.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) throw invalidZip()
  const start = file.headerOffset + LOCAL_HEADER_BYTES + header.readUInt16LE(26) + header.readUInt16LE(28)
  if (start + file.compressedSize > zip.size) throw invalidZip()
  const stored = storedBytes(zip.file, start, file.compressedSize, lane.input)
  yield* file.method === 0 ? stored : inflated(stored, lane)
}

/** Reads one small entry (manifest, AICC file) whole; bigger than MAX_STRUCTURE_FILE_BYTES is refused. */
async function readSmallEntry(zip: ZipData, file: PackageFile): Promise<Buffer> {
  if (file.size > MAX_STRUCTURE_FILE_BYTES) {
    throw new PackageError('structure_file_too_large', `${file.path} is too large (more than ${MAX_STRUCTURE_FILE_BYTES / 1024 / 1024} MB)`)
  }
  const bytes = Buffer.allocUnsafe(file.size)
  let size = 0
  for await (const chunk of entryBytes(zip, file, newLane())) {
    if (size + chunk.length > bytes.length) throw invalidZip()
    size += chunk.copy(bytes, size)
  }
  if (size !== bytes.length) throw invalidZip()
  return bytes
}

/** Text of an XML or AICC file: UTF-16 by its byte order mark, else the XML declaration's encoding, else UTF-8. */
function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes)
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes)
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(bytes.subarray(0, 200).toString('latin1'))?.[1]
  if (declared && !/^utf-?8$/i.test(declared)) {
    try {
      return new TextDecoder(declared).decode(bytes)
    } catch {
      // An encoding TextDecoder does not know: read as UTF-8.
    }
  }
  return new TextDecoder('utf-8').decode(bytes)
}

/** Every SCO's launch file must be in the package (path without query string or fragment). */
function checkLaunchFiles(info: Omit<PackageInfo, 'fileCount' | 'totalBytes'>, files: PackageFile[]) {
  const paths = new Set(files.map((f) => f.path))
  for (const item of walkItems(info.items)) {
    if (item.href === null || isExternalHref(item.href)) continue
    const path = launchPathOf(item.href)
    const raw = item.href.replace(/[?#].*$/s, '')
    if (path === null || (!paths.has(path) && !paths.has(raw))) {
      throw new PackageError('launch_file_missing', `Launch file missing from package: ${path ?? raw}`)
    }
  }
}

/** One entry's bytes, counted as they come: real sizes are checked against the header and the limits. */
async function* counted(chunks: AsyncIterable<Buffer>, file: PackageFile, limits: ExtractLimits, total: { bytes: number }, signal: AbortSignal): AsyncGenerator<Buffer> {
  let size = 0
  for await (const chunk of chunks) {
    // Another entry failed: the package is rejected anyway.
    signal.throwIfAborted()
    size += chunk.length
    total.bytes += chunk.length
    if (size > limits.maxEntryBytes || total.bytes > limits.maxTotalBytes) throw tooLarge()
    if (size > file.size) throw invalidZip()
    yield chunk
  }
  if (size !== file.size) throw invalidZip()
}

/** Streams every file to `${prefix}/<path>`, ENTRIES_IN_FLIGHT at a time; the first failure stops the others. */
async function extractAll(zip: ZipData, files: PackageFile[], storage: Storage, prefix: string, limits: ExtractLimits) {
  const total = { bytes: 0 }
  const lanes: Lane[] = []
  await forEachLimited(files, ENTRIES_IN_FLIGHT, async (file, slot, signal) => {
    const lane = (lanes[slot] ??= newLane())
    await storage.put(`${prefix}/${file.path}`, counted(entryBytes(zip, file, lane), file, limits, total, signal))
  })
  return { fileCount: files.length, totalBytes: total.bytes }
}

/** What a cmi5 course structure makes of a package: no edition, its AUs as the launchable items. */
function cmi5Info(course: Cmi5Course): Omit<PackageInfo, 'fileCount' | 'totalBytes'> {
  return { version: 'cmi5', edition: null, title: course.title, items: cmi5Items(course.children), scoCount: cmi5Aus(course.children).length, cmi5: course }
}

const ZIP_SIGNATURES = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')]

/**
 * A cmi5.xml uploaded alone (cmi5 §14.2): the file is no zip and reads as XML (a '<' after an
 * optional byte order mark and whitespace, or a UTF-16 byte order mark). Its text when it is one.
 */
async function loneCmi5Xml(path: string): Promise<string | null> {
  const file = await open(path, 'r')
  try {
    const { size } = await file.stat()
    const head = Buffer.alloc(Math.min(size, 512))
    await file.read(head, 0, head.length, 0)
    if (ZIP_SIGNATURES.some((sig) => head.subarray(0, 4).equals(sig))) return null
    const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)
    if (!utf16 && !/^(\uFEFF)?\s*</.test(head.toString('utf8'))) return null
    if (size > MAX_STRUCTURE_FILE_BYTES) {
      throw new PackageError('structure_file_too_large', `cmi5.xml is too large (more than ${MAX_STRUCTURE_FILE_BYTES / 1024 / 1024} MB)`)
    }
    const bytes = Buffer.alloc(size)
    await file.read(bytes, 0, size, 0)
    return decodeText(bytes)
  } finally {
    await file.close()
  }
}

/**
 * Validates the zip (limits, safety), parses its manifest (or cmi5.xml, or AICC files), checks every
 * launch file exists, and streams each entry to `storage` under `${prefix}/<entry path>`. On any
 * failure nothing stays under prefix (it deletes what it wrote) and it throws PackageError (for bad
 * packages) or the I/O error. `zipPath` may also be a cmi5.xml uploaded alone: it is parsed (every
 * AU url must then be absolute) and nothing is extracted.
 */
export async function ingestPackage(opts: { zipPath: string; storage: Storage; prefix: string; limits?: Partial<ExtractLimits> }): Promise<PackageInfo> {
  const { storage, prefix } = opts
  if (!isSafeKey(prefix)) throw new Error(`unsafe storage prefix: ${JSON.stringify(prefix)}`)
  const limits = { ...DEFAULT_EXTRACT_LIMITS, ...opts.limits }
  const lone = await loneCmi5Xml(opts.zipPath)
  if (lone !== null) return { ...cmi5Info(parseCmi5Xml(lone, { packageFiles: null })), fileCount: 0, totalBytes: 0 }
  // yauzl reads and checks the central directory; entry data is read below, into reused buffers.
  let directory: ZipFile
  try {
    directory = await yauzl.openPromise(opts.zipPath, { lazyEntries: true, autoClose: false, strictFileNames: false })
  } catch (err) {
    throw zipReadError(err)
  }
  let entries: PackageFile[]
  try {
    entries = await readCentralDirectory(directory, limits)
  } finally {
    directory.close()
  }
  const layout = locateRoot(entries)
  for (const f of layout.files) if (!isSafeKey(`${prefix}/${f.path}`)) throw unsafePath(f.name)
  const zip: ZipData = { file: await open(opts.zipPath, 'r'), size: directory.fileSize }
  let writing = false
  try {
    let info: Omit<PackageInfo, 'fileCount' | 'totalBytes'>
    if (layout.kind === 'scorm') {
      info = parseManifest(decodeText(await readSmallEntry(zip, layout.manifest)))
    } else if (layout.kind === 'cmi5') {
      const packageFiles = new Set(layout.files.map((f) => f.path))
      info = cmi5Info(parseCmi5Xml(decodeText(await readSmallEntry(zip, layout.structure)), { packageFiles }))
    } else {
      const text = async (f: PackageFile | undefined) => (f ? decodeText(await readSmallEntry(zip, f)) : undefined)
      const files: AiccFiles = {
        au: (await text(layout.aicc.au))!,
        crs: await text(layout.aicc.crs),
        des: await text(layout.aicc.des),
        cst: await text(layout.aicc.cst),
      }
      info = parseAicc(files)
    }
    checkLaunchFiles(info, layout.files)
    writing = true
    const { fileCount, totalBytes } = await extractAll(zip, layout.files, storage, prefix, limits)
    return { ...info, fileCount, totalBytes }
  } catch (err) {
    // The package's error is what the admin needs; a failed clean-up must not hide it.
    if (writing) await storage.deletePrefix(prefix).catch(() => undefined)
    throw err
  } finally {
    await zip.file.close()
  }
}
