/**
 * SCORM commit benchmark: full ~8 KB cmi commits through the gateway to
 * `/api/scorm/commit/{launchToken}` (no bearer: the launch token authenticates), spread over many
 * learners' rows with an increasing seq per row, beside a bare Hono + pg upsert of the same JSON
 * (same key spread, same "newer wins" condition) measured in the same run.
 * Goal: >= 2,000 commits/s at p99 <= 50 ms, and >= 60% of the ceiling.
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { startChild, stopChild } from './http-load.ts'
import { commitBody } from './commit-body.ts'
import { BENCH_LEARNING_PORT, loadFigures, runAloneOnCluster, type CeilingBenchOptions, type LoadFiguresOf, waitModuleReady } from './support.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const FIXTURE = `${root}../shared/fixtures/scorm/golf-scorm12-RuntimeBasicCalls.zip`

export type CommitFigures = LoadFiguresOf
export interface CommitBenchResult {
  bodyBytes: number
  rows: number
  ceiling: CommitFigures
  ours: CommitFigures
  /** The same commits sent straight to svc-learning (no gateway hop), when its address was given. */
  direct: CommitFigures | null
  ratio: number
  goals: { rps: number; p99Ms: number; ratio: number }
}

/**
 * Autocannon over `urls` in turn, each with its own increasing seq (a fresh body per request);
 * `seqs` carries them from one run to the next on the same launches.
 */
export function hammer(urls: string[], itemId: string, opts: { duration: number; connections: number }, seqs = new Map<string, number>()): Promise<CommitFigures> {
  let next = 0
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: urls[0]!,
        duration: opts.duration,
        connections: opts.connections,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const url = new URL(urls[next++ % urls.length]!)
              const seq = (seqs.get(url.pathname) ?? 0) + 1
              seqs.set(url.pathname, seq)
              return {
                ...req,
                path: url.pathname,
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(commitBody(itemId, seq)),
              }
            },
          },
        ],
      },
      (err, r) => (err ? reject(err) : resolve(loadFigures(r))),
    ),
  )
}

/**
 * The commit benchmarks' course: one real SCORM 1.2 package, assigned to everyone, uploaded through
 * the gateway at `base`; each learner launches it once (one stored row per learner). Resolves with
 * the module, its start item and each learner's commit path (to be posted on the content origin).
 */
export async function launchCommitCourse(opts: { base: string; adminToken: string; learnerTokens: string[] }) {
  // The course: one real SCORM 1.2 package, assigned to everyone, uploaded through the gateway.
  const form = new FormData()
  form.append('title', `Commit bench ${Date.now()}`)
  form.append('is_assigned_to_all', 'true')
  form.append('moduleData', JSON.stringify([{ title: 'Golf', order: 1 }]))
  form.append('moduleFiles', new File([await readFile(FIXTURE)], 'golf.zip', { type: 'application/zip' }))
  const created = await fetch(`${opts.base}/api/courses`, { method: 'POST', headers: { authorization: `Bearer ${opts.adminToken}` }, body: form })
  if (created.status !== 201) throw new Error(`course upload failed: ${created.status} ${await created.text()}`)
  const course = (await created.json()) as { id: number }
  const moduleId = await waitModuleReady(opts.base, opts.adminToken, course.id)

  const launches = await Promise.all(
    opts.learnerTokens.map(async (token) => {
      const res = await fetch(`${opts.base}/api/scorm/${moduleId}/launch`, { headers: { authorization: `Bearer ${token}` } })
      if (!res.ok) throw new Error(`launch failed: ${res.status} ${await res.text()}`)
      return (await res.json()) as { commitUrl: string; startItem: string }
    }),
  )
  return { moduleId, itemId: launches[0]!.startItem, commitUrls: launches.map((l) => l.commitUrl) }
}

/**
 * Runs both measurements. `base` is the gateway; `learnerTokens` are bearer tokens of learners
 * (each launches the module once: one stored row per learner). Commits go to `contentOrigin`, the
 * gateway's content origin: the player commits from there, and the portal's origin refuses them
 * (`route_not_found`, issue 28 item 8).
 */
