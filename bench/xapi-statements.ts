/**
 * xAPI statements benchmark (issue 26): cmi5 AU statements POSTed through the gateway's content
 * origin to the learning record store (`/api/lrs/statements`, `Authorization: Basic <auth-token>`
 * of a launched session, the version header), spread over many learners' sessions, beside a bare
 * Hono + pg insert of the same statement JSON measured in the same run.
 * Goal: >= 1,000 statements/s at p99 <= 50 ms, and >= 50% of the ceiling.
 */
import autocannon from 'autocannon'
import { startChild, stopChild } from './http-load.ts'
import { zipOf } from '../e2e/courses-support.ts'
import { BENCH_LEARNING_PORT, loadFigures, runAloneOnCluster, type CeilingBenchOptions, type LoadFiguresOf, waitModuleReady } from './support.ts'

const AU_ID = 'https://bench.portal.example/cmi5/statements/au'
const CMI5_XML = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://bench.portal.example/cmi5/statements"><title><langstring lang="en">Statements bench</langstring></title><description><langstring lang="en">One AU.</langstring></description></course>
  <au id="${AU_ID}" moveOn="Completed"><title><langstring lang="en">Unit</langstring></title><description><langstring lang="en">Unit.</langstring></description><url>unit.html</url></au>
</courseStructure>`
const VERSION = { 'x-experience-api-version': '1.0.3' }
const EXPERIENCED = { id: 'http://adlnet.gov/expapi/verbs/experienced', display: { en: 'experienced' } }

export type StatementFigures = LoadFiguresOf
export interface StatementsBenchResult {
  bodyBytes: number
  sessions: number
  ceiling: StatementFigures
  ours: StatementFigures
  /** The same statements sent straight to svc-learning (no gateway hop), when its address was given. */
  direct: StatementFigures | null
  ratio: number
  goals: { rps: number; p99Ms: number; ratio: number }
}

/** A session of one learner, as an AU holds it after its fetch URL. */
interface AuSession {
  /** The LRS endpoint of the launch (on the content origin). */
  endpoint: string
  authToken: string
  actor: unknown
  registration: string
  activityId: string
  contextTemplate: Record<string, unknown>
}

/** A statement an AU sends while it runs (not one that changes the session: Initialized was sent). */
const statementOf = (s: AuSession, n: number) => ({
  actor: s.actor,
  verb: EXPERIENCED,
  object: { objectType: 'Activity', id: `${s.activityId}/pages/${n % 20}` },
  timestamp: new Date().toISOString(),
  context: { ...s.contextTemplate, registration: s.registration },
  result: { duration: 'PT5S' },
})

/** Autocannon over the sessions in turn, each request a fresh statement with that session's credential. */
function hammer(url: string, sessions: AuSession[], credential: boolean, opts: { duration: number; connections: number }): Promise<StatementFigures> {
  let next = 0
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url,
        duration: opts.duration,
        connections: opts.connections,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const n = next++
              const s = sessions[n % sessions.length]!
              return {
                ...req,
                headers: { 'content-type': 'application/json', ...VERSION, ...(credential ? { authorization: `Basic ${s.authToken}` } : {}) },
                body: JSON.stringify(statementOf(s, n)),
              }
            },
          },
        ],
      },
      (err, r) => (err ? reject(err) : resolve(loadFigures(r))),
    ),
  )
}

/** Launches the AU for a learner and does what the AU does first: fetch, LaunchData, Initialized. */
async function openSession(base: string, token: string, moduleId: number): Promise<AuSession> {
  const res = await fetch(`${base}/api/cmi5/${moduleId}/launch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ au_id: AU_ID }),
  })
  if (!res.ok) throw new Error(`cmi5 launch failed: ${res.status} ${await res.text()}`)
  const launch = new URL(((await res.json()) as { url: string }).url)
  const q = launch.searchParams
  const fetched = await fetch(q.get('fetch')!, { method: 'POST' })
  const { 'auth-token': authToken } = (await fetched.json()) as { 'auth-token': string }
  const endpoint = q.get('endpoint')!
  const headers = { ...VERSION, authorization: `Basic ${authToken}` }
  const state = new URL('activities/state', endpoint)
  state.search = new URLSearchParams({ stateId: 'LMS.LaunchData', activityId: q.get('activityId')!, agent: q.get('actor')!, registration: q.get('registration')! }).toString()
  const launchData = (await (await fetch(state, { headers })).json()) as { contextTemplate: Record<string, unknown> }
  const session: AuSession = {
    endpoint,
    authToken,
    actor: JSON.parse(q.get('actor')!),
    registration: q.get('registration')!,
    activityId: q.get('activityId')!,
    contextTemplate: launchData.contextTemplate,
  }
  const category = [{ objectType: 'Activity', id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }]
  const ctx = session.contextTemplate as { contextActivities?: Record<string, unknown> }
  const initialized = {
    actor: session.actor,
    verb: { id: 'http://adlnet.gov/expapi/verbs/initialized', display: { en: 'initialized' } },
    object: { objectType: 'Activity', id: session.activityId },
    timestamp: new Date().toISOString(),
    context: { ...ctx, registration: session.registration, contextActivities: { ...(ctx.contextActivities ?? {}), category } },
  }
  const sent = await fetch(new URL('statements', endpoint), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(initialized) })
  if (!sent.ok) throw new Error(`Initialized refused: ${sent.status} ${await sent.text()}`)
  return session
}

