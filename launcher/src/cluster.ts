/**
 * Cluster mode on one machine, for trying it out and for benchmarks: every service and every
 * remote's static server in its own process on its own port, PostgreSQL, NATS JetStream and SMTP
 * required (as in compose.yaml). Files go to S3-compatible storage: the one S3_* names, else an
 * s3rver this launcher starts (compose has MinIO).
 *
 * CLUSTER_REPLICAS (e.g. `learning=2,certs=2`): that many processes of a service, replica n (from
 * 0) on the service's port + 10 n, named `svc-learning`, `svc-learning-2`, ...; the gateway gets
 * their comma-separated URLs and balances across them.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { REMOTE_NAMES, remoteFolder, remoteUrlVar, type RemoteName } from '@portal/contracts'
import { closeOnSignal, parseEnv, publicUrl } from '@portal/server-kit'
import { ContentEnv, contentListenerOf } from 'gateway/server'
import { CERTS_NODE_FLAGS } from 'svc-certs/node-flags'

const root = fileURLToPath(new URL('../../', import.meta.url))
const staticServer = fileURLToPath(import.meta.resolve('@portal/static-server/server'))

export interface ClusterOptions {
  env: Record<string, string | undefined>
  gatewayPort: number
  /** Port of the gateway's content origin (default CONTENT_PORT, else gatewayPort + 1). */
  contentPort?: number
  /** Ports of the services (defaults 4001 identity, 4002 learning, 4003 certs, 4004 notify). */
  ports?: { identity?: number; learning?: number; certs?: number; notify?: number }
  /** Ports of the remotes' static servers (default 4101, 4102, ... in the order of `REMOTES`). */
  remotePorts?: Partial<Record<RemoteName, number>>
  /** Processes per service (default 1 each, or CLUSTER_REPLICAS). */
  replicas?: Partial<Record<Service, number>>
  /**
   * Each remote's build from a static server of its own (default true). False: no such servers,
   * the gateway serves the remotes' build folders itself (tests that call the API only, built or not).
   */
  remoteServers?: boolean
  quiet?: boolean
}

const SERVICES = ['identity', 'learning', 'certs', 'notify'] as const
type Service = (typeof SERVICES)[number]
/** Replica n of a service listens on its port + REPLICA_PORT_STEP * n. */
const REPLICA_PORT_STEP = 10

/** `learning=2,certs=2` (CLUSTER_REPLICAS): processes per service, 1 to 9 (the rest keep 1). */
export function clusterReplicas(value: string | undefined): Partial<Record<Service, number>> {
  const out: Partial<Record<Service, number>> = {}
  for (const part of (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z]+)=([1-9])$/.exec(part)
    const service = m?.[1] as Service | undefined
    if (!m || !SERVICES.includes(service!)) throw new Error(`CLUSTER_REPLICAS: "${part}" is not <service>=<1 to 9> with a service of ${SERVICES.join(', ')}`)
    out[service!] = Number(m[2])
  }
  return out
}

