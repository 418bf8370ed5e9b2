import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { conflict, forbidden } from '@portal/server-kit'
import { preparedStatement, sqlWithParams } from '../sql.ts'
import { agentKey, lmsAuthority } from './agents.ts'
import type { XapiActor, XapiAgent, XapiStatement } from './types.ts'

export const VOIDED_VERB = 'http://adlnet.gov/expapi/verbs/voided'

export interface InsertMeta {
  /** The registration of statements whose context names none (e.g. the LMS's own). */
  registration: string | null
  /** The cmi5 session they belong to, if any. */
  sessionId: string | null
  /** `stored` of the statements (default now). */
  now?: Date
  /** Their authority (default the portal's LMS, under the actor's account home page). */
  authority?: XapiAgent
}

/** The home page of a statement's actor account, for the LMS authority beside it. */
const homePageOf = (actor: XapiActor) => actor.account?.homePage ?? process.env.XAPI_ACCOUNT_HOMEPAGE?.trim() ?? 'http://localhost:8081'

/** The row of one statement: the columns the filters read, and the statement as the LRS answers it. */
function rowOf(s: XapiStatement, meta: InsertMeta, stored: string, ord: number) {
  const statement: XapiStatement = { ...s, stored, authority: s.authority ?? meta.authority ?? lmsAuthority(homePageOf(s.actor)), version: s.version ?? '1.0.0' }
  const object = s.object as { objectType?: string; id?: string }
  const objectType = object.objectType ?? 'Activity'
  return {
    ord,
    id: s.id,
    registration: s.context?.registration ?? meta.registration,
    session_id: meta.sessionId,
    verb_id: s.verb.id,
    activity_id: objectType === 'Activity' ? (object.id ?? null) : null,
    agent_key: agentKey(s.actor),
    object_agent_key: objectType === 'Agent' || objectType === 'Group' ? agentKey(s.object as XapiActor) : null,
    voids: s.verb.id === VOIDED_VERB && objectType === 'StatementRef' ? (object.id ?? null) : null,
    stored,
    statement,
  }
}

const COLUMNS = 'id, registration, session_id, verb_id, activity_id, agent_key, object_agent_key, voids, stored, statement'
/** Casts of the columns' parameters, in COLUMNS order. */
const CASTS = ['::uuid', '::uuid', '::uuid', '', '', '', '', '::uuid', '::timestamptz', '::jsonb']
/** A row's parameters but the statement, in COLUMNS order. */
const keyCellsOf = (r: ReturnType<typeof rowOf>): unknown[] => [r.id, r.registration, r.session_id, r.verb_id, r.activity_id, r.agent_key, r.object_agent_key, r.voids, r.stored]
/** A row's parameters, in COLUMNS order. */
const cellsOf = (r: ReturnType<typeof rowOf>): unknown[] => [...keyCellsOf(r), JSON.stringify(r.statement)]
/** The largest batch of one insert (10 parameters a statement, PostgreSQL takes 65,535). */
const INSERT_CHUNK = 1000

/**
 * The AU session statements are stored for: inserted only while it is open, and its own columns
 * kept in the same query (the time of its last statement, and when it was Initialized and
 * Terminated, from the statements' verbs).
 */
export interface SessionNote {
  sessionId: string
  at: Date
  initialized: boolean
  terminated: boolean
}

/**
 * One insert of rows, as plain parameters (PostgreSQL plans it in a fraction of what a
 * jsonb_to_recordset query costs: this is the hot path). With a session, the rows are inserted
 * only while that session is open, read in the insert itself (a statement racing the Terminated
 * one cannot slip in through a cached credential), and the session's columns are updated by the
 * same statement: an AU's usual statement is one round trip. An id already stored is skipped
 * (`on conflict do nothing`); answers the ids inserted.
 */
