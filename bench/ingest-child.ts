/**
 * Ingests one package into a fresh local storage folder in its own process, so its peak RSS is
 * the ingest's own; prints one JSON line: {ms, maxRssBytes, fileCount, totalBytes, scoCount}.
 */
import { ingestPackage } from '../svc-learning/src/packages/index.ts'
import { createLocalStorage } from '../svc-learning/src/storage/storage.ts'

const [zipPath, outDir] = process.argv.slice(2)
if (!zipPath || !outDir) throw new Error('usage: ingest-child.ts <zip> <out dir>')
const storage = createLocalStorage(outDir)
// What the peak is made of: sampled while the ingest runs.
const peak = { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }
const sample = setInterval(() => {
  const m = process.memoryUsage()
  for (const k of Object.keys(peak) as (keyof typeof peak)[]) peak[k] = Math.max(peak[k], m[k])
}, 10)
const start = performance.now()
const info = await ingestPackage({ zipPath, storage, prefix: 'modules/1/content' })
const ms = performance.now() - start
clearInterval(sample)
// maxRSS is in kilobytes.
const maxRssBytes = process.resourceUsage().maxRSS * 1024
process.stdout.write(
  JSON.stringify({ ms: Math.round(ms), maxRssBytes, peak, fileCount: info.fileCount, totalBytes: info.totalBytes, scoCount: info.scoCount }) + '\n',
)
