import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLocalStorage, type Storage } from './storage.ts'

let root: string
let storage: Storage
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'storage-test-'))
  storage = createLocalStorage(root)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const put = (key: string, text: string) => storage.put(key, Readable.from([Buffer.from(text)]))
const read = async (key: string) => {
  let out = ''
  for await (const chunk of await storage.get(key)) out += chunk
  return out
}

describe('local storage', () => {
  it('stores, stats, reads ranges and deletes objects', async () => {
    expect(await put('modules/1/content/a.txt', '0123456789')).toEqual({ size: 10 })
    expect((await storage.stat('modules/1/content/a.txt'))?.size).toBe(10)
    expect(await read('modules/1/content/a.txt')).toBe('0123456789')
    let range = ''
    for await (const chunk of await storage.get('modules/1/content/a.txt', { start: 2, end: 4 })) range += chunk
    expect(range).toBe('234')
    expect(await storage.stat('modules/1/content')).toBeNull()
    await expect(storage.get('nope.txt')).rejects.toThrow()
  })
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
    // deleting what is not there is fine
    await storage.delete('uploads/u9/c.pdf')
    await storage.deletePrefix('modules/8')
  })
  it('refuses keys that leave the root', async () => {
    for (const key of ['../x', '/etc/passwd', 'a/../../b', 'a\\b', 'a//b', '']) await expect(put(key, 'x')).rejects.toThrow()
  })
})

describe('local storage put', () => {
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
