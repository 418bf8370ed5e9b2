import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '@portal/server-kit/testing'

const root = fileURLToPath(new URL('..', import.meta.url))

export { freePort }

/**
 * Starts the portal in single-node mode with `command` (from the repository root) on a free port,
 * a fresh data folder and embedded defaults, plus `env`; resolves once it answers /healthz.
 * `contentHost` puts the content origin on another host name than the portal's `localhost` (e.g.
 * `127.0.0.1`: another site, so Chromium runs the content in a process of its own, as it does for
 * a deployment's content host). `stop()` ends the process group and removes the data.
 */
export async function startPortal(command: string, args: string[], env: Record<string, string> = {}, opts: { contentHost?: string } = {}) {
  const port = await freePort()
  let contentPort = await freePort()
  while (contentPort === port) contentPort = await freePort()
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-e2e-'))
  const baseURL = `http://localhost:${port}`
  const contentURL = `http://${opts.contentHost ?? 'localhost'}:${contentPort}`
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    CONTENT_PORT: String(contentPort),
    // The Golf 4th edition package loads jQuery from this CDN (the journeys answer it from the fixtures).
    CONTENT_ALLOW_SCRIPTS: 'https://ajax.googleapis.com',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  }
  // No PUBLIC_URL: e-mailed links must follow the gateway's port by themselves (issue 15 item 10).
  delete childEnv.PUBLIC_URL
  for (const k of ['DATABASE_URL', 'NATS_URL', 'SMTP_URL', 'CONTENT_ORIGIN', 'CONTENT_ALLOW_FRAMES', 'CONTENT_ALLOW_CONNECT']) delete childEnv[k]
  if (opts.contentHost) childEnv.CONTENT_ORIGIN = contentURL
  Object.assign(childEnv, env)
  const child = spawn(command, args, { cwd: root, env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {
      // the process group has already exited
    }
    await new Promise((r) => setTimeout(r, 1_000))
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // it stopped on SIGTERM
    }
    await rm(dataDir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 170_000
  for (;;) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`${command} exited early:\n${output}`)
    }
    try {
      const res = await fetch(`${baseURL}/healthz`)
      if (res.ok) break
    } catch {
      // not listening yet: ask again until the deadline
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`portal did not start:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 300))
  }
  return { baseURL, contentURL, stop }
}
