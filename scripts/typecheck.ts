// `npm run typecheck`: each workspace (and e2e, bench, the root's own config files) type-checks
// itself with its own tsconfig.json, which includes only its files and what it imports through
// packages' entry points; as many at once as the machine has cores. Exits non-zero if any fails.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] }
const workspaces = pkg.workspaces.flatMap((w) => (w.endsWith('/*') ? readdirSync(path.join(root, w.slice(0, -2))).map((d) => `${w.slice(0, -2)}/${d}`) : [w]))
const projects = ['.', ...workspaces, 'e2e', 'bench'].filter((p) => existsSync(path.join(root, p, 'tsconfig.json')))
const tsc = path.join(root, 'node_modules/typescript/bin/tsc')

const check = (project: string) =>
  new Promise<{ project: string; ok: boolean; output: string; seconds: number }>((resolve) => {
    const started = performance.now()
    const child = spawn(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { cwd: root })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('close', (code) => resolve({ project, ok: code === 0, output, seconds: (performance.now() - started) / 1000 }))
  })

const queue = [...projects]
const failed: string[] = []
const worker = async () => {
  for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
    const r = await check(project)
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${project} (${r.seconds.toFixed(1)} s)`)
    if (!r.ok) {
      failed.push(project)
      process.stdout.write(r.output)
    }
  }
}
const started = performance.now()
await Promise.all(Array.from({ length: Math.min(availableParallelism(), projects.length) }, worker))
console.log(`${projects.length - failed.length} of ${projects.length} projects type-check (${((performance.now() - started) / 1000).toFixed(1)} s)`)
if (failed.length > 0) process.exit(1)
