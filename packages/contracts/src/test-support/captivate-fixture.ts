import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Absolute path of `shared/fixtures/captivate/<name>`: beside the repository (as in CI's clone),
 * or under `SHARED_DIR` when the checkout sits elsewhere (a worktree).
 */
export function captivateFixturePath(name = 'captivate-video-slides.zip'): string {
  const beside = fileURLToPath(new URL(`../../../../../shared/fixtures/captivate/${name}`, import.meta.url))
  const fromEnv = process.env.SHARED_DIR ? `${process.env.SHARED_DIR.replace(/\/$/, '')}/fixtures/captivate/${name}` : null
  const found = [beside, fromEnv].find((p) => p !== null && existsSync(p))
  if (!found) throw new Error(`fixture ${name} not found beside the repository (${beside}); set SHARED_DIR`)
  return found
}

export const captivateFixture = (name?: string): Uint8Array => new Uint8Array(readFileSync(captivateFixturePath(name)))
