/**
 * Cluster mode on one machine, for trying it out and for benchmarks: every service and every
 * remote's static server in its own process on its own port, PostgreSQL, NATS JetStream and SMTP
 * required (as in compose.yaml).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { REMOTE_NAMES, remoteFolder, remoteUrlVar, type RemoteName } from '@portal/contracts'
import { closeOnSignal } from '@portal/server-kit'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const staticServer = fileURLToPath(import.meta.resolve('@portal/static-server/server'))

export interface ClusterOptions {
  env: Record<string, string | undefined>
  gatewayPort: number
  /** Ports of the services (defaults 4001 identity, 4002 learning, 4004 notify). */
  ports?: { identity?: number; learning?: number; notify?: number }
  /** Ports of the remotes' static servers (default 4101, 4102, ... in the order of `REMOTES`). */
  remotePorts?: Partial<Record<RemoteName, number>>
  quiet?: boolean
}

const waitHealthy = async (url: string, ms = 60_000, child?: ChildProcess) => {
  const end = Date.now() + ms
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`exited with code ${child.exitCode} before it was healthy: ${url}`)
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
  // Each process by name (its folder): what ran it, so that one can be restarted alone.
  const children = new Map<string, { child: ChildProcess; script: string; env: Record<string, string> }>()
  const run = (script: string, env: Record<string, string>, name = script.split('/')[0]!) => {
    // CLUSTER_NODE_ARGS: extra Node flags for every service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile a benchmark.
    const nodeArgs = (opts.env.CLUSTER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)
    const child = spawn(process.execPath, [...nodeArgs, script], {
      cwd: root,
      env: { ...process.env, ...opts.env, ...env },
      stdio: opts.quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    })
    children.set(name, { child, script, env })
    return child
  }
  const stop = (c: ChildProcess) =>
    new Promise<void>((r) => {
      if (c.exitCode !== null || c.signalCode !== null) return r()
      c.once('exit', () => r())
      c.kill('SIGTERM')
      setTimeout(() => c.kill('SIGKILL'), 5_000).unref()
    })
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
  // Each remote's build from its own static server, proxied by the gateway as in compose.yaml.
  const remoteUrls: Record<string, string> = {}
  const remotesUp: Promise<void>[] = []
  for (const [i, name] of REMOTE_NAMES.entries()) {
    const port = opts.remotePorts?.[name] ?? 4101 + i
    const folder = remoteFolder(name)
    const child = run(staticServer, { PORT: String(port), STATIC_DIR: join(root, folder, 'dist') }, folder)
    remoteUrls[remoteUrlVar(name)] = `http://127.0.0.1:${port}`
    remotesUp.push(waitHealthy(`http://127.0.0.1:${port}/healthz`, 60_000, child))
  }
  await Promise.all(remotesUp)
  run('gateway/src/server.ts', {
    PORT: String(opts.gatewayPort),
    IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
    LEARNING_URL: `http://127.0.0.1:${learningPort}`,
    NOTIFY_URL: `http://127.0.0.1:${notifyPort}`,
    ...remoteUrls,
  })
  await waitHealthy(`http://127.0.0.1:${opts.gatewayPort}/healthz`)
  return {
    url: `http://127.0.0.1:${opts.gatewayPort}`,
    /** The process id of each process by name (`gateway`, `svc-learning`, `mf-exams`, ...). */
    pids: () => Object.fromEntries([...children].map(([name, p]) => [name, p.child.pid!])),
    /**
     * Redeploys one process alone: stops it, starts it again with `env` over its environment
     * (e.g. another `STATIC_DIR` for a remote), resolves once it is healthy.
     */
    async restart(name: string, env: Record<string, string> = {}) {
      const p = children.get(name)
      if (!p) throw new Error(`no process ${name} in this cluster`)
      await stop(p.child)
      const next = { ...p.env, ...env }
      await waitHealthy(`http://127.0.0.1:${next.PORT}/healthz`, 60_000, run(p.script, next, name))
    },
    async close() {
      await Promise.all([...children.values()].map((p) => stop(p.child)))
    },
  }
}

if (import.meta.main) {
  const cluster = await startCluster({ env: process.env, gatewayPort: Number(process.env.PORT ?? 8080) })
  process.stdout.write(`\n  Learning portal (cluster) at ${cluster.url}\n\n`)
  closeOnSignal(undefined, cluster.close)
}
