import type { Readable } from 'node:stream'
import yauzl, { type Entry, type ZipFile } from 'yauzl'
import { isSafeKey, type Storage } from '../storage/storage.ts'
import { AICC_EXTENSIONS, parseAicc, type AiccFiles } from './aicc.ts'
import { parseManifest } from './manifest.ts'
import { isExternalHref, launchPathOf, PackageError, walkItems, type PackageInfo } from './package-info.ts'

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
/** Entries streamed to storage at once. */
const CONCURRENCY = 8
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

interface PackageFile {
  entry: Entry
  /** Path inside the package after the single top folder (if any) is stripped. */
  path: string
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
      if (/[\0-\x1f]/.test(name) || name.length > 900) throw unsafePath(name)
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
      files.push({ entry, path })
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

type Layout = { kind: 'scorm'; manifest: PackageFile; files: PackageFile[] } | { kind: 'aicc'; aicc: Partial<Record<(typeof AICC_EXTENSIONS)[number], PackageFile>>; files: PackageFile[] }

const extensionOf = (path: string) => /\.([^./]+)$/.exec(path)?.[1].toLowerCase() ?? ''

/** Finds the package root: the zip's root, or its single top folder when the manifest is there. */
function locateRoot(entries: PackageFile[]): Layout {
  const at = (strip: string): PackageFile[] =>
    entries.filter((f) => f.path.startsWith(strip)).map((f) => ({ entry: f.entry, path: f.path.slice(strip.length) }))
  const tops = new Set(entries.map((f) => (f.path.includes('/') ? f.path.slice(0, f.path.indexOf('/') + 1) : '')))
  const roots = tops.size === 1 && !tops.has('') ? ['', [...tops][0]] : ['']
  for (const strip of roots) {
    const files = at(strip)
    const rootFiles = files.filter((f) => !f.path.includes('/'))
    const manifest = rootFiles.find((f) => f.path === 'imsmanifest.xml') ?? rootFiles.find((f) => f.path.toLowerCase() === 'imsmanifest.xml')
    if (manifest) return { kind: 'scorm', manifest, files }
    const aicc: Partial<Record<(typeof AICC_EXTENSIONS)[number], PackageFile>> = {}
    for (const f of rootFiles.sort((a, b) => a.path.localeCompare(b.path))) {
      const ext = extensionOf(f.path) as (typeof AICC_EXTENSIONS)[number]
      if ((AICC_EXTENSIONS as readonly string[]).includes(ext)) aicc[ext] ??= f
    }
    if (aicc.au && (aicc.crs || aicc.des || aicc.cst)) return { kind: 'aicc', aicc, files }
  }
  throw new PackageError('no_manifest', 'The package has no imsmanifest.xml at its root (not a SCORM package)')
}

/** Reads one small entry (manifest, AICC file) whole; bigger than MAX_STRUCTURE_FILE_BYTES is refused. */
async function readSmallEntry(zip: ZipFile, file: PackageFile): Promise<Buffer> {
  if (file.entry.uncompressedSize > MAX_STRUCTURE_FILE_BYTES) {
    throw new PackageError('structure_file_too_large', `${file.path} is too large (more than ${MAX_STRUCTURE_FILE_BYTES / 1024 / 1024} MB)`)
  }
  const chunks: Buffer[] = []
  let size = 0
  try {
    const stream = await zip.openReadStreamPromise(file.entry)
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > MAX_STRUCTURE_FILE_BYTES) {
        stream.destroy()
        throw invalidZip()
      }
      chunks.push(chunk)
    }
  } catch (err) {
    throw zipReadError(err)
  }
  return Buffer.concat(chunks)
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

interface ExtractState {
  failure: unknown
  totalBytes: number
}

/** One entry's bytes, counted as they come: real sizes are checked against the header and the limits. */
async function* counted(stream: Readable, file: PackageFile, limits: ExtractLimits, state: ExtractState): AsyncGenerator<Buffer> {
  let size = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (state.failure) throw state.failure
      size += chunk.length
      state.totalBytes += chunk.length
      if (size > limits.maxEntryBytes || state.totalBytes > limits.maxTotalBytes) throw tooLarge()
      if (size > file.entry.uncompressedSize) throw invalidZip()
      yield chunk
    }
  } catch (err) {
    throw zipReadError(err)
  } finally {
    stream.destroy()
  }
  if (size !== file.entry.uncompressedSize) throw invalidZip()
}

/** Streams every file to `${prefix}/<path>`, CONCURRENCY at a time; the first failure stops the others. */
async function extractAll(zip: ZipFile, files: PackageFile[], storage: Storage, prefix: string, limits: ExtractLimits) {
  const state: ExtractState = { failure: null, totalBytes: 0 }
  let next = 0
  const worker = async () => {
    while (!state.failure && next < files.length) {
      const file = files[next++]
      try {
        let stream: Readable
        try {
          stream = await zip.openReadStreamPromise(file.entry)
        } catch (err) {
          throw zipReadError(err)
        }
        await storage.put(`${prefix}/${file.path}`, counted(stream, file, limits, state))
      } catch (err) {
        state.failure ??= err
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker))
  if (state.failure) throw state.failure
  return { fileCount: files.length, totalBytes: state.totalBytes }
}

/**
 * Validates the zip (limits, safety), parses its manifest (or AICC files), checks every launch file
 * exists, and streams each entry to `storage` under `${prefix}/<entry path>`. On any failure nothing
 * stays under prefix (it deletes what it wrote) and it throws PackageError (for bad packages) or the
 * I/O error.
 */
export async function ingestPackage(opts: {
  zipPath: string
  storage: Storage
  prefix: string
  limits?: Partial<ExtractLimits>
}): Promise<PackageInfo> {
  const { storage, prefix } = opts
  if (!isSafeKey(prefix)) throw new Error(`unsafe storage prefix: ${JSON.stringify(prefix)}`)
  const limits = { ...DEFAULT_EXTRACT_LIMITS, ...opts.limits }
  let zip: ZipFile
  try {
    zip = await yauzl.openPromise(opts.zipPath, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
      strictFileNames: false,
    })
  } catch (err) {
    throw zipReadError(err)
  }
  let writing = false
  try {
    const entries = await readCentralDirectory(zip, limits)
    const layout = locateRoot(entries)
    for (const f of layout.files) if (!isSafeKey(`${prefix}/${f.path}`)) throw unsafePath(f.entry.fileName)
    let info: Omit<PackageInfo, 'fileCount' | 'totalBytes'>
    if (layout.kind === 'scorm') {
      info = parseManifest(decodeText(await readSmallEntry(zip, layout.manifest)))
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
    zip.close()
  }
}
