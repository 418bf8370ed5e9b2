/**
 * SCORM commits through the gateway with one learning replica, then with two (issue 29): the same
 * ~8 KB cmi commits as bench/scorm-commit.ts (its course, launches and autocannon run), each on a
 * cluster of its own started one after the other, printing commits/s, p99 and the ratio of the
 * two, and how the gateway spread the commits over the replicas (each replica's
 * `scorm_commit_duration_seconds_count{result="ok"}` before and after).
 * On a machine whose cores the replicas share (2 here), the ratio shows that the balancing works and
 * what it costs, not added capacity: both processes compete for the same CPU as PostgreSQL, the
 * gateway and the load generator.
 * Runs alone with `node bench/commit-replicas.ts` (BENCH_SECONDS, BENCH_LEARNERS), writing
 * bench/results/commit-replicas-<time>.json.
 */
import { loadavg } from 'node:os'
import { BENCH_LEARNING_PORT, runAloneOnCluster, writeBenchRecord, type BenchReplicas } from './support.ts'
import { hammer, launchCommitCourse, type CommitFigures } from './scorm-commit.ts'

/** Replica n of a service listens on its port + 10 n (launcher/src/cluster.ts). */
const REPLICA_PORT_STEP = 10

export interface ReplicaRun {
  replicas: number
  ours: CommitFigures
  /** Commits each replica stored during the measured run, in replica order. */
  perReplica: number[]
  /** The machine's 1-minute load average before and after the run. */
  loadAverage: [number, number]
}
export interface CommitReplicasResult {
  learners: number
  connections: number
  durationSeconds: number
  one: ReplicaRun
  two: ReplicaRun
  /** Two replicas' commits/s over one's. */
  ratio: number
}

/** Commits stored so far by the learning process on `port` (its Prometheus counter). */
async function okCommits(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
  let sum = 0
  for (const line of text.split('\n')) if (line.startsWith('scorm_commit_duration_seconds_count{') && line.includes('result="ok"')) sum += Number(line.split(' ').pop())
  return sum
}

const load1 = () => Number(loadavg()[0]!.toFixed(2))

/**
 * One cluster with `replicas` learning processes: the commit course launched by every learner, a
 * warm-up run, fresh launches (new seq counters), then the measured run.
 */
async function commitRun(
  registerUsers: Parameters<typeof runAloneOnCluster>[0],
  replicas: number,
  opts: { duration: number; connections: number; warmupSeconds: number },
): Promise<ReplicaRun & { learners: number }> {
  const clusterReplicas: BenchReplicas = { learning: replicas }
  return runAloneOnCluster(
    registerUsers,
    async (o) => {
      const base = o.cluster.url
      const ports = Array.from({ length: replicas }, (_, n) => BENCH_LEARNING_PORT + REPLICA_PORT_STEP * n)
      const course = await launchCommitCourse({ base, adminToken: o.adminToken, learnerTokens: o.learnerTokens })
      await hammer(
        course.commitUrls.map((u) => `${o.cluster.contentOrigin}${u}`),
        course.itemId,
        { duration: opts.warmupSeconds, connections: opts.connections },
      )
      // New launches of the same module: new seq counters (the warm-up's commits are stored with higher ones).
      const again = await Promise.all(
        o.learnerTokens.map(async (token) => {
          const res = await fetch(`${base}/api/scorm/${course.moduleId}/launch`, { headers: { authorization: `Bearer ${token}` } })
          if (!res.ok) throw new Error(`launch failed: ${res.status} ${await res.text()}`)
          return ((await res.json()) as { commitUrl: string }).commitUrl
        }),
      )
      const before = await Promise.all(ports.map(okCommits))
      const loadBefore = load1()
      const ours = await hammer(
        again.map((u) => `${o.cluster.contentOrigin}${u}`),
        course.itemId,
        opts,
      )
      const loadAfter = load1()
      const after = await Promise.all(ports.map(okCommits))
      if (ours.non2xx > 0 || ours.errors > 0) throw new Error(`commit replicas bench (${replicas}): ${ours.non2xx} commits answered non-2xx and ${ours.errors} failed`)
      return { replicas, learners: o.learnerTokens.length, ours, perReplica: after.map((a, i) => a - before[i]!), loadAverage: [loadBefore, loadAfter] }
    },
    clusterReplicas,
  )
}

/** Both runs, one learning replica first; each cluster is closed before the next starts (they share ports and databases). */
export async function benchCommitReplicas(opts: {
  registerUsers: Parameters<typeof runAloneOnCluster>[0]
  duration: number
  connections: number
  warmupSeconds?: number
}): Promise<CommitReplicasResult> {
  const run = { duration: opts.duration, connections: opts.connections, warmupSeconds: opts.warmupSeconds ?? 3 }
  const { learners, ...one } = await commitRun(opts.registerUsers, 1, run)
  const { learners: _, ...two } = await commitRun(opts.registerUsers, 2, run)
  return {
    learners,
    connections: opts.connections,
    durationSeconds: opts.duration,
    one,
    two,
    ratio: Number((two.ours.rps / one.ours.rps).toFixed(3)),
  }
}

const line = (r: ReplicaRun) =>
  `${r.ours.rps} commits/s, p50 ${r.ours.p50} ms, p99 ${r.ours.p99} ms; per replica ${r.perReplica.join(' / ')}; load average ${r.loadAverage.join(' → ')}`

/** The summary lines of this benchmark. */
export const formatCommitReplicas = (r: CommitReplicasResult) =>
  [
    `SCORM commit with learning replicas (via gateway, ${r.learners} learners' rows, ${r.connections} connections, ${r.durationSeconds} s each)`,
    `  1 replica    ${line(r.one)}`,
    `  2 replicas   ${line(r.two)}`,
    `  2 / 1        ${(r.ratio * 100).toFixed(1)}% (replicas on the same cores: the balancing and its cost, not added capacity)`,
  ].join('\n')

// `node bench/commit-replicas.ts`: this benchmark alone, on clusters of its own.
if (import.meta.main) {
  const { registerUsers } = await import('./exams.ts')
  const result = await benchCommitReplicas({ registerUsers, duration: Number(process.env.BENCH_SECONDS ?? 10), connections: 50 })
  const file = await writeBenchRecord('commit-replicas', result)
  console.log(`\n${formatCommitReplicas(result)}\nwritten to ${file}\n`)
  process.exit(0)
}