async function insertRows(em: EntityManager, rows: ReturnType<typeof rowOf>[], session: SessionNote | null): Promise<string[]> {
  const params: unknown[] = []
  const param = (v: unknown, cast = '') => (params.push(v), `$${params.length}${cast}`)
  let open = ''
  let guard = ''
  if (session) {
    const at = param(session.at.toISOString(), '::timestamptz')
    open = `with open_session as (
      update cmi5_sessions set last_statement_at = ${at},
        initialized_at = case when ${param(session.initialized, '::boolean')} then coalesce(initialized_at, ${at}) else initialized_at end,
        terminated_at = case when ${param(session.terminated, '::boolean')} then coalesce(terminated_at, ${at}) else terminated_at end
      where session_id = ${param(session.sessionId, '::uuid')} and terminated_at is null and abandoned_at is null
      returning 1) `
    guard = 'where exists (select 1 from open_session)'
  }
  const values = rows.map((r) => {
    const cells = cellsOf(r)
    return `(${cells.map((v, i) => param(v, CASTS[i])).join(', ')}, ${r.ord})`
  })
  const sql = `${open}insert into xapi_statements (${COLUMNS})
    select ${COLUMNS} from (values ${values.join(', ')}) as v(${COLUMNS}, ord) ${guard} order by ord
    on conflict (id) do nothing returning id`
  return (await sqlWithParams<{ id: string }>(em, sql, params)).map((r) => r.id)
}

/**
 * Stores statements (complete with id and timestamp; `stored`, `authority` and `version` are set
 * here) in `em`'s transaction; voiding statements void their target. A statement whose id is
 * already stored with the same content is skipped; with other content the whole call fails with
 * 409 (nothing stored when `em` is a transaction). Answers the ids stored now.
 */
export async function insertStatements(em: EntityManager, statements: XapiStatement[], meta: InsertMeta): Promise<string[]> {
  return insertGuarded(em, statements, meta, null)
}

/**
 * `insertStatements`, refused with 403 when `session` has ended (the AU's path), whose columns it
 * keeps (SessionNote). One query when every statement is new (the usual case); the checks of the
 * rest follow only when some were not inserted.
 */
export async function insertGuarded(em: EntityManager, statements: XapiStatement[], meta: InsertMeta, session: SessionNote | null): Promise<string[]> {
  if (statements.length === 0) return []
  const stored = (meta.now ?? new Date()).toISOString()
  const rows = statements.map((s, i) => rowOf(s, meta, stored, i))
  const inserted: string[] = []
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) inserted.push(...(await insertRows(em, rows.slice(i, i + INSERT_CHUNK), session)))
  await afterInsert(em, rows, inserted, session)
  return inserted
}

/** What follows an insert: why rows were not inserted (an ended session 403, other content 409), and voiding. */
async function afterInsert(em: EntityManager, rows: ReturnType<typeof rowOf>[], inserted: string[], session: SessionNote | null): Promise<void> {
  if (inserted.length < rows.length) {
    if (session && inserted.length === 0) {
      const [open] = await sqlWithParams(em, 'select 1 from cmi5_sessions where session_id = $1::uuid and terminated_at is null and abandoned_at is null', [session.sessionId])
      if (!open) throw forbidden('This session has ended (Terminated or abandoned): it accepts no more statements', 'session_ended')
    }
    const done = new Set(inserted)
    const rest = rows.filter((r) => !done.has(r.id)).map((r) => ({ id: r.id, statement: r.statement }))
    const [differing] = await sqlWithParams<{ id: string }>(
      em,
      `select i.id from jsonb_to_recordset($1::jsonb) as i(id uuid, statement jsonb) join xapi_statements x on x.id = i.id
       where (x.statement - 'stored' - 'authority' - 'version' - 'timestamp') <> (i.statement - 'stored' - 'authority' - 'version' - 'timestamp') limit 1`,
      [JSON.stringify(rest)],
    )
    if (differing) throw conflict(`Statement ${differing.id} already exists with other content`, 'statement_conflict')
  }
  const done = new Set(inserted)
  const voids = rows.filter((r) => r.voids && done.has(r.id)).map((r) => r.voids)
  if (voids.length > 0) await sqlWithParams(em, `update xapi_statements set voided = true where id = any($1::uuid[]) and verb_id <> '${VOIDED_VERB}'`, [voids])
}

