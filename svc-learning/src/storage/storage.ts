import { createReadStream } from 'node:fs'
import { mkdir, open, rename, rm, rmdir, stat } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'

/** Size and change time of a stored object. */
export interface ObjectInfo {
  size: number
  modifiedAt: Date
}

/**
 * Where uploaded files and extracted packages live. Keys are `/`-separated relative paths built by
 * the service (e.g. `modules/12/original.zip`, `modules/12/content/shared/launchpage.html`).
 * One local-directory implementation now; an S3-compatible one implements the same interface.
 */
export interface Storage {
  readonly kind: 'local' | 's3'
  /**
   * Streams `source` into `key`; the object appears whole or not at all. Resolves with its size.
   * It is done with a chunk when it asks for the next one, so a source may reuse its buffer.
   */
  put(key: string, source: Readable | AsyncIterable<Uint8Array>): Promise<{ size: number }>
  /** A stream of the object, or of the inclusive byte range `[start, end]`. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>
  /** Null when there is no such object. */
  stat(key: string): Promise<ObjectInfo | null>
  delete(key: string): Promise<void>
  /** Deletes every object whose key starts with `prefix/`. */
  deletePrefix(prefix: string): Promise<void>
  /**
   * Runs `fn` with a local file holding the object (the file itself for local storage, a temporary
   * download for remote storage), for readers that need random access such as zip extraction.
   */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>
}

/** A storage key must be a plain relative path: no empty, `.` or `..` segments, no backslashes or NULs. */
export function isSafeKey(key: string): boolean {
  if (!key || key.length > 1024 || key.startsWith('/') || key.includes('\\') || key.includes('\0')) return false
  return key.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
}

const assertSafe = (key: string) => {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`)
}

/** Storage in a local directory (single-node mode: `<DATA_DIR>/storage/learning`). */
export function createLocalStorage(root: string): Storage {
  const base = resolve(root)
  const pathOf = (key: string) => {
    assertSafe(key)
    const p = resolve(base, ...key.split('/'))
    if (!p.startsWith(base + sep)) throw new Error(`storage key escapes the root: ${key}`)
    return p
  }
  // Folders exist only for the objects in them: once the last one goes, so do its empty folders
  // (up to, not including, the root). rmdir refuses a folder that is not empty, which ends the walk.
  const pruneEmptyParents = async (path: string) => {
    for (let dir = dirname(path); dir.startsWith(base + sep); dir = dirname(dir)) {
      try {
        await rmdir(dir)
      } catch {
        return
      }
    }
  }
  let tmpCounter = 0
  return {
    kind: 'local',
    async put(key, source) {
      const target = pathOf(key)
      await mkdir(dirname(target), { recursive: true })
      // Written beside the target and renamed: a reader never sees half a file.
      const tmp = `${target}.part-${process.pid}-${++tmpCounter}`
      let size = 0
      try {
        const file = await open(tmp, 'w')
        try {
          // Each chunk is written before the next is read: what is in flight is one chunk, and the
          // source may reuse its buffer (a write stream would hold up to its highWaterMark).
          for await (const chunk of source as AsyncIterable<Uint8Array>) {
            for (let at = 0; at < chunk.length; ) at += (await file.write(chunk, at)).bytesWritten
            size += chunk.length
          }
        } finally {
          await file.close()
        }
        await rename(tmp, target)
      } catch (err) {
        await rm(tmp, { force: true })
        throw err
      }
      return { size }
    },
    async get(key, range) {
      const p = pathOf(key)
      await stat(p) // a missing object rejects here, not later as a stream error
      return createReadStream(p, range ? { start: range.start, end: range.end } : undefined)
    },
    async stat(key) {
      try {
        const s = await stat(pathOf(key))
        return s.isFile() ? { size: s.size, modifiedAt: s.mtime } : null
      } catch {
        return null
      }
    },
    async delete(key) {
      const p = pathOf(key)
      await rm(p, { force: true })
      await pruneEmptyParents(p)
    },
    async deletePrefix(prefix) {
      const p = pathOf(prefix)
      await rm(p, { recursive: true, force: true })
      await pruneEmptyParents(p)
    },
    async withLocalFile(key, fn) {
      return fn(pathOf(key))
    },
  }
}

/** Joins key segments with `/`. */
export const storageKey = (...parts: (string | number)[]) => parts.map(String).join('/')
