/**
 * What tracing costs (issue 29): SCORM commits through the gateway's content origin to
 * svc-learning, on two stacks of the same cluster side by side: stack A (the gateway in front of
 * learning's first replica) never traces; stack B (a second gateway in front of the second
 * replica) is restarted with each setting: tracing off, every trace kept (the default sampler),
 * and one in ten (`parentbased_traceidratio`, 0.1, as a production deployment sets it: README
 * "Traces"), with OTEL_EXPORTER_OTLP_ENDPOINT at an OTLP/HTTP receiver in this process that accepts
 * and drops (spans are still made, batched, serialised and sent).
 *
 * The two stacks are loaded in turn, never at once, in short slices (A then B, then B then A, ...):
 * each slice has the whole machine, as a run alone would. This machine's speed drifts by more
 * than the 5% measured over minutes (the same runs one after the other, minutes apart, differed by
 * 30%), so the cost is taken within each pair of neighbouring slices, and the median of the pairs
 * is the figure; beside it, each stack's CPU time per commit (/proc). The setting with tracing off
 * on both stacks shows what the stacks' own difference and the method's noise come to: on this
 * machine, up to ±7%, more than the goal. So each traced setting is also profiled (B's processes
 * under Node's CPU profiler in a run of their own): the share of their CPU time in tracing code,
 * and what it comes to of the machine's per commit, a figure free of that noise.
 * Goal: tracing on costs <= 5% of throughput.
 *
 * Runs on a cluster of its own (two learning replicas): `node bench/commit-tracing.ts`.
 */
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:http'
import { hammer, launchCommitCourse } from './scorm-commit.ts'
import { BENCH_LEARNING_PORT, runAloneOnCluster, writeBenchRecord, type LoadFiguresOf } from './support.ts'

/** A setting of stack B. */
type Setting = 'off' | 'all' | 'sampled'
const SETTINGS: readonly Setting[] = ['off', 'all', 'sampled']

export interface SettingFigures {
  /** Stack A (no tracing) and stack B (this setting): the mean of their slices. */
  a: LoadFiguresOf
  b: LoadFiguresOf
  /** Throughput B lost against A in each pair of slices, in %; the median is `costPercent`. */
  pairCosts: number[]
  costPercent: number
  /**
   * CPU time per commit over all slices of a stack, in µs: the machine's (every process, the
   * load generator and PostgreSQL too) and the stack's own gateway and learning process.
   */
  cpu: { a: { machine: number; stack: number }; b: { machine: number; stack: number } }
  /** What B's CPU time per commit costs a machine that CPU bounds: 1 - A's over B's, in %. */
  cpuCostPercent: number
  /**
   * With tracing on, from a CPU profile of B's processes in a run of their own: the share of each
   * one's busy time in tracing code (the SDK, the exporter, the portal's hooks, and the Node
   * internals they call), and what that comes to of the machine's CPU time per commit, in %.
   * A floor, free of the noise between slices: the collector's header on each request and the
   * garbage the spans leave are not counted.
   */
  profiled?: { gatewayPercent: number; learningPercent: number; machinePercent: number }
}

export interface CommitTracingResult {
  rows: number
  /** Pairs of slices per setting, and each slice's seconds. */
  pairs: number
  sliceSeconds: number
  /** Both stacks without tracing: their own difference and the method's noise. */
  off: SettingFigures
  /** Every trace kept (parentbased_always_on, the default). */
  all: SettingFigures
  /** One trace in ten started (parentbased_traceidratio, 0.1). */
  sampled: SettingFigures
  /** Spans the receiver was sent while tracing was on. */
  spansReceived: number
  goalPercent: number
}

/** The sampling of the production setting measured beside every trace. */
const SAMPLED = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }

/** Pairs of slices (A and B) per setting. */
const PAIRS = 8

/** Seconds of each of the two warm-up slices of each stack after its restart. */
const WARM_UP_SECONDS = 4

/** Stack B's gateway (its content origin on the next port), in front of learning's second replica (replica n on the port + 10 n). */
const B_GATEWAY_PORT = 18090
const B_LEARNING_PORT = BENCH_LEARNING_PORT + 10

