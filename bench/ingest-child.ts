/**
 * Ingests one package in a process of its own, the way the service's ingest worker does
 * (`extractModulePackage`: the zip read from local storage, extracted under the module's content
 * prefix), so its peak RSS is the ingest's own. Prints one JSON line: {ms, maxRssBytes, startRssBytes,
 * atPeak, maxOpenFiles, fileCount, totalBytes}.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { extractModulePackage } from 'svc-learning/courses/ingest/ingest-worker'
import { createLocalStorage } from '@portal/server-kit'

const [storageRoot, zipKey] = process.argv.slice(2)
if (!storageRoot || !zipKey) throw new Error('usage: ingest-child.ts <storage root> <zip key in it>')
const storage = createLocalStorage(storageRoot)

/** The memory parts (bytes) at one moment; resident file pages are mostly the node binary's code. */
function memory() {
  const m = process.memoryUsage()
  const status = readFileSync('/proc/self/status', 'utf8')
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024
  return { rss: m.rss, rssFile: kb('RssFile'), rssAnon: kb('RssAnon'), heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers }
}
const openFiles = () => readdirSync('/proc/self/fd').length

// The kernel's high-water mark (VmHWM, below) is the figure; samples tell what the peak was made of.
const startRssBytes = process.memoryUsage().rss
let atPeak = memory()
let maxOpenFiles = openFiles()
const sample = setInterval(() => {
  const m = memory()
  if (m.rss > atPeak.rss) atPeak = m
  maxOpenFiles = Math.max(maxOpenFiles, openFiles())
}, 5)
const start = performance.now()
const info = await extractModulePackage(storage, zipKey, 1)
const ms = performance.now() - start
clearInterval(sample)
// The process's own high-water mark. Not resourceUsage().maxRSS: Linux carries into a child's
// ru_maxrss the RSS its parent had when spawning it (the benchmark's parent holds the whole
// generated package, and `npm run bench` far more), which is not this process's memory.
const maxRssBytes = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024
process.stdout.write(JSON.stringify({ ms: Math.round(ms), maxRssBytes, startRssBytes, atPeak, maxOpenFiles, fileCount: info.fileCount, totalBytes: info.totalBytes }) + '\n')
