import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLocalStorage, type Storage } from './storage.ts'

let root: string
let storage: Storage

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'storage-test-'))
  storage = createLocalStorage(root)
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
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