/** The median of `xs`. */
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** The mean of runs' figures (throughput, p50 and p99; failures summed). */
const meanOf = (runs: LoadFiguresOf[]): LoadFiguresOf => ({
  rps: Math.round(runs.reduce((a, r) => a + r.rps, 0) / runs.length),
  p50: Math.round(runs.reduce((a, r) => a + r.p50, 0) / runs.length),
  p99: Math.round(runs.reduce((a, r) => a + r.p99, 0) / runs.length),
  non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
  errors: runs.reduce((a, r) => a + r.errors, 0),
  total: runs.reduce((a, r) => a + r.total, 0),
})

const oneDecimal = (x: number) => Number(x.toFixed(1))

/** Microseconds of a clock tick of /proc (USER_HZ). */
const TICK_US = 10_000

/** The machine's busy CPU time so far, in ticks: every core's user, nice, system, irq and softirq time (/proc/stat; not idle, I/O wait or time the hypervisor took). */
function machineBusyTicks(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number)
  return user! + nice! + system! + irq! + softirq!
}

/** Where a frame's code comes from decides whether it is tracing's: OpenTelemetry's packages and the portal's hooks. */
const TRACING_CODE = /@opentelemetry\/|server-kit\/src\/tracing\.ts$|gateway\/src\/proxy-span\.ts$/

/** A V8 CPU profile (`--cpu-prof`), the fields read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[]
  samples: number[]
  timeDeltas: number[]
}

/**
 * The share of a process's busy time (idle samples left out) spent in tracing code, in %: each
 * sample goes to the first frame up from where it was taken that is the portal's or a library's
 * code (Node's internals and native code are charged to their caller), so a hook that calls on
 * (the request running inside a span) is charged its own work only.
 */
function tracingShareOf(profile: CpuProfile): number {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parentOf = new Map<number, number>()
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id)
  const charged = new Map<number, boolean>()
  const isTracing = (id: number): boolean => {
    let answer = charged.get(id)
    if (answer !== undefined) return answer
    const { url } = byId.get(id)!.callFrame
    const parent = parentOf.get(id)
    answer = url && !url.startsWith('node:') ? TRACING_CODE.test(url) : parent !== undefined && isTracing(parent)
    charged.set(id, answer)
    return answer
  }
  let busy = 0
  let tracing = 0
  profile.samples.forEach((id, i) => {
    if (byId.get(id)!.callFrame.functionName === '(idle)') return
    busy += profile.timeDeltas[i] ?? 0
    if (isTracing(id)) tracing += profile.timeDeltas[i] ?? 0
  })
  return busy ? (tracing / busy) * 100 : 0
}

/** A process's CPU time so far (user and system), in ticks (/proc/<pid>/stat). */
function processTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ', 2)[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12])
}

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

/**
 * Measures what tracing costs SCORM commits on a cluster of its own (two learning replicas, one
 * stack each), `duration` seconds the length of a pair of slices.
 */
