import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createS3Storage } from './s3-storage.ts'
import { createLocalStorage, openStorage, type Storage } from './storage.ts'
import { startTestS3, type TestS3 } from './testing.ts'

let s3: TestS3
beforeAll(async () => {
  s3 = await startTestS3()
})
afterAll(async () => {
  await s3?.close()
})

const text = async (stream: AsyncIterable<Buffer | string>) => {
  let out = ''
  for await (const chunk of stream) out += chunk
  return out
}

/** Each adapter under test: a fresh, empty storage per test. */
const adapters: { name: string; make: () => Promise<{ storage: Storage; drop(): Promise<void> }> }[] = [
  {
    name: 'local folder',
    make: async () => {
      const root = await mkdtemp(join(tmpdir(), 'storage-test-'))
      return { storage: createLocalStorage(root), drop: () => rm(root, { recursive: true, force: true }) }
    },
  },
  {
    name: 'S3 (s3rver)',
    make: async () => {
      // A fresh service folder in the bucket per test: the same bucket, no shared keys.
      const storage = createS3Storage({ ...s3.options, prefix: `t-${crypto.randomUUID()}`, partSize: 5 * 1024 * 1024 })
      return { storage, drop: async () => storage.destroy() }
    },
  },
]

describe.each(adapters)('storage contract: $name', ({ make }) => {
  let storage: Storage
  let drop: () => Promise<void>
  beforeEach(async () => {
    ;({ storage, drop } = await make())
  })
  afterEach(async () => {
    await drop()
  })
  const put = (key: string, body: string) => storage.put(key, Readable.from([Buffer.from(body)]))

  it('stores, stats, reads whole and by range, lists and deletes objects', async () => {
    expect(await put('modules/1/content/a.txt', '0123456789')).toEqual({ size: 10 })
    expect((await storage.stat('modules/1/content/a.txt'))?.size).toBe(10)
    expect(await text(await storage.get('modules/1/content/a.txt'))).toBe('0123456789')
    expect(await text(await storage.get('modules/1/content/a.txt', { start: 2, end: 4 }))).toBe('234')
    // A "folder" is not an object.
    expect(await storage.stat('modules/1/content')).toBeNull()
    expect(await storage.stat('nope.txt')).toBeNull()
    await expect(storage.get('nope.txt')).rejects.toThrow()
    await put('modules/1/original.zip', 'zip')
    await put('proofs/x', 'p')
    expect(await storage.list()).toEqual(['modules/1/content/a.txt', 'modules/1/original.zip', 'proofs/x'])
    expect(await storage.list('modules/1')).toEqual(['modules/1/content/a.txt', 'modules/1/original.zip'])
    await storage.delete('modules/1/original.zip')
    expect(await storage.stat('modules/1/original.zip')).toBeNull()
  })

  it('replaces an object whole and deletes by prefix, leaving other keys alone', async () => {
    await put('a/1.txt', 'first')
    await put('a/1.txt', 'second, longer')
    expect(await text(await storage.get('a/1.txt'))).toBe('second, longer')
    await put('a/2/deep.txt', 'd')
    await put('ab/3.txt', 'not under a/')
    await storage.deletePrefix('a')
    expect(await storage.list()).toEqual(['ab/3.txt'])
    // Deleting what is not there is fine.
    await storage.delete('a/1.txt')
    await storage.deletePrefix('nothing/here')
  })

  it('stores an empty object and a streamed one of several parts, reusing the source buffer', async () => {
    expect(await storage.put('empty', Readable.from([]))).toEqual({ size: 0 })
    expect(await storage.stat('empty')).toMatchObject({ size: 0 })
    // 12 MiB in 1 MiB chunks, each written into the same buffer: more than two 5 MiB parts.
    const buffer = Buffer.alloc(1024 * 1024)
    async function* reusing() {
      for (let i = 0; i < 12; i++) {
        buffer.fill(97 + i)
        yield buffer
      }
    }
    expect(await storage.put('big/file.bin', reusing())).toEqual({ size: 12 * 1024 * 1024 })
    const head = await text(await storage.get('big/file.bin', { start: 1024 * 1024 - 1, end: 1024 * 1024 }))
    expect(head).toBe('ab')
    const last = await text(await storage.get('big/file.bin', { start: 12 * 1024 * 1024 - 2, end: 12 * 1024 * 1024 - 1 }))
    expect(last).toBe('ll')
    await storage.withLocalFile('big/file.bin', async (path) => {
      const bytes = await readFile(path)
      expect(bytes.length).toBe(12 * 1024 * 1024)
      expect(bytes[5 * 1024 * 1024]).toBe(97 + 5)
    })
  })

  it('leaves no object when the source fails, small or past a part', async () => {
    async function* failing(bytes: number) {
      yield Buffer.alloc(bytes, 1)
      throw new Error('source failed')
    }
    await expect(storage.put('b/small.txt', failing(10))).rejects.toThrow('source failed')
    await expect(storage.put('b/large.bin', failing(6 * 1024 * 1024))).rejects.toThrow('source failed')
    expect(await storage.list()).toEqual([])
    expect(await storage.stat('b/large.bin')).toBeNull()
  })

  it('refuses keys that are not plain relative paths', async () => {
    for (const key of ['../x', '/etc/passwd', 'a/../../b', 'a\\b', 'a//b', '', 'a/./b']) await expect(put(key, 'x')).rejects.toThrow(/unsafe storage key/)
  })
})