const waitHealthy = async (url: string, ms = 60_000, child?: ChildProcess) => {
  const end = Date.now() + ms
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`exited with code ${child.exitCode} before it was healthy: ${url}`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) })
      if (res.ok) return
    } catch {
      // Not listening yet (or the check timed out): ask again until `end`.
    }
    if (Date.now() > end) throw new Error(`not healthy in time: ${url}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/**
 * The object storage of a local cluster: the one the environment names, else an s3rver in this
 * process (its files under DATA_DIR), standing in for compose's MinIO.
 */
async function objectStorage(env: Record<string, string | undefined>): Promise<{ vars: Record<string, string>; close(): Promise<void> }> {
  if (env.S3_BUCKET) return { vars: {}, close: async () => undefined }
  const { default: S3rver } = (await import('s3rver' as string)) as {
    default: new (opts: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> }
  }
  const directory = join(root, env.DATA_DIR ?? '.data', 'cluster-storage', 's3')
  mkdirSync(directory, { recursive: true })
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: 'portal' }] })
  const { port } = await server.run()
  return {
    // s3rver's fixed credentials.
    vars: { S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_BUCKET: 'portal', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' },
    close: () => server.close(),
  }
}

/** Starts identity, learning, certs, notify, the remotes' servers and the gateway as separate processes; resolves once all are healthy. */
export async function startCluster(opts: ClusterOptions) {
  for (const key of ['DATABASE_URL', 'NATS_URL', 'SMTP_URL'] as const) if (!opts.env[key]) throw new Error(`cluster mode needs ${key}`)
  const identityPort = opts.ports?.identity ?? 4001
  const notifyPort = opts.ports?.notify ?? 4004
  const learningPort = opts.ports?.learning ?? 4002
  const certsPort = opts.ports?.certs ?? 4003
  const replicas = opts.replicas ?? clusterReplicas(opts.env.CLUSTER_REPLICAS)
  /** The ports of a service's replicas, the first its own port. */
  const portsOf = (service: Service, port: number) => Array.from({ length: replicas[service] ?? 1 }, (_, n) => port + REPLICA_PORT_STEP * n)
  const urlsOf = (service: Service, port: number) => portsOf(service, port).map((p) => `http://127.0.0.1:${p}`)
  /** Starts every replica of a service (the first by its folder's name, then `<folder>-2`, ...) and waits until each is healthy. */
  const runReplicas = async (service: Service, port: number, script: string, env: Record<string, string>, flags: readonly string[] = []) => {
    const folder = script.split('/')[0]!
    const started = portsOf(service, port).map((p, n) => [p, run(script, { ...env, PORT: String(p) }, n ? `${folder}-${n + 1}` : folder, flags)] as const)
    await Promise.all(started.map(([p, child]) => waitHealthy(`http://127.0.0.1:${p}/healthz`, 60_000, child)))
  }
  const s3 = await objectStorage(opts.env)
  // Every service's PORT is its own: e-mailed links need the gateway's address, handed down.
  const PUBLIC_URL = publicUrl(opts.env, opts.gatewayPort)
  // Course content has an origin of its own (decision 0018): the gateway listens for it on a
  // second port, and learning's launch answers point there.
  const content = contentListenerOf({
    ...parseEnv(ContentEnv, opts.env),
    ...(opts.contentPort !== undefined ? { CONTENT_PORT: opts.contentPort } : {}),
    PORT: opts.gatewayPort,
    PUBLIC_URL,
  })
  const contentOrigin = content.origin ?? `http://localhost:${content.port}`
  // Each process by name (its folder): what ran it, so that one can be restarted alone.
  const children = new Map<string, { child: ChildProcess; script: string; env: Record<string, string>; flags: readonly string[] }>()
  // `flags`: the process's own Node flags, as its image starts it (svc-certs' young generation).
  const run = (script: string, env: Record<string, string>, name = script.split('/')[0]!, flags: readonly string[] = []) => {
    // CLUSTER_NODE_ARGS: extra Node flags for every service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile a benchmark.
    const nodeArgs = (opts.env.CLUSTER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)
    const child = spawn(process.execPath, [...flags, ...nodeArgs, script], {
      cwd: root,
      env: { ...process.env, ...opts.env, PUBLIC_URL, ...env },
      stdio: opts.quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    })
    children.set(name, { child, script, env, flags })
    return child
  }
  const stop = (c: ChildProcess) =>
    new Promise<void>((r) => {
      if (c.exitCode !== null || c.signalCode !== null) return r()
      c.once('exit', () => r())
      c.kill('SIGTERM')
      setTimeout(() => c.kill('SIGKILL'), 5_000).unref()
    })
  const stopAll = async () => {
    await Promise.all([...children.values()].map((p) => stop(p.child)))
    await s3.close()
  }
  // A process that does not come up stops the ones started before it.
  try {
    await Promise.all([
      runReplicas('notify', notifyPort, 'svc-notify/src/server.ts', { IDENTITY_JWKS_URL: `http://127.0.0.1:${identityPort}/auth/jwks.json` }),
      runReplicas('identity', identityPort, 'svc-identity/src/server.ts', {}),
    ])
    // One machine: the learning instances share the bucket and a secret made for this run unless
    // the environment names them.
    await Promise.all([
      runReplicas('learning', learningPort, 'svc-learning/src/server.ts', {
        ...s3.vars,
        IDENTITY_JWKS_URL: `http://127.0.0.1:${identityPort}/auth/jwks.json`,
        LAUNCH_TOKEN_SECRET: opts.env.LAUNCH_TOKEN_SECRET ?? randomBytes(32).toString('base64url'),
        CONTENT_ORIGIN: contentOrigin,
      }),
      runReplicas('certs', certsPort, 'svc-certs/src/server.ts', { ...s3.vars, IDENTITY_JWKS_URL: `http://127.0.0.1:${identityPort}/auth/jwks.json` }, CERTS_NODE_FLAGS),
    ])
    // Each remote's build from its own static server, proxied by the gateway as in compose.yaml.
    const remoteUrls: Record<string, string> = {}
    const remotesUp: Promise<void>[] = []
    for (const [i, name] of opts.remoteServers === false ? [] : REMOTE_NAMES.entries()) {
      const port = opts.remotePorts?.[name] ?? 4101 + i
      const folder = remoteFolder(name)
      const child = run(staticServer, { PORT: String(port), STATIC_DIR: join(root, folder, 'dist') }, folder)
      remoteUrls[remoteUrlVar(name)] = `http://127.0.0.1:${port}`
      remotesUp.push(waitHealthy(`http://127.0.0.1:${port}/healthz`, 60_000, child))
    }
    await Promise.all(remotesUp)
    run('gateway/src/server.ts', {
      PORT: String(opts.gatewayPort),
      IDENTITY_URL: urlsOf('identity', identityPort).join(','),
      LEARNING_URL: urlsOf('learning', learningPort).join(','),
      CERTS_URL: urlsOf('certs', certsPort).join(','),
      NOTIFY_URL: urlsOf('notify', notifyPort).join(','),
      CONTENT_PORT: String(content.port),
      CONTENT_ORIGIN: contentOrigin,
      ...remoteUrls,
    })
    await waitHealthy(`http://127.0.0.1:${opts.gatewayPort}/healthz`)
  } catch (err) {
    await stopAll()
    throw err
  }
  const processOf = (name: string) => {
    const p = children.get(name)
    if (!p) throw new Error(`no process ${name} in this cluster`)
    return p
  }
  /** Runs `p`'s script and flags as `name`, with `env` over its environment; resolves once it is healthy. */
  const runLike = (p: ReturnType<typeof processOf>, name: string, env: Record<string, string>) => {
    const next = { ...p.env, ...env }
    return waitHealthy(`http://127.0.0.1:${next.PORT}/healthz`, 60_000, run(p.script, next, name, p.flags))
  }
  return {
    url: `http://127.0.0.1:${opts.gatewayPort}`,
    contentOrigin,
    /** The process id of each process by name (`gateway`, `svc-learning`, `svc-learning-2`, `mf-exams`, ...). */
    pids: () => Object.fromEntries([...children].map(([name, p]) => [name, p.child.pid!])),
    /** The process running as `name` now (a restart replaces it). */
    child: (name: string): ChildProcess => processOf(name).child,
    /**
     * Kills one process with `signal` (default SIGKILL: a crash, no shutdown of its own); resolves
     * once it has exited. `restart(name)` starts it again.
     */
    kill(name: string, signal: NodeJS.Signals = 'SIGKILL') {
      const c = processOf(name).child
      return new Promise<void>((r) => {
        if (c.exitCode !== null || c.signalCode !== null) return r()
        c.once('exit', () => r())
        c.kill(signal)
      })
    },
    /**
     * Redeploys one process alone: stops it (at once when it has exited, e.g. after `kill`),
     * starts it again with `env` over its environment (e.g. another `STATIC_DIR` for a remote),
     * resolves once it is healthy.
     */
    async restart(name: string, env: Record<string, string> = {}) {
      const p = processOf(name)
      await stop(p.child)
      await runLike(p, name, env)
    },
    /**
     * Starts another process like `name` (its script, flags and environment, with `env` over it:
     * a `PORT` of its own at least) as `copy`, e.g. a second gateway in front of one replica with
     * other settings, as a canary runs beside the rest; resolves once it is healthy. It is
     * restarted, killed and closed with the others.
     */
    async startCopy(name: string, copy: string, env: Record<string, string>) {
      if (children.has(copy)) throw new Error(`a process ${copy} is already in this cluster`)
      await runLike(processOf(name), copy, env)
    },
    close: stopAll,
  }
}

if (import.meta.main) {
  const cluster = await startCluster({ env: process.env, gatewayPort: Number(process.env.PORT ?? 8080) })
  process.stdout.write(`\n  Learning portal (cluster) at ${cluster.url}\n\n`)
  closeOnSignal(undefined, cluster.close)
}
