import { createReadStream } from 'node:fs'
import { mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises'
import { dirname, relative, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { assertSafeKey } from './storage-key.ts'

// The key rules are shared with s3-storage.ts (which this module loads) and are part of this module's API.
export { assertSafeKey, isSafeKey } from './storage-key.ts'

/** Size and change time of a stored object. */
export interface ObjectInfo {
  size: number
  modifiedAt: Date
}

/**
 * Where a service's files live (course modules and extracted packages, certification proofs). Keys
 * are `/`-separated relative paths built by the service (e.g. `modules/12/original.zip`,
 * `proofs/<uuid>`). Two implementations: a local folder (single-node mode) and S3-compatible object
 * storage (`s3-storage.ts`, cluster mode); `storage.test.ts` ("storage contract") holds both to the same rules.
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
  /** Keys of the objects under `prefix/` (every object without one), sorted; for maintenance and tests. */
  list(prefix?: string): Promise<string[]>
  /**
   * Runs `fn` with a local file holding the object (the file itself for local storage, a temporary
   * download for remote storage), for readers that need random access such as zip extraction.
   */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>
}

/** Storage in a local directory (single-node mode: `<DATA_DIR>/storage/<service>`). */
export function createLocalStorage(root: string): Storage {
  const base = resolve(root)
  const pathOf = (key: string) => {
    assertSafeKey(key)
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
            for (let at = 0; at < chunk.length;) at += (await file.write(chunk, at)).bytesWritten
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
    async list(prefix) {
      const top = prefix ? pathOf(prefix) : base
      const keys: string[] = []
      const walk = async (dir: string) => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
        for (const e of entries) {
          const p = resolve(dir, e.name)
          if (e.isDirectory()) await walk(p)
          // A half-written upload (`.part-`) is not an object yet.
          else if (!/\.part-\d+-\d+$/.test(e.name)) keys.push(relative(base, p).split(sep).join('/'))
        }
      }
      await walk(top)
      return keys.sort()
    },
    async withLocalFile(key, fn) {
      return fn(pathOf(key))
    },
  }
}

/** Joins key segments with `/`. */
export const storageKey = (...parts: (string | number)[]) => parts.map(String).join('/')

/** The storage variables of a service (see `.env.example`). */
export interface StorageConfig {
  STORAGE_DIR?: string
  S3_ENDPOINT?: string
  S3_BUCKET?: string
  S3_REGION: string
  S3_ACCESS_KEY_ID?: string
  S3_SECRET_ACCESS_KEY?: string
  S3_FORCE_PATH_STYLE?: boolean
}

/**
 * A service's storage from its configuration: S3-compatible object storage when `S3_BUCKET` is set
 * (under the service's folder in the bucket, which is created when missing), else the local
 * folder `STORAGE_DIR`, else `fallbackDir` (single-node: under DATA_DIR).
 */
export async function openStorage(config: StorageConfig, service: string, fallbackDir: string): Promise<Storage & { destroy?(): void }> {
  if (config.S3_BUCKET) {
    // Loaded only here: the S3 client is large, and single-node mode does not need it.
    const { createS3Storage } = await import('./s3-storage.ts')
    const s3 = createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      prefix: service,
    })
    await s3.ensureBucket()
    return s3
  }
  return createLocalStorage(config.STORAGE_DIR ?? fallbackDir)
}