export async function benchScormCommit(opts: CeilingBenchOptions & { contentOrigin: string }): Promise<CommitBenchResult> {
  const { moduleId, itemId, commitUrls } = await launchCommitCourse(opts)
  const ourUrls = commitUrls.map((u) => `${opts.contentOrigin}${u}`)

  const { proc, port } = await startChild('bench/commit-ceiling-server.ts', { DATABASE_URL: opts.ceilingDatabaseUrl })
  let ceiling: CommitFigures
  try {
    const ceilingUrls = opts.learnerTokens.map((_, i) => `http://127.0.0.1:${port}/commit/learner-${i}/${moduleId}`)
    ceiling = await hammer(ceilingUrls, itemId, opts)
  } finally {
    await stopChild(proc)
  }
  const ours = await hammer(ourUrls, itemId, opts)
  // A figure of refused commits measures nothing: say so instead of printing a ratio.
  if (ours.non2xx > 0 || ours.errors > 0) throw new Error(`SCORM commit bench: ${ours.non2xx} commits answered non-2xx and ${ours.errors} failed at ${ourUrls[0]}`)
  // Straight to the service: new launches (fresh seq counters), the gateway's /api prefix dropped.
  let direct: CommitFigures | null = null
  if (opts.learningUrl) {
    const again = await Promise.all(
      opts.learnerTokens.map(async (token) => {
        const res = await fetch(`${opts.base}/api/scorm/${moduleId}/launch`, { headers: { authorization: `Bearer ${token}` } })
        return ((await res.json()) as { commitUrl: string }).commitUrl
      }),
    )
    direct = await hammer(
      again.map((u) => `${opts.learningUrl}${u.replace(/^\/api/, '')}`),
      itemId,
      opts,
    )
  }
  return {
    bodyBytes: JSON.stringify(commitBody(itemId, 1)).length,
    rows: ourUrls.length,
    ceiling,
    ours,
    direct,
    ratio: Number((ours.rps / ceiling.rps).toFixed(3)),
    goals: { rps: 2_000, p99Ms: 50, ratio: 0.6 },
  }
}

/** The summary lines of this benchmark. */
export const formatCommit = (r: CommitBenchResult) =>
  [
    `SCORM commit (${(r.bodyBytes / 1024).toFixed(1)} KB cmi JSON, ${r.rows} learners' rows, launch-token auth, via gateway)`,
    `  ceiling (bare Hono + pg upsert) ${r.ceiling.rps} commits/s, p99 ${r.ceiling.p99} ms`,
    `  ours                            ${r.ours.rps} commits/s, p99 ${r.ours.p99} ms, non-2xx ${r.ours.non2xx}, errors ${r.ours.errors}`,
    `  ratio                           ${(r.ratio * 100).toFixed(1)}% (goal >= 60%; >= 2,000/s at p99 <= 50 ms)`,
    ...(r.direct ? [`  same commits straight to learning ${r.direct.rps} commits/s, p99 ${r.direct.p99} ms (no gateway hop)`] : []),
  ].join('\n')

// `node bench/scorm-commit.ts`: this benchmark alone, on a cluster of its own.
if (import.meta.main) {
  const { registerUsers } = await import('./exams.ts')
  const result = await runAloneOnCluster(registerUsers, (o) =>
    benchScormCommit({
      base: o.cluster.url,
      contentOrigin: o.cluster.contentOrigin,
      adminToken: o.adminToken,
      learnerTokens: o.learnerTokens,
      ceilingDatabaseUrl: o.ceilingDatabaseUrl,
      learningUrl: `http://127.0.0.1:${BENCH_LEARNING_PORT}`,
      duration: Number(process.env.BENCH_SECONDS ?? 10),
      connections: 50,
    }),
  )
  console.log(`\n${formatCommit(result)}\n`)
  process.exit(0)
}
