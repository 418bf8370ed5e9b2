import type { EntityManager } from '@mikro-orm/postgresql'
import { conflict, forbidden } from '@portal/server-kit'
import { sqlWithParams } from '../sql.ts'
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

// One round trip: the rows arrive as one JSON parameter. `$2` (a session id) refuses the batch
// when that session has ended (Terminated or abandoned) — read in the insert itself, so a
// statement racing the Terminated one cannot slip in through a cached credential. A statement id
// already stored is not stored again: the answer says whether the stored one is the same.
const INSERT_SQL = `with input as (
    select * from jsonb_to_recordset($1::jsonb) as x(ord int, id uuid, registration uuid, session_id uuid, verb_id text,
      activity_id text, agent_key text, object_agent_key text, voids uuid, stored timestamptz, statement jsonb)),
  open as (select ($2::uuid is null or exists (select 1 from cmi5_sessions s
      where s.session_id = $2::uuid and s.terminated_at is null and s.abandoned_at is null)) as ok),
  ins as (
    insert into xapi_statements (id, registration, session_id, verb_id, activity_id, agent_key, object_agent_key, voids, stored, statement)
    select id, registration, session_id, verb_id, activity_id, agent_key, object_agent_key, voids, stored, statement
    from input where (select ok from open) order by ord
    on conflict (id) do nothing
    returning id),
  voiding as (
    update xapi_statements t set voided = true from input i
    where (select ok from open) and i.voids is not null and t.id = i.voids and t.verb_id <> '${VOIDED_VERB}'
      and i.id in (select id from ins)
    returning t.id)
  select (select ok from open) as open,
    (select count(*) from voiding)::int as voided,
    coalesce((select json_agg(id) from ins), '[]') as inserted,
    coalesce((select json_agg(i.id) from input i join xapi_statements x on x.id = i.id
      where i.id not in (select id from ins)
        and (x.statement - 'stored' - 'authority' - 'version' - 'timestamp') <> (i.statement - 'stored' - 'authority' - 'version' - 'timestamp')), '[]') as differing`

/**
 * Stores statements (complete with id and timestamp; `stored`, `authority` and `version` are set
 * here) in `em`'s transaction, in one query; voiding statements void their target. A statement
 * whose id is already stored with the same content is skipped; with other content the whole call
 * fails with 409 (nothing stored when `em` is a transaction). Answers the ids stored now.
 */
export async function insertStatements(em: EntityManager, statements: XapiStatement[], meta: InsertMeta): Promise<string[]> {
  return insertGuarded(em, statements, meta, null)
}

/** `insertStatements`, refused with 403 when `openSessionId`'s session has ended (the AU's path). */
export async function insertGuarded(em: EntityManager, statements: XapiStatement[], meta: InsertMeta, openSessionId: string | null): Promise<string[]> {
  if (statements.length === 0) return []
  const stored = (meta.now ?? new Date()).toISOString()
  const rows = statements.map((s, i) => rowOf(s, meta, stored, i))
  const [out] = await sqlWithParams<{ open: boolean; inserted: string[]; differing: string[] }>(em, INSERT_SQL, [JSON.stringify(rows), openSessionId])
  if (!out!.open) throw forbidden('This session has ended (Terminated or abandoned): it accepts no more statements', 'session_ended')
  if (out!.differing.length > 0) throw conflict(`Statement ${out!.differing[0]} already exists with other content`, 'statement_conflict')
  return out!.inserted
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