describe('local storage', () => {
  let root: string
  let storage: Storage
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'storage-test-'))
    storage = createLocalStorage(root)
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })
  const put = (key: string, body: string) => storage.put(key, Readable.from([Buffer.from(body)]))

  it('leaves no empty folders behind a deleted object or prefix, and keeps folders still in use', async () => {
    await put('uploads/u1/a.pdf', 'a')
    await put('uploads/u2/b.pdf', 'b')
    await put('modules/7/content/x/y/z.html', 'z')
    await put('modules/7/original.zip', 'zip')
    await storage.delete('uploads/u1/a.pdf')
    expect(await readdir(join(root, 'uploads'))).toEqual(['u2'])
    await storage.deletePrefix('modules/7/content')
    expect(await readdir(join(root, 'modules', '7'))).toEqual(['original.zip'])
    await storage.delete('modules/7/original.zip')
    await storage.delete('uploads/u2/b.pdf')
    expect(await readdir(root)).toEqual([])
  })

  it('is done with a chunk when it asks for the next one, so a source may reuse its buffer', async () => {
    const buffer = Buffer.alloc(10)
    async function* reusing() {
      for (const letter of 'abcdefgh') {
        buffer.fill(letter)
        yield buffer
      }
    }
    expect(await storage.put('a/reused.txt', reusing())).toEqual({ size: 80 })
    expect(await readFile(join(root, 'a/reused.txt'), 'utf8')).toBe([...'abcdefgh'].map((l) => l.repeat(10)).join(''))
  })

  it('leaves nothing behind when the source fails', async () => {
    async function* failing() {
      yield Buffer.from('half of it')
      throw new Error('source failed')
    }
    await expect(storage.put('b/failed.txt', failing())).rejects.toThrow('source failed')
    expect(await readdir(join(root, 'b'))).toEqual([])
  })
})

describe('openStorage', () => {
  it('opens the bucket under the service’s folder when S3_BUCKET is set, else the local folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'storage-open-'))
    try {
      const local = await openStorage({ S3_REGION: 'us-east-1' }, 'certs', dir)
      expect(local.kind).toBe('local')
      const bucket = `open-${Date.now().toString(36)}`
      const remote = await openStorage(
        {
          S3_REGION: s3.options.region,
          S3_ENDPOINT: s3.options.endpoint,
          S3_BUCKET: bucket,
          S3_ACCESS_KEY_ID: s3.options.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
        },
        'certs',
        dir,
      )
      expect(remote.kind).toBe('s3')
      await remote.put('proofs/1', Readable.from([Buffer.from('x')]))
      // The bucket was created, and the object sits in the service's folder.
      const whole = createS3Storage({ ...s3.options, bucket })
      expect(await whole.list()).toEqual(['certs/proofs/1'])
      whole.destroy()
      remote.destroy?.()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
