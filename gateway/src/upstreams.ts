import type { Logger } from '@portal/server-kit'

/**
 * Replicas of a service behind the gateway. A service's address is one URL or several,
 * comma-separated (`LEARNING_URL=http://10.0.0.5:4002,http://10.0.0.6:4002`): the gateway balances
 * across them (fewest requests in flight, in turn when even), checks each (GET /readyz every few
 * seconds), takes one out after `fall` failed checks in a row or when it refuses connections, and
 * back after `rise` good checks. When every replica is out one is still tried: the checker never
 * makes the gateway refuse on its own. One URL is one replica, never checked (as before replicas).
 */
export interface Replica {
  /** The replica's base URL, without a trailing slash. */
  readonly base: string
  readonly url: URL
  /** In the choice (a replica that is out is tried only when every one is out). */
  up: boolean
  /** Requests sent to it and not finished yet. */
  inFlight: number
  /** Failed checks in a row (while up), good checks in a row (while out). */
  streak: number
}

export interface UpstreamPool {
  readonly name: string
  readonly replicas: readonly Replica[]
  /**
   * The replica for the next request: the healthy one with the fewest requests in flight (in turn
   * among equals), not one of `tried`; when none is healthy, one of those not tried. Undefined only
   * once every replica has been tried.
   */
  pick(tried?: ReadonlySet<Replica>): Replica | undefined
  /** A request could not reach `replica` (passive check): refused or unreachable takes it out at once, anything else counts as one failed check. */
  failed(replica: Replica, err: NodeJS.ErrnoException): void
  /** Stops the checks. */
  close(): void
}

export interface HealthCheckOptions {
  /** Path asked on each replica (default /readyz: the service and what it needs are up). */
  path: string
  intervalMs: number
  timeoutMs: number
  /** Failed checks in a row that take a replica out. */
  fall: number
  /** Good checks in a row that bring it back. */
  rise: number
}

export const DEFAULT_HEALTH_CHECK: HealthCheckOptions = { path: '/readyz', intervalMs: 2_000, timeoutMs: 1_500, fall: 2, rise: 2 }

/** Errors that say nothing listens there (or the host is not reachable at all). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/** `http://a:1, http://b:1/` (or a list): the URLs, trailing slashes dropped. */
export function upstreamList(value: string | readonly string[]): string[] {
  const list = typeof value === 'string' ? value.split(',') : value
  return list.map((u) => u.trim().replace(/\/+$/, '')).filter(Boolean)
}

export interface PoolOptions {
  logger?: Logger
  /** Overrides of DEFAULT_HEALTH_CHECK. */
  healthCheck?: Partial<HealthCheckOptions>
}

export function createUpstreamPool(name: string, urls: string | readonly string[], opts: PoolOptions = {}): UpstreamPool {
  const bases = upstreamList(urls)
  if (bases.length === 0) throw new Error(`no URL for upstream ${name}`)
  const replicas: Replica[] = bases.map((base) => ({ base, url: new URL(base), up: true, inFlight: 0, streak: 0 }))
  const check = { ...DEFAULT_HEALTH_CHECK, ...opts.healthCheck }
  let turn = 0

  const setUp = (r: Replica, up: boolean, why: string) => {
    if (r.up === up) return
    r.up = up
    r.streak = 0
    if (up) opts.logger?.info('upstream replica back', { upstream: name, replica: r.base })
    else opts.logger?.warn('upstream replica out', { upstream: name, replica: r.base, why })
  }
  const result = (r: Replica, ok: boolean, why: string) => {
    if (ok === r.up) return void (r.streak = 0)
    r.streak += 1
    if (r.streak >= (r.up ? check.fall : check.rise)) setUp(r, ok, why)
  }

  const pick = (tried?: ReadonlySet<Replica>) => {
    const open = tried?.size ? replicas.filter((r) => !tried.has(r)) : replicas
    if (open.length <= 1) return open[0]
    const healthy = open.filter((r) => r.up)
    const from = healthy.length ? healthy : open
    turn = (turn + 1) % Number.MAX_SAFE_INTEGER
    let best: Replica | undefined
    // In turn from a moving start, so that equals take turns.
    for (let i = 0; i < from.length; i++) {
      const r = from[(turn + i) % from.length]!
      if (!best || r.inFlight < best.inFlight) best = r
    }
    return best
  }

  // Only a service with several replicas is checked: with one there is nothing to choose.
  const stop = new AbortController()
  const timer =
    replicas.length > 1
      ? setInterval(() => {
          for (const r of replicas) void probe(r)
        }, check.intervalMs)
      : undefined
  timer?.unref()
  const checking = new Set<Replica>()
  async function probe(r: Replica) {
    if (checking.has(r)) return
    checking.add(r)
    try {
      const res = await fetch(`${r.base}${check.path}`, { signal: AbortSignal.any([stop.signal, AbortSignal.timeout(check.timeoutMs)]) })
      await res.body?.cancel()
      if (!stop.signal.aborted) result(r, res.ok, `status ${res.status}`)
    } catch (err) {
      if (!stop.signal.aborted) result(r, false, (err as Error).message)
    } finally {
      checking.delete(r)
    }
  }

  return {
    name,
    replicas,
    pick,
    failed(r, err) {
      if (replicas.length === 1) return
      const code = err.code ?? (err.cause as NodeJS.ErrnoException | undefined)?.code ?? ''
      if (UNREACHABLE.has(code)) setUp(r, false, code)
      else result(r, false, code || err.message)
    },
    close() {
      clearInterval(timer)
      stop.abort()
    },
  }
}

/** One address (one URL, a comma-separated list, a list) or a pool made already (shared by several proxies). */
export type UpstreamTarget = string | readonly string[] | UpstreamPool

export const isPool = (t: UpstreamTarget): t is UpstreamPool => typeof t === 'object' && 'pick' in t

/** Pools for each service (those given as pools are kept); `close` stops the checks of the pools made here. */
export function createUpstreamPools<K extends string>(targets: Record<K, UpstreamTarget>, opts: PoolOptions = {}) {
  const made: UpstreamPool[] = []
  const pools = Object.fromEntries(
    Object.entries<UpstreamTarget>(targets).map(([name, t]) => {
      if (isPool(t)) return [name, t]
      const pool = createUpstreamPool(name, t, opts)
      made.push(pool)
      return [name, pool]
    }),
  ) as Record<K, UpstreamPool>
  return { pools, close: () => made.forEach((p) => p.close()) }
}
