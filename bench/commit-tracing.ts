/**
 * What tracing costs (issue 29): SCORM commits through the gateway's content origin to
 * svc-learning with tracing off, then with the gateway and learning restarted with
 * OTEL_EXPORTER_OTLP_ENDPOINT at an OTLP/HTTP receiver in this process that accepts and drops
 * (spans are still made, batched, serialised and sent): every trace kept (the default sampler),
 * and one in ten (`parentbased_traceidratio`, 0.1, as a production deployment sets it: README
 * "Traces"). Off, all and sampled in turn, ROUNDS times. Goal: tracing on costs <= 5% of throughput.
 */
import { createServer } from 'node:http'
import { hammer, launchCommitCourse } from './scorm-commit.ts'
import { runAloneOnCluster, type LoadFiguresOf, type startBenchCluster } from './support.ts'

export interface CommitTracingResult {
  rows: number
  /** Runs of each setting (in turn). */
  rounds: number
  off: LoadFiguresOf
  /** Every trace kept (parentbased_always_on, the default). */
  all: LoadFiguresOf
  /** One trace in ten started (parentbased_traceidratio, 0.1). */
  sampled: LoadFiguresOf
  /** Spans the receiver was sent while tracing was on. */
  spansReceived: number
  /** Throughput lost with tracing on, in % of the figure without (negative: none measured). */
  costAllPercent: number
  costSampledPercent: number
  goalPercent: number
  /** Each run's commits/s, in the order run. */
  runs: { setting: string; rps: number }[]
}

/** The sampling of the production setting measured beside every trace. */
const SAMPLED = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }

/** Rounds of off, all, sampled measured. */
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
  const marker = Buffer.from('"spanId"')
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (d: Buffer) => chunks.push(d))
    req.on('end', () => {
      // Counted on the bytes (a native search), not on a decoded string: the receiver shares the
      // bench's cores, and a collector would run elsewhere.
      const body = Buffer.concat(chunks)
      for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, at + marker.length)) spans++
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
  type Setting = 'off' | 'all' | 'sampled'
  const tracing = async (setting: Setting) => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: setting === 'off' ? '' : receiver.url,
      ...(setting === 'sampled' ? SAMPLED : { OTEL_TRACES_SAMPLER: '', OTEL_TRACES_SAMPLER_ARG: '' }),
    }
    for (const name of ['svc-learning', 'gateway']) await opts.cluster.restart(name, env)
    await hammer(urls, itemId, { ...opts, duration: 2 }, seqs)
  }
  try {
    // Each setting in turn, ROUNDS times (each after a restart and a warm-up).
    const runs: Record<Setting, LoadFiguresOf[]> = { off: [], all: [], sampled: [] }
    const order: { setting: string; rps: number }[] = []
    for (let round = 0; round < ROUNDS; round++) {
      // Rounds alternate the order (off, all, sampled, then back): a drift within a round (the
      // commit table's dead rows until autovacuum) falls on each setting alike.
      const settings = ['off', 'all', 'sampled'] as const
      for (const setting of round % 2 === 0 ? settings : [...settings].reverse()) {
        // Every run after a restart, the first too: a process that ran for a while is warmer than one just started.
        await tracing(setting)
        const figures = await run(`tracing ${setting}`)
        runs[setting].push(figures)
        order.push({ setting, rps: figures.rps })
      }
    }
    // The batch processor exports every 5 s: what the runs made has arrived by then.
    await new Promise((r) => setTimeout(r, 6_000))
    const [off, all, sampled] = [meanOf(runs.off), meanOf(runs.all), meanOf(runs.sampled)]
    const cost = (on: LoadFiguresOf) => Number((((off.rps - on.rps) / off.rps) * 100).toFixed(1))
    return {
      rows: urls.length,
      rounds: ROUNDS,
      off,
      all,
      sampled,
      spansReceived: receiver.spans(),
      costAllPercent: cost(all),
      costSampledPercent: cost(sampled),
      goalPercent: 5,
      runs: order,
    }
  } finally {
    await tracing('off').catch(() => undefined)
    await receiver.close()
  }
}

/** The summary lines of this benchmark. */
export const formatCommitTracing = (r: CommitTracingResult) =>
  [
    `SCORM commit with tracing (${r.rows} learners' rows, via the gateway's content origin; mean of ${r.rounds} runs of each setting, in turn)`,
    `  tracing off                  ${r.off.rps} commits/s, p99 ${r.off.p99} ms`,
    `  every trace kept (default)   ${r.all.rps} commits/s, p99 ${r.all.p99} ms: ${r.costAllPercent}% of throughput`,
    `  one trace in ten (0.1)       ${r.sampled.rps} commits/s, p99 ${r.sampled.p99} ms: ${r.costSampledPercent}% of throughput (goal <= ${r.goalPercent}%)${r.costSampledPercent <= r.goalPercent ? '' : ' NOT MET'}`,
    `  (OTLP/HTTP to a receiver that drops; ${r.spansReceived} spans received; runs in order: ${r.runs.map((x) => `${x.setting} ${x.rps}`).join(', ')})`,
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