/** insertRows' statement for one row of an open session, as a prepared statement's text. */
const INSERT_ONE_SQL = `with open_session as (
    update cmi5_sessions set last_statement_at = $11::timestamptz,
      initialized_at = case when $12::boolean then coalesce(initialized_at, $11::timestamptz) else initialized_at end,
      terminated_at = case when $13::boolean then coalesce(terminated_at, $11::timestamptz) else terminated_at end
    where session_id = $14::uuid and terminated_at is null and abandoned_at is null
    returning 1)
  insert into xapi_statements (${COLUMNS})
  select ${CASTS.map((cast, i) => `$${i + 1}${cast}`).join(', ')} where exists (select 1 from open_session)
  on conflict (id) do nothing returning id`

/**
 * The batch of the hot path: rows of any open sessions, one array a column and the statements as
 * one JSON array (one prepared plan for any batch size; no array escaping of the statements' text). Each session's last statement time is kept once; the rows of sessions that
 * have ended are not inserted. Rows keep their order (seq follows `ord`).
 */
const INSERT_BATCH_SQL = `with input as (
    select * from rows from (${CASTS.slice(0, -1)
      .map((cast, i) => `unnest($${i + 1}${cast || '::text'}[])`)
      .join(', ')}, jsonb_array_elements($${CASTS.length}::jsonb)) with ordinality as i(${COLUMNS}, ord)),
  open_session as (
    update cmi5_sessions s set last_statement_at = greatest(s.last_statement_at, g.at)
    from (select session_id, max(stored) as at from input group by session_id) g
    where s.session_id = g.session_id and s.terminated_at is null and s.abandoned_at is null
    returning s.session_id)
  insert into xapi_statements (${COLUMNS})
  select ${COLUMNS} from input where session_id in (select session_id from open_session) order by ord
  on conflict (id) do nothing returning id`

/** The most rows one batch insert takes; more wait for the next. */
const BATCH_MAX_ROWS = 500

type Row = ReturnType<typeof rowOf>
interface Waiting {
  row: Row
  done(inserted: boolean): void
  fail(err: unknown): void
}

/**
 * Group commit for the statements of open sessions that change nothing but the session's last
 * statement time (no Initialized, no Terminated): while one insert runs, the statements that
 * arrive wait and then go together in the next, one query and one commit for all. Alone, a
 * statement goes at once (no timer, no added wait); under load the batches grow with it, which
 * saves the database a transaction and a session update a statement. One insert at a time: two
 * batches locking sessions in different orders could deadlock. Each caller's promise settles
 * after the commit that stored its statement.
 */
function statementBatcher(orm: MikroORM) {
  const run = preparedStatement<{ id: string }>(orm, 'xapi_insert_batch', INSERT_BATCH_SQL)
  let queue: Waiting[] = []
  let running = false

  const flush = async () => {
    running = true
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH_MAX_ROWS)
      queue = queue.slice(batch.length)
      try {
        const columns: unknown[][] = Array.from({ length: CASTS.length - 1 }, () => [])
        for (const { row } of batch) keyCellsOf(row).forEach((v, i) => columns[i]!.push(v))
        const statements = JSON.stringify(batch.map((w) => w.row.statement))
        const inserted = new Set((await run([...columns, statements])).map((r) => r.id))
        // Two of a batch with one id: the first is stored, the second is checked like any repeat.
        const claimed = new Set<string>()
        for (const w of batch) {
          const mine = inserted.has(w.row.id) && !claimed.has(w.row.id)
          if (mine) claimed.add(w.row.id)
          w.done(mine)
        }
      } catch (err) {
        for (const w of batch) w.fail(err)
      }
    }
    running = false
  }

  return (row: Row): Promise<boolean> =>
    new Promise((done, fail) => {
      queue.push({ row, done, fail })
      if (!running) void flush()
    })
}

