import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REACT_QUERY_EXPORTS, sharedSingletons } from './index.ts'

const root = path.resolve(import.meta.dirname, '../../..')
const browserWorkspaces = ['shell', 'packages/ui-kit', ...readdirSync(root).filter((d) => d.startsWith('mf-'))]

/** The values (not types) the browser code imports from `pkg`, tests left out. */
function valueImports(pkg: string): Set<string> {
  const names = new Set<string>()
  const importOf = new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s+from\\s+'${pkg.replace('/', '\\/')}'`, 'g')
  for (const ws of browserWorkspaces) {
    const files = readdirSync(path.join(root, ws, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    for (const file of files)
      for (const [, typeOnly, list] of readFileSync(path.join(root, ws, 'src', file), 'utf8').matchAll(importOf)) {
        if (typeOnly) continue
        for (const item of list!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean))
          if (!item.startsWith('type ')) names.add(item.split(/\s+as\s+/)[0]!)
      }
  }
  return names
}

describe('the shared React Query', () => {
  it('is tree-shaken to what the remotes use, the same exports in every build', () => {
    expect(sharedSingletons['@tanstack/react-query'].treeShaking.usedExports).toBe(REACT_QUERY_EXPORTS)
    // A remote using an export the list lacks would find it missing when another remote's copy was loaded first.
    expect([...valueImports('@tanstack/react-query')].sort()).toEqual([...REACT_QUERY_EXPORTS].sort())
  })
})

describe('the shared zod', () => {
  it('carries every z function the browser code calls', async () => {
    const { z } = await import('./browser-zod.ts')
    const called = new Set<string>()
    for (const ws of [...browserWorkspaces, 'packages/contracts']) {
      const files = readdirSync(path.join(root, ws, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$|test-support/.test(f))
      // z.infer, z.input, z.ZodType... are types; a lower-case name followed by ( or . is a call.
      for (const file of files) for (const [, name] of readFileSync(path.join(root, ws, 'src', file), 'utf8').matchAll(/\bz\.([a-z]\w*)\s*[(.]/g)) called.add(name!)
    }
    // A remote calling a function the shell's copy lacks would fail on a page the shell's copy serves.
    expect([...called].filter((name) => !(name in z)).sort()).toEqual([])
    expect(called.size).toBeGreaterThan(10)
  })
})
