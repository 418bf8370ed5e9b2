/** The route tests' look at the storage folder (whatever feature put files there). */
import { readdir } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { Harness } from './harness.test-support.ts'

/** Every file under the storage folder, as `/`-separated relative paths. */
export async function storedFiles(h: Harness): Promise<string[]> {
  const out: string[] = []
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) await walk(p)
      else out.push(relative(h.storageDir, p).split('\\').join('/'))
    }
  }
  await walk(h.storageDir)
  return out.sort()
}
