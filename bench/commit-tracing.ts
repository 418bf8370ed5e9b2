/**
 * What tracing costs (issue 29): SCORM commits through the gateway's content origin to
 * svc-learning with tracing off, then with the gateway and learning restarted with
 * OTEL_EXPORTER_OTLP_ENDPOINT at an OTLP/HTTP receiver in this process that accepts and drops
 * (spans are still made, batched, serialised and sent), off and on in turn. Goal: tracing on costs
 * <= 5% of throughput.
 */
import { createServer } from 'node:http'
import { hammer, launchCommitCourse } from './scorm-commit.ts'
import { runAloneOnCluster, type LoadFiguresOf, type startBenchCluster } from './support.ts'

export interface CommitTracingResult {
  rows: number
  /** Off and on runs each (alternating). */
  rounds: number
  off: LoadFiguresOf
  on: LoadFiguresOf
  /** Spans the receiver was sent while tracing was on. */
  spansReceived: number
  /** Throughput lost with tracing on, in % of the figure without (negative: none measured). */
  costPercent: number
  goalPercent: number
}

/** Off-then-on rounds measured. */
const ROUNDS = 2

/** The mean of runs' figures (throughput, p99 and failures). */
const meanOf = (runs: LoadFiguresOf[]): LoadFiguresOf => ({
  rps: Math.round(runs.reduce((a, r) => a + r.rps, 0) / runs.length),
  p50: Math.round(runs.reduce((a, r) => a + r.p50, 0) / runs.length),
  p99: Math.round(runs.reduce((a, r) => a + r.p99, 0) / runs.length),
  non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
  errors: runs.reduce((a, r) => a + r.errors, 0),
  total: runs.reduce((a, r) => a + r.total, 0),
})

/** An OTLP/HTTP endpoint that accepts every export and drops it, counting the spans. */
async function startDroppingReceiver() {
  let spans = 0
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d))
    req.on('end', () => {
      spans += (body.match(/"spanId"/g) ?? []).length
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans: () => spans, close: () => new Promise<void>((r) => server.close(() => r())) }
}

/** Measures commits with tracing off, then on (the gateway and learning restarted with the endpoint), on a running bench cluster. */
export async function benchCommitTracing(opts: {
  cluster: Awaited<ReturnType<typeof startBenchCluster>>
  adminToken: string
  learnerTokens: string[]
  duration: number
  connections: number
}): Promise<CommitTracingResult> {
  const { itemId, commitUrls } = await launchCommitCourse({ base: opts.cluster.url, adminToken: opts.adminToken, learnerTokens: opts.learnerTokens })
  const urls = commitUrls.map((u) => `${opts.cluster.contentOrigin}${u}`)
  const seqs = new Map<string, number>()
  const run = async (what: string) => {
    const figures = await hammer(urls, itemId, opts, seqs)
    if (figures.non2xx > 0 || figures.errors > 0) throw new Error(`commit tracing bench (${what}): ${figures.non2xx} non-2xx, ${figures.errors} errors`)
    return figures
  }
  // A short warm-up, so that the first measured run does not pay for cold paths.
  await hammer(urls, itemId, { ...opts, duration: 2 }, seqs)
  const receiver = await startDroppingReceiver()
  const tracing = async (on: boolean) => {
    for (const name of ['svc-learning', 'gateway']) await opts.cluster.restart(name, { OTEL_EXPORTER_OTLP_ENDPOINT: on ? receiver.url : '' })
    await hammer(urls, itemId, { ...opts, duration: 2 }, seqs)
  }
  try {
    // Off and on in turn, ROUNDS times (each after a restart and a warm-up): a machine's drift over
    // the run falls on both sides instead of on the second.
    const offRuns: LoadFiguresOf[] = []
    const onRuns: LoadFiguresOf[] = []
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) await tracing(false)
      offRuns.push(await run('tracing off'))
      await tracing(true)
      onRuns.push(await run('tracing on'))
    }
    // The batch processor exports every 5 s: what the runs made has arrived by then.
    await new Promise((r) => setTimeout(r, 6_000))
    const off = meanOf(offRuns)
    const on = meanOf(onRuns)
    return { rows: urls.length, rounds: ROUNDS, off, on, spansReceived: receiver.spans(), costPercent: Number((((off.rps - on.rps) / off.rps) * 100).toFixed(1)), goalPercent: 5 }
  } finally {
    await tracing(false).catch(() => undefined)
    await receiver.close()
  }
}

/** The summary lines of this benchmark. */
export const formatCommitTracing = (r: CommitTracingResult) =>
  [
    `SCORM commit with tracing (${r.rows} learners' rows, via the gateway's content origin; mean of ${r.rounds} off and ${r.rounds} on runs, alternating)`,
    `  tracing off  ${r.off.rps} commits/s, p99 ${r.off.p99} ms`,
    `  tracing on   ${r.on.rps} commits/s, p99 ${r.on.p99} ms (OTLP/HTTP to a receiver that drops; ${r.spansReceived} spans received)`,
    `  cost         ${r.costPercent}% of throughput (goal <= ${r.goalPercent}%)`,
  ].join('\n')

// `node bench/commit-tracing.ts`: this benchmark alone, on a cluster of its own.
if (import.meta.main) {
  const { registerUsers } = await import('./exams.ts')
  const result = await runAloneOnCluster(registerUsers, (o) =>
    benchCommitTracing({ cluster: o.cluster, adminToken: o.adminToken, learnerTokens: o.learnerTokens, duration: Number(process.env.BENCH_SECONDS ?? 10), connections: 50 }),
  )
  console.log(`\n${formatCommitTracing(result)}\n`)
  process.exit(0)
}
