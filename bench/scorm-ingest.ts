/**
 * Package ingest benchmark: a generated SCORM 1.2 package of 2,000 files and 200 MB is ingested
 * (validated, manifest parsed, every file streamed to storage) by the ingest worker's own code path
 * in a process of its own, `BENCH_INGEST_RUNS` times (default 3) so one lucky run cannot hide a
 * regression; `unzip` of the same zip in the same rounds is the ceiling. Goal: <= 5 s and peak RSS
 * <= 256 MB, judged on the worst run.
 */
import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import yazl from 'yazl'

const root = fileURLToPath(new URL('..', import.meta.url))

/** The ingest process's memory at its sampled RSS peak (bytes). */
export interface IngestMemory {
  rss: number
  /** Resident file pages: mostly the node binary's code. */
  rssFile: number
  rssAnon: number
  /** V8's heap as committed, and the live or not yet collected JS objects in it. */
  heapTotal: number
  heapUsed: number
  /** Memory V8 is told about outside its heap: Buffers (arrayBuffers) and zlib contexts. */
  external: number
  arrayBuffers: number
}

export interface IngestRun {
  ms: number
  /** The kernel's high-water mark of the process's own memory (VmHWM; see ingest-child.ts). */
  maxRssBytes: number
  /** RSS once the modules are loaded, before the ingest starts. */
  startRssBytes: number
  atPeak: IngestMemory
  maxOpenFiles: number
}

export interface IngestBenchResult {
  files: number
  uncompressedBytes: number
  zipBytes: number
  runs: IngestRun[]
  /** The slowest run. */
  oursMs: number
  oursMedianMs: number
  /** The highest peak of all runs. */
  oursMaxRssBytes: number
  /** What that peak was made of. */
  oursPeak: IngestMemory
  unzipMs: number
  /** Median ingest over median unzip. */
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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export async function benchIngest(opts: { files?: number; totalBytes?: number; runs?: number } = {}): Promise<IngestBenchResult> {
  const files = opts.files ?? 2_000
  const totalBytes = opts.totalBytes ?? 200 * 1024 * 1024
  const rounds = opts.runs ?? Number(process.env.BENCH_INGEST_RUNS ?? 3)
  const dir = await mkdtemp(join(tmpdir(), 'bench-ingest-'))
  try {
    // Laid out as the service stores an upload, so the child runs the worker's path on it.
    const storageRoot = join(dir, 'storage')
    const zipKey = 'uploads/bench/1.zip'
    const zipPath = join(storageRoot, zipKey)
    await mkdir(join(storageRoot, 'uploads/bench'), { recursive: true })
    await makePackage(zipPath, files, totalBytes)
    const zipBytes = (await stat(zipPath)).size
    // Warm the page cache for both contenders alike.
    await run('cat', [zipPath]).catch(() => undefined)
    const runs: IngestRun[] = []
    const unzipMs: number[] = []
    for (let i = 0; i < rounds; i++) {
      const unzip = await run('unzip', ['-q', '-o', zipPath, '-d', join(dir, 'unzip')])
      unzipMs.push(unzip.ms)
      await rm(join(dir, 'unzip'), { recursive: true, force: true })
      const ours = await run(process.execPath, ['bench/ingest-child.ts', storageRoot, zipKey])
      runs.push(JSON.parse(ours.out.trim().split('\n').pop()!) as IngestRun)
      await rm(join(storageRoot, 'modules'), { recursive: true, force: true })
    }
    const worst = runs.reduce((a, b) => (b.maxRssBytes > a.maxRssBytes ? b : a))
    const oursMedianMs = median(runs.map((r) => r.ms))
    return {
      files,
      uncompressedBytes: totalBytes,
      zipBytes,
      runs,
      oursMs: Math.max(...runs.map((r) => r.ms)),
      oursMedianMs,
      oursMaxRssBytes: worst.maxRssBytes,
      oursPeak: worst.atPeak,
      unzipMs: Math.round(median(unzipMs)),
      ratioToUnzip: Number((oursMedianMs / median(unzipMs)).toFixed(2)),
      goals: { maxMs: 5_000, maxRssBytes: 256 * 1024 * 1024 },
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`

/** The summary lines of this benchmark. */
export const formatIngest = (r: IngestBenchResult) => {
  const p = r.oursPeak
  const worst = r.runs.find((run) => run.maxRssBytes === r.oursMaxRssBytes) ?? r.runs[0]
  return [
    `package ingest (${r.files} files, ${(r.uncompressedBytes / 2 ** 20).toFixed(0)} MB, zip ${(r.zipBytes / 2 ** 20).toFixed(0)} MB; ${r.runs.length} runs, each its own process)`,
    `  ours, worst run                 ${s(r.oursMs)}, peak RSS ${mb(r.oursMaxRssBytes)} (goal <= 5 s, <= 256 MB)`,
    `    runs                          ${r.runs.map((run) => `${s(run.ms)} ${mb(run.maxRssBytes)}`).join(', ')}`,
    `    at the peak (sampled)         code ${mb(p.rssFile)}, V8 heap ${mb(p.heapTotal)} (in use ${mb(p.heapUsed)}), buffers ${mb(p.arrayBuffers)}, ` +
      `other native ${mb(Math.max(0, p.rssAnon - p.heapTotal - p.arrayBuffers))}; ${mb(worst.startRssBytes)} before the ingest, ${worst.maxOpenFiles} files open at most`,
    `  unzip (same zip, same rounds)   ${s(r.unzipMs)} median; ours / unzip = ${r.ratioToUnzip} (medians)`,
  ].join('\n')
}

if (import.meta.main) console.log(formatIngest(await benchIngest()))
