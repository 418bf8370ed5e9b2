/**
 * What the HTTP latency benchmarks share (team, learner dashboard): a server child that prints
 * `READY <port>`, its stop, and closed-loop load with its latency percentiles.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export interface LatencyFigures {
  rps: number
  p50: number
  p95: number
  p99: number
  requests: number
  failures: number
}

/** Starts a bench child (from the repository root, with its own Node flags) that prints `READY <port>`. */
export async function startChild(script: string, env: Record<string, string>, flags: readonly string[] = []): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(process.execPath, [...flags, script], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /READY (\d+)/.exec(String(d))
      if (m) resolve(Number(m[1]))
    })
    proc.on('exit', (code) => reject(new Error(`${script} exited ${code}`)))
  })
  return { proc, port }
}

/** Stops a bench child: SIGTERM, then SIGKILL when it still waits on open connections after 3 s. */
export const stopChild = (proc: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
    const force = setTimeout(() => proc.kill('SIGKILL'), 3000)
    proc.once('exit', () => (clearTimeout(force), resolve()))
    proc.kill()
  })

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
const round1 = (n: number) => Math.round(n * 10) / 10

/**
 * `connections` loops each sending the next request when the last answered, for `seconds`;
 * latencies of every request (one decimal: some surfaces answer only a few a second). A request
 * that throws counts as a failure and goes to `onError` when given.
 */
export async function measureLatency(url: string, headers: Record<string, string>, seconds: number, connections: number, onError?: (err: Error) => void): Promise<LatencyFigures> {
  const latencies: number[] = []
  let failures = 0
  const until = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now()
        try {
          const res = await fetch(url, { headers })
          await res.arrayBuffer()
          if (!res.ok) failures++
        } catch (err) {
          failures++
          onError?.(err as Error)
        }
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    rps: round1(latencies.length / elapsed),
    p50: round1(percentile(latencies, 50)),
    p95: round1(percentile(latencies, 95)),
    p99: round1(percentile(latencies, 99)),
    requests: latencies.length,
    failures,
  }
}
