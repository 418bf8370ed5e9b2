/**
 * A remote built as its team would ship a new version: its own rspack config, with text
 * replaced in its sources, into a folder of its own (the journeys that redeploy a remote).
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Text replaced in the one source file whose path ends with `file`. */
export interface SourcePatch {
  file: string
  from: string
  to: string
}

/** rspack loader: applies the patches meant for this module; a patch that finds nothing fails the build. */
export default function patchLoader(this: { getOptions(): { patches: SourcePatch[] }; resourcePath: string }, source: string): string {
  for (const p of this.getOptions().patches) {
    if (!this.resourcePath.endsWith(p.file)) continue
    if (!source.includes(p.from)) throw new Error(`${p.file} has no ${JSON.stringify(p.from)}`)
    source = source.replaceAll(p.from, p.to)
  }
  return source
}

const root = fileURLToPath(new URL('..', import.meta.url))

/** Builds the remote of workspace `folder` with `patches` into `outDir`, in a process of its own. */
export function buildRemote(folder: string, outDir: string, patches: SourcePatch[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), JSON.stringify({ folder, outDir, patches })], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`building ${folder} failed:\n${output}`))))
  })
}

async function main(arg: string) {
  const { folder, outDir, patches } = JSON.parse(arg) as { folder: string; outDir: string; patches: SourcePatch[] }
  const { runBuild } = await import('@portal/build-kit')
  const { default: config } = (await import(`../${folder}/rspack.config.ts`)) as { default: import('@rspack/core').Configuration }
  const files = patches.map((p) => p.file)
  config.output = { ...config.output, path: outDir }
  config.module!.rules!.push({
    enforce: 'pre',
    test: (path: string) => files.some((f) => path.endsWith(f)),
    loader: fileURLToPath(import.meta.url),
    options: { patches },
  })
  runBuild(config, [])
}

if (import.meta.main) void main(process.argv[2]!)
