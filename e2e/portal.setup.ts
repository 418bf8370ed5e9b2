import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

const root = fileURLToPath(new URL('..', import.meta.url))

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
  }
}

/** Starts the portal with `npm start` (fresh data folder, embedded defaults) for the journeys. */
export default async function setup(project: TestProject) {
  const port = await freePort()
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-e2e-'))
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
  // No PUBLIC_URL: e-mailed links must follow the gateway's port by themselves (issue 15 item 10).
  delete env.PUBLIC_URL
  for (const k of ['DATABASE_URL', 'NATS_URL', 'SMTP_URL']) delete env[k]
  const child = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const baseURL = `http://localhost:${port}`
  const deadline = Date.now() + 170_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`)
    try {
      const res = await fetch(`${baseURL}/healthz`)
      if (res.ok) break
    } catch {}
    if (Date.now() > deadline) throw new Error(`portal did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 300))
  }
  project.provide('baseURL', baseURL)
  return async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {}
    await new Promise((r) => setTimeout(r, 1_000))
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {}
    await rm(dataDir, { recursive: true, force: true })
  }
}