const insertOneStatements = new WeakMap<MikroORM, (params: readonly unknown[]) => Promise<{ id: string }[]>>()
const batchers = new WeakMap<MikroORM, ReturnType<typeof statementBatcher>>()

/**
 * One statement of an open session, outside any transaction: the LRS's hot path (an AU's usual
 * statement). The same as insertGuarded. A statement that only extends the session goes through
 * the group commit (statementBatcher); an Initialized or Terminated one, which changes the
 * session, is one prepared statement of its own.
 */
export async function insertOneGuarded(orm: MikroORM, statement: XapiStatement, meta: InsertMeta, session: SessionNote): Promise<string[]> {
  const row = rowOf(statement, meta, (meta.now ?? new Date()).toISOString(), 0)
  let inserted: string[]
  if (!session.initialized && !session.terminated && row.session_id === session.sessionId) {
    let batch = batchers.get(orm)
    if (!batch) batchers.set(orm, (batch = statementBatcher(orm)))
    inserted = (await batch(row)) ? [row.id] : []
  } else {
    let run = insertOneStatements.get(orm)
    if (!run) insertOneStatements.set(orm, (run = preparedStatement<{ id: string }>(orm, 'xapi_insert_one', INSERT_ONE_SQL)))
    inserted = (await run([...cellsOf(row), session.at.toISOString(), session.initialized, session.terminated, session.sessionId])).map((r) => r.id)
  }
  if (inserted.length === 0) await afterInsert(orm.em.fork(), [row], inserted, session)
  return inserted
}

export interface StatementFilter {
  registration?: string
  agentKey?: string
  verb?: string
  activity?: string
  since?: string
  until?: string
  ascending: boolean
  limit: number
  /** The paging cursor: the last seq of the previous page. */
  after?: string
}

/** One page of unvoided statements (one more than `limit` read, to know whether more follow). */
export async function findStatements(em: EntityManager, f: StatementFilter) {
  const where: string[] = ['not voided']
  const params: unknown[] = []
  const p = (v: unknown) => {
    params.push(v)
    return `$${params.length}`
  }
  if (f.registration) where.push(`registration = ${p(f.registration)}::uuid`)
  if (f.agentKey) {
    const k = p(f.agentKey)
    where.push(`(agent_key = ${k} or object_agent_key = ${k})`)
  }
  if (f.verb) where.push(`verb_id = ${p(f.verb)}`)
  if (f.activity) where.push(`activity_id = ${p(f.activity)}`)
  if (f.since) where.push(`stored > ${p(f.since)}::timestamptz`)
  if (f.until) where.push(`stored <= ${p(f.until)}::timestamptz`)
  if (f.after) where.push(`seq ${f.ascending ? '>' : '<'} ${p(f.after)}::bigint`)
  const sql = `select seq::text as seq, statement from xapi_statements where ${where.join(' and ')} order by seq ${f.ascending ? 'asc' : 'desc'} limit ${p(f.limit + 1)}`
  const rows = await sqlWithParams<{ seq: string; statement: XapiStatement }>(em, sql, params)
  const more = rows.length > f.limit
  const page = more ? rows.slice(0, f.limit) : rows
  return { statements: page.map((r) => r.statement), more, last: page.at(-1)?.seq }
}

/** One statement by id: unvoided (`voided` false) or voided (true); null when there is none. */
export async function findStatement(em: EntityManager, id: string, voided: boolean) {
  const [row] = await sqlWithParams<{ statement: XapiStatement; registration: string | null }>(
    em,
    'select statement, registration from xapi_statements where id = $1::uuid and voided = $2',
    [id, voided],
  )
  return row ?? null
}
