/**
 * Cluster mode on one machine, for trying it out and for benchmarks: every service in its own
 * process on its own port, PostgreSQL, NATS JetStream and SMTP required (as in compose.yaml).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { closeOnSignal, publicUrl } from '@portal/server-kit'

const root = fileURLToPath(new URL('../../../', import.meta.url))

export interface ClusterOptions {
  env: Record<string, string | undefined>
  gatewayPort: number
  /** Ports of the services (defaults 4001 identity, 4002 learning, 4004 notify). */
  ports?: { identity?: number; learning?: number; notify?: number }
  quiet?: boolean
}

const waitHealthy = async (url: string, ms = 60_000) => {
  const end = Date.now() + ms
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) })
      if (res.ok) return
    } catch {}
    if (Date.now() > end) throw new Error(`not healthy in time: ${url}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Starts identity, learning, notify and the gateway as separate processes; resolves once all are healthy. */
export async function startCluster(opts: ClusterOptions) {
  for (const key of ['DATABASE_URL', 'NATS_URL', 'SMTP_URL'] as const)
    if (!opts.env[key]) throw new Error(`cluster mode needs ${key}`)
  const identityPort = opts.ports?.identity ?? 4001
  const notifyPort = opts.ports?.notify ?? 4004
  const learningPort = opts.ports?.learning ?? 4002
  const children: ChildProcess[] = []
  // Every service's PORT is its own: e-mailed links need the gateway's address, handed down.
  const PUBLIC_URL = publicUrl(opts.env, opts.gatewayPort)
  const run = (script: string, env: Record<string, string>) => {
    // CLUSTER_NODE_ARGS: extra Node flags for every service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile a benchmark.
    const nodeArgs = (opts.env.CLUSTER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)
    const child = spawn(process.execPath, [...nodeArgs, script], {
      cwd: root,
      env: { ...process.env, ...opts.env, PUBLIC_URL, ...env },
      stdio: opts.quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    })
    children.push(child)
    return child
  }
  run('svc-notify/src/server.ts', { PORT: String(notifyPort) })
  run('svc-identity/src/server.ts', { PORT: String(identityPort) })
  await waitHealthy(`http://127.0.0.1:${identityPort}/healthz`)
  await waitHealthy(`http://127.0.0.1:${notifyPort}/healthz`)
  // One machine: the learning instances share a local folder and a secret made for this run
  // unless the environment names them.
  const storageDir = opts.env.STORAGE_DIR ?? join(root, opts.env.DATA_DIR ?? '.data', 'cluster-storage', 'learning')
  mkdirSync(storageDir, { recursive: true })
  run('svc-learning/src/server.ts', {
    PORT: String(learningPort),
    IDENTITY_JWKS_URL: `http://127.0.0.1:${identityPort}/auth/jwks.json`,
    STORAGE_DIR: storageDir,
    LAUNCH_TOKEN_SECRET: opts.env.LAUNCH_TOKEN_SECRET ?? randomBytes(32).toString('base64url'),
  })
  await waitHealthy(`http://127.0.0.1:${learningPort}/healthz`)
  run('gateway/src/server.ts', {
    PORT: String(opts.gatewayPort),
    IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
    LEARNING_URL: `http://127.0.0.1:${learningPort}`,
    NOTIFY_URL: `http://127.0.0.1:${notifyPort}`,
  })
  await waitHealthy(`http://127.0.0.1:${opts.gatewayPort}/healthz`)
  return {
    url: `http://127.0.0.1:${opts.gatewayPort}`,
    async close() {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((r) => {
              if (c.exitCode !== null) return r()
              c.once('exit', () => r())
              c.kill('SIGTERM')
              setTimeout(() => c.kill('SIGKILL'), 5_000).unref()
            }),
        ),
      )
    },
  }
}

if (import.meta.main) {
  const cluster = await startCluster({ env: process.env, gatewayPort: Number(process.env.PORT ?? 8080) })
  process.stdout.write(`\n  Learning portal (cluster) at ${cluster.url}\n\n`)
  closeOnSignal(undefined, cluster.close)
}
