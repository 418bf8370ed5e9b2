/**
 * Package ingest benchmark: a generated SCORM 1.2 package of 2,000 files and 200 MB is ingested
 * (validated, manifest parsed, every file streamed to storage) in a process of its own; the same
 * zip is extracted by `unzip` in the same run as the ceiling. Goal: <= 5 s and peak RSS <= 256 MB.
 */
import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import yazl from 'yazl'

const root = fileURLToPath(new URL('..', import.meta.url))

export interface IngestBenchResult {
  files: number
  uncompressedBytes: number
  zipBytes: number
  oursMs: number
  oursMaxRssBytes: number
  /** Sampled peaks of the ingest process's memory parts (bytes). */
  oursPeak: { rss: number; heapUsed: number; external: number; arrayBuffers: number }
  unzipMs: number
  ratioToUnzip: number
  goals: { maxMs: number; maxRssBytes: number }
}

const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="bench" version="1.0" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Ingest benchmark</title>
    <item identifier="item1" identifierref="res1"><title>Page 1</title></item>
  </organization></organizations>
  <resources><resource identifier="res1" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`

/** Writes the package: half the files compressible text, half incompressible media-like bytes. */
export async function makePackage(path: string, files: number, totalBytes: number): Promise<void> {
  const zip = new yazl.ZipFile()
  zip.addBuffer(Buffer.from(manifest), 'imsmanifest.xml')
  zip.addBuffer(Buffer.from('<!doctype html><title>bench</title><p>bench</p>'), 'index.html')
  const each = Math.floor(totalBytes / files)
  const text = Buffer.from('SCORM content page with some repeated words. '.repeat(Math.ceil(each / 46))).subarray(0, each)
  for (let i = 0; i < files - 2; i++) {
    const dir = `assets/${String(i % 40).padStart(2, '0')}`
    if (i % 2 === 0) zip.addBuffer(text, `${dir}/page-${i}.html`)
    else zip.addBuffer(randomBytes(each), `${dir}/media-${i}.bin`, { compress: false })
  }
  zip.end()
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(path)).on('close', resolve).on('error', reject))
}

const run = (cmd: string, args: string[]) =>
  new Promise<{ ms: number; out: string }>((resolve, reject) => {
    const start = performance.now()
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve({ ms: performance.now() - start, out }) : reject(new Error(`${cmd} exited ${code}`))))
  })

export async function benchIngest(opts: { files?: number; totalBytes?: number } = {}): Promise<IngestBenchResult> {
  const files = opts.files ?? 2_000
  const totalBytes = opts.totalBytes ?? 200 * 1024 * 1024
  const dir = await mkdtemp(join(tmpdir(), 'bench-ingest-'))
  try {
    const zipPath = join(dir, 'package.zip')
    await makePackage(zipPath, files, totalBytes)
    const zipBytes = (await stat(zipPath)).size
    // Warm the page cache for both contenders alike.
    await run('cat', [zipPath]).catch(() => undefined)
    const unzip = await run('unzip', ['-q', '-o', zipPath, '-d', join(dir, 'unzip')])
    await rm(join(dir, 'unzip'), { recursive: true, force: true })
    const ours = await run(process.execPath, ['bench/ingest-child.ts', zipPath, join(dir, 'ours')])
    const line = JSON.parse(ours.out.trim().split('\n').pop()!) as { ms: number; maxRssBytes: number; peak: IngestBenchResult['oursPeak'] }
    return {
      files,
      uncompressedBytes: totalBytes,
      zipBytes,
      oursMs: line.ms,
      oursMaxRssBytes: line.maxRssBytes,
      oursPeak: line.peak,
      unzipMs: Math.round(unzip.ms),
      ratioToUnzip: Number((line.ms / unzip.ms).toFixed(2)),
      goals: { maxMs: 5_000, maxRssBytes: 256 * 1024 * 1024 },
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The summary lines of this benchmark. */
export const formatIngest = (r: IngestBenchResult) =>
  [
    `package ingest (${r.files} files, ${(r.uncompressedBytes / 2 ** 20).toFixed(0)} MB, zip ${(r.zipBytes / 2 ** 20).toFixed(0)} MB)`,
    `  ours                            ${(r.oursMs / 1000).toFixed(2)} s, peak RSS ${(r.oursMaxRssBytes / 2 ** 20).toFixed(0)} MB (goal <= 5 s, <= 256 MB)`,
    `    of which at most: JS heap ${(r.oursPeak.heapUsed / 2 ** 20).toFixed(0)} MB, buffers ${(r.oursPeak.external / 2 ** 20).toFixed(0)} MB`,
    `  unzip (same zip, same run)      ${(r.unzipMs / 1000).toFixed(2)} s; ours / unzip = ${r.ratioToUnzip}`,
  ].join('\n')

if (import.meta.main) console.log(formatIngest(await benchIngest()))