/**
 * Runs both measurements. `base` is the gateway; `learnerTokens` are bearer tokens of learners
 * (each launches the AU once: one session per learner). Statements go to the gateway's content
 * origin, where AUs send them.
 */
export async function benchStatements(opts: CeilingBenchOptions): Promise<StatementsBenchResult> {
  const form = new FormData()
  form.append('title', `Statements bench ${Date.now()}`)
  form.append('is_assigned_to_all', 'true')
  form.append('moduleData', JSON.stringify([{ title: 'Unit', order: 1 }]))
  const zip = await zipOf({ 'cmi5.xml': CMI5_XML, 'unit.html': '<!doctype html><title>Unit</title><p>Unit</p>' })
  form.append('moduleFiles', new File([new Uint8Array(zip)], 'statements.zip', { type: 'application/zip' }))
  const created = await fetch(`${opts.base}/api/courses`, { method: 'POST', headers: { authorization: `Bearer ${opts.adminToken}` }, body: form })
  if (created.status !== 201) throw new Error(`course upload failed: ${created.status} ${await created.text()}`)
  const moduleId = await waitModuleReady(opts.base, opts.adminToken, ((await created.json()) as { id: number }).id, 'bench cmi5 package')
  const sessions = await Promise.all(opts.learnerTokens.map((t) => openSession(opts.base, t, moduleId)))

  const { proc, port } = await startChild('bench/statements-ceiling-server.ts', { DATABASE_URL: opts.ceilingDatabaseUrl })
  let ceiling: StatementFigures
  try {
    ceiling = await hammer(`http://127.0.0.1:${port}/statements`, sessions, false, opts)
  } finally {
    await stopChild(proc)
  }
  const ours = await hammer(new URL('statements', sessions[0]!.endpoint).toString(), sessions, true, opts)
  // A figure of refused statements measures nothing: say so instead of printing a ratio.
  if (ours.non2xx > 0 || ours.errors > 0) throw new Error(`statements bench: ${ours.non2xx} statements answered non-2xx and ${ours.errors} failed`)
  const direct = opts.learningUrl ? await hammer(`${opts.learningUrl}/lrs/statements`, sessions, true, opts) : null
  return {
    bodyBytes: JSON.stringify(statementOf(sessions[0]!, 1)).length,
    sessions: sessions.length,
    ceiling,
    ours,
    direct,
    ratio: Number((ours.rps / ceiling.rps).toFixed(3)),
    goals: { rps: 1_000, p99Ms: 50, ratio: 0.5 },
  }
}

/** Whether the figures meet the goals. */
export const statementsMet = (r: StatementsBenchResult) => r.ours.rps >= r.goals.rps && r.ours.p99 <= r.goals.p99Ms && r.ratio >= r.goals.ratio

/** The summary lines of this benchmark. */
export const formatStatements = (r: StatementsBenchResult) =>
  [
    `xAPI statements (${(r.bodyBytes / 1024).toFixed(1)} KB cmi5 AU statements, ${r.sessions} sessions, auth-token credential, via the gateway's content origin)`,
    `  ceiling (bare Hono + pg insert) ${r.ceiling.rps} statements/s, p99 ${r.ceiling.p99} ms`,
    `  ours                            ${r.ours.rps} statements/s, p99 ${r.ours.p99} ms, non-2xx ${r.ours.non2xx}, errors ${r.ours.errors}`,
    `  ratio                           ${(r.ratio * 100).toFixed(1)}% (goal >= 50%; >= 1,000/s at p99 <= 50 ms)${statementsMet(r) ? '' : ' NOT MET'}`,
    ...(r.direct ? [`  same statements straight to learning ${r.direct.rps} statements/s, p99 ${r.direct.p99} ms (no gateway hop)`] : []),
  ].join('\n')

// `node bench/xapi-statements.ts`: this benchmark alone, on a cluster of its own.
if (import.meta.main) {
  const { registerUsers } = await import('./exams.ts')
  const result = await runAloneOnCluster(registerUsers, (o) =>
    benchStatements({
      base: o.cluster.url,
      adminToken: o.adminToken,
      learnerTokens: o.learnerTokens,
      ceilingDatabaseUrl: o.ceilingDatabaseUrl,
      learningUrl: `http://127.0.0.1:${BENCH_LEARNING_PORT}`,
      duration: Number(process.env.BENCH_SECONDS ?? 10),
      connections: 50,
    }),
  )
  console.log(`\n${formatStatements(result)}\n`)
  process.exit(statementsMet(result) ? 0 : 1)
}