export async function benchCommitTracing(opts: { registerUsers: Parameters<typeof runAloneOnCluster>[0]; duration: number; connections: number }): Promise<CommitTracingResult> {
  return runAloneOnCluster(
    opts.registerUsers,
    async ({ cluster, adminToken, learnerTokens }) => {
      const { itemId, commitUrls } = await launchCommitCourse({ base: cluster.url, adminToken, learnerTokens })
      const receiver = await startDroppingReceiver()
      // Stack A: the cluster's gateway, in front of the first replica alone. Stack B: a copy of it
      // in front of the second.
      await cluster.restart('gateway', { LEARNING_URL: `http://127.0.0.1:${BENCH_LEARNING_PORT}` })
      await cluster.startCopy('gateway', 'gateway-b', {
        PORT: String(B_GATEWAY_PORT),
        CONTENT_PORT: String(B_GATEWAY_PORT + 1),
        CONTENT_ORIGIN: `http://127.0.0.1:${B_GATEWAY_PORT + 1}`,
        LEARNING_URL: `http://127.0.0.1:${B_LEARNING_PORT}`,
      })
      const stacks = {
        a: commitUrls.map((u) => `${cluster.contentOrigin}${u}`),
        b: commitUrls.map((u) => `http://127.0.0.1:${B_GATEWAY_PORT + 1}${u}`),
      }
      // Each row's commits go up by one whichever stack takes them (both stacks' replicas share the table).
      const seqs = new Map<string, number>()
      const sliceSeconds = Math.max(2, Math.round(opts.duration / 3))
      const processes = { a: ['gateway', 'svc-learning'], b: ['gateway-b', 'svc-learning-2'] }
      /** B's processes as they are restarted: its learning replica first, then the gateway in front of it. */
      const restartOrderB = [...processes.b].reverse()
      /** Each stack's commits and CPU ticks (the machine's, its processes') over the measured slices of a setting. */
      const noCpu = () => ({ commits: 0, machine: 0, gateway: 0, learning: 0 })
      let cpu = { a: noCpu(), b: noCpu() }
      const slice = async (stack: 'a' | 'b', what: string, seconds = sliceSeconds, counted = false) => {
        const [gateway, learning] = processes[stack].map((name) => cluster.pids()[name]!)
        const before = { machine: machineBusyTicks(), gateway: processTicks(gateway!), learning: processTicks(learning!) }
        const figures = await hammer(stacks[stack], itemId, { duration: seconds, connections: opts.connections }, seqs)
        if (figures.non2xx > 0 || figures.errors > 0) throw new Error(`commit tracing bench (${what}, stack ${stack}): ${figures.non2xx} non-2xx, ${figures.errors} errors`)
        if (counted) {
          cpu[stack].commits += figures.total
          cpu[stack].machine += machineBusyTicks() - before.machine
          cpu[stack].gateway += processTicks(gateway!) - before.gateway
          cpu[stack].learning += processTicks(learning!) - before.learning
        }
        return figures
      }
      /**
       * B's processes restarted with `env` and Node's CPU profiler, a warm-up and a slice of
       * commits, then restarted without it (a profile is written at exit): each one's tracing share.
       */
      const profileStackB = async (env: Record<string, string>) => {
        const dir = await mkdtemp(join(tmpdir(), 'commit-tracing-profiles-'))
        try {
          for (const name of restartOrderB) await cluster.restart(name, { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` })
          const [gateway, learning] = processes.b.map((name) => cluster.pids()[name]!)
          await slice('b', 'profiled warm-up', WARM_UP_SECONDS)
          await slice('b', 'profiled', sliceSeconds * 2)
          for (const name of restartOrderB) await cluster.restart(name, { ...env, NODE_OPTIONS: '' })
          const files = await readdir(dir)
          const shareOf = async (pid: number) => {
            const file = files.find((f) => f.includes(`.${pid}.`))
            if (!file) throw new Error(`commit tracing bench: no CPU profile of process ${pid}`)
            return tracingShareOf(JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile)
          }
          return { gateway: await shareOf(gateway!), learning: await shareOf(learning!) }
        } finally {
          await rm(dir, { recursive: true, force: true })
        }
      }
      const measure = async (setting: Setting): Promise<SettingFigures> => {
        const env = {
          OTEL_EXPORTER_OTLP_ENDPOINT: setting === 'off' ? '' : receiver.url,
          ...(setting === 'sampled' ? SAMPLED : { OTEL_TRACES_SAMPLER: '', OTEL_TRACES_SAMPLER_ARG: '' }),
        }
        // Both stacks restarted, A without tracing and B with the setting: a process just started
        // serves these commits some 10% slower than one that ran for minutes (measured: B without
        // tracing, restarted beside an A that kept running, lost 12%), so both are equally new.
        await cluster.restart('svc-learning', {})
        await cluster.restart('gateway', {})
        for (const name of restartOrderB) await cluster.restart(name, env)
        // Warm-ups in turn, not counted: a Node process serves these commits at its pace only after
        // some seconds of them (compiled code, a grown heap).
        for (const stack of ['a', 'b', 'b', 'a'] as const) await slice(stack, `${setting} warm-up`, WARM_UP_SECONDS)
        const a: LoadFiguresOf[] = []
        const b: LoadFiguresOf[] = []
        cpu = { a: noCpu(), b: noCpu() }
        for (let pair = 0; pair < PAIRS; pair++) {
          // A first, then B first: a drift within a pair falls on each stack alike.
          if (pair % 2 === 0) {
            a.push(await slice('a', setting, sliceSeconds, true))
            b.push(await slice('b', setting, sliceSeconds, true))
          } else {
            b.push(await slice('b', setting, sliceSeconds, true))
            a.push(await slice('a', setting, sliceSeconds, true))
          }
        }
        const pairCosts = a.map((x, i) => oneDecimal(((x.rps - b[i]!.rps) / x.rps) * 100))
        const usPerCommit = (ticks: number, c: typeof cpu.a) => (ticks * TICK_US) / c.commits
        const perCommit = (c: typeof cpu.a) => ({ machine: Math.round(usPerCommit(c.machine, c)), stack: Math.round(usPerCommit(c.gateway + c.learning, c)) })
        const cpuPerCommit = { a: perCommit(cpu.a), b: perCommit(cpu.b) }
        let profiled: SettingFigures['profiled']
        if (setting !== 'off') {
          const share = await profileStackB(env)
          const machinePercent = (share.gateway * usPerCommit(cpu.b.gateway, cpu.b) + share.learning * usPerCommit(cpu.b.learning, cpu.b)) / usPerCommit(cpu.b.machine, cpu.b)
          profiled = { gatewayPercent: oneDecimal(share.gateway), learningPercent: oneDecimal(share.learning), machinePercent: oneDecimal(machinePercent) }
        }
        return {
          profiled,
          a: meanOf(a),
          b: meanOf(b),
          pairCosts,
          costPercent: oneDecimal(median(pairCosts)),
          cpu: cpuPerCommit,
          cpuCostPercent: oneDecimal((1 - cpuPerCommit.a.machine / cpuPerCommit.b.machine) * 100),
        }
      }
      try {
        const figures = {} as Record<Setting, SettingFigures>
        for (const setting of SETTINGS) figures[setting] = await measure(setting)
        // The batch processor exports every 5 s: what the runs made has arrived by then.
        await new Promise((r) => setTimeout(r, 6_000))
        return { rows: commitUrls.length, pairs: PAIRS, sliceSeconds, ...figures, spansReceived: receiver.spans(), goalPercent: 5 }
      } finally {
        await receiver.close()
      }
    },
    { learning: 2 },
  )
}

/** The summary lines of this benchmark. */
export const formatCommitTracing = (r: CommitTracingResult) => {
  const line = (label: string, f: SettingFigures, goal = false) =>
    `  ${label.padEnd(30)} A ${f.a.rps}/s, B ${f.b.rps}/s (p99 ${f.a.p99} / ${f.b.p99} ms): ${f.costPercent}% of throughput` +
    (goal ? ` (goal <= ${r.goalPercent}%)${f.costPercent <= r.goalPercent ? '' : ' NOT MET'}` : '') +
    `\n    CPU per commit: machine A ${f.cpu.a.machine} µs, B ${f.cpu.b.machine} µs: ${f.cpuCostPercent}% of a CPU-bound machine's throughput` +
    (goal ? ` (goal <= ${r.goalPercent}%)${f.cpuCostPercent <= r.goalPercent ? '' : ' NOT MET'}` : '') +
    `; the stack's gateway and learning A ${f.cpu.a.stack} µs, B ${f.cpu.b.stack} µs` +
    (f.profiled
      ? `\n    profiled: tracing code takes ${f.profiled.gatewayPercent}% of B's gateway's CPU time and ${f.profiled.learningPercent}% of its learning's: ${f.profiled.machinePercent}% of the machine's per commit` +
        (goal ? ` (goal <= ${r.goalPercent}%)${f.profiled.machinePercent <= r.goalPercent ? '' : ' NOT MET'}` : '')
      : '') +
    `\n    each pair: ${f.pairCosts.map((c) => `${c}%`).join(', ')}`
  return [
    `SCORM commit with tracing (${r.rows} learners' rows; stack A never traces, stack B in each setting; ${r.pairs} pairs of ${r.sliceSeconds} s slices, one stack at a time; cost: the median of the pairs)`,
    line('B off too (the noise)', r.off),
    line('B every trace kept (default)', r.all),
    line('B one trace in ten (0.1)', r.sampled, true),
    `  (OTLP/HTTP to a receiver that drops; ${r.spansReceived} spans received)`,
  ].join('\n')
}

// `node bench/commit-tracing.ts`: this benchmark alone, on a cluster of its own.
if (import.meta.main) {
  const { registerUsers } = await import('./exams.ts')
  const result = await benchCommitTracing({ registerUsers, duration: Number(process.env.BENCH_SECONDS ?? 10), connections: 50 })
  console.log(`\n${formatCommitTracing(result)}\nwritten to ${await writeBenchRecord('commit-tracing', result)}\n`)
  process.exit(0)
}
