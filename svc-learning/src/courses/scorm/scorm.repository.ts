import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { PROGRESS_TRACKER, type SequencingState } from '@portal/contracts'
import { stillAssignedSql, type ModuleRow } from '../course.repository.ts'
import { touchProgressSql } from '../progress/progress.repository.ts'
import { preparedStatement, sqlWithParams } from '../../sql.ts'
import { SCO_REPORTS_COMPLETE } from './sco-complete.ts'

/** A stored SCO state (`scorm_states`). */
export interface StateRow {
  item_id: string
  launch_at: string | number
  cmi: Record<string, unknown> | string
  exit: string
  lesson_status: string
  score: number | null
  location: string
  total_time: string
  session_time: string
  updated_at: Date | string
}

/*
 * One statement per commit. A commit carrying the launch's revision is stored only when no other
 * launch stored anything for this learner and module since that revision, or this launch stored
 * last (its own commits are then ordered by seq), or what was stored since is the final commit of
 * an earlier launch (a viewer closed just before it was reopened, whose last beacon arrived after
 * the new launch): an idle tab opened later cannot overwrite newer
 * work from an earlier one, and is refused (`fresh` false) instead of being told it saved. A
 * commit without a revision is ordered by (launch_at, seq) alone. 2004 commits before Terminate
 * carry no cmi.total_time, so the stored one is kept (column and tree) — unless the stored state
 * is an attempt that ended (2004, another launch, an exit other than suspend): its results go to
 * `scorm_attempts` and this launch's attempt starts from nothing. The module's progress row is
 * touched in the same statement when the caller asks (first commit of a learner and module in a
 * while). Nothing is written once the course is no longer assigned to the launch's learner
 * (admins' launches excepted) or the learner was deleted.
 *
 * Four prepared variants (`commitSql`): the `ended` insert only for a 2004 commit (`ENDED` is false
 * for 1.2) and the progress touch only when asked. A data-modifying CTE costs its table's setup on
 * every execution even when it writes nothing: left out, a 1.2 commit costs PostgreSQL about 12%
 * less (measured: 213 against 243 µs of backend CPU per ~8 KB commit).
 */
const ENDED = `($21::boolean and s.launch_at <> $4::bigint and s.launch_at <> 0 and s.exit <> 'suspend')`
const commitSql = (o: { ends: boolean; touches: boolean }) => `with allowed as (
  select 1 where not exists (select 1 from users u where u.id = $1::uuid and u.deleted_at is not null)
    and ($18::boolean or ${stillAssignedSql('$1', '$16')})
), rev as (
  insert into scorm_revisions as r (user_id, module_id, revision, launch_id, launch_at, final)
  select $1::uuid, $2::int, 1, $20::text, $4::bigint, $22::boolean where exists (select 1 from allowed)
  on conflict (user_id, module_id) do update set revision = r.revision + 1, launch_id = excluded.launch_id, launch_at = excluded.launch_at, final = excluded.final
  where $19::bigint is null or r.launch_id = excluded.launch_id or r.revision = $19::bigint or (r.final and r.launch_at < excluded.launch_at)
  returning r.revision
), ended as (${
  o.ends
    ? `
  insert into scorm_attempts (user_id, module_id, item_id, cmi, lesson_status, score, total_time, exit, ended_at)
  select s.user_id, s.module_id, s.item_id, s.cmi, s.lesson_status, s.score, s.total_time, s.exit, s.updated_at from scorm_states s
  where s.user_id = $1::uuid and s.module_id = $2::int and s.item_id = $3::text and ${ENDED}
    and ($19::bigint is not null or s.launch_at < $4::bigint) and exists (select 1 from rev)
  returning 1`
    : 'select 1 where false'
}
), up as (
  insert into scorm_states as s (user_id, module_id, item_id, launch_at, seq, cmi, lesson_status, score, location, total_time, session_time, exit, updated_at)
  select $1::uuid, $2::int, $3::text, $4::bigint, $5::int, $6::jsonb, $7::text, $8::double precision, $9::text, coalesce($10::text, $11::text), $12::text, $13::text, $14::timestamptz
  where exists (select 1 from rev)
  on conflict (user_id, module_id, item_id) do update set
    launch_at = excluded.launch_at, seq = excluded.seq,
    cmi = case when $10::text is null and $15::text[] is not null and s.total_time like 'P%' and not ${ENDED}
      then jsonb_set(excluded.cmi, $15::text[], to_jsonb(s.total_time)) else excluded.cmi end,
    lesson_status = excluded.lesson_status, score = excluded.score, location = excluded.location,
    total_time = case when $10::text is null and not ${ENDED} then s.total_time else excluded.total_time end,
    session_time = excluded.session_time, exit = excluded.exit, updated_at = excluded.updated_at
  where case when $19::bigint is null then (s.launch_at, s.seq) < (excluded.launch_at, excluded.seq)
    else s.launch_at <> excluded.launch_at or s.seq < excluded.seq end
  returning 1
), mp as (${
  o.touches
    ? `
  ${touchProgressSql(`select $1, $2, $16, ${PROGRESS_TRACKER.scormInitialized}, $14, $14 where $17::boolean and exists (select 1 from rev)`)}
  returning m.completed_at`
    : // $17 (touch) named all the same: each variant takes the same parameters.
      'select null::timestamptz as completed_at where $17::boolean and false'
}
)
select exists (select 1 from allowed) as allowed, exists (select 1 from rev) as fresh, (select count(*) from up)::int as applied,
  (select count(*) from ended)::int as ended, (select completed_at from mp) as completed_at`

/** What the commit statement answers. */
export interface CommitRow {
  allowed: boolean
  fresh: boolean
  applied: number
  ended: number
  completed_at: Date | null
}

/** What one commit stores: the launch's claims, the commit's tree and the summary read from it. */
export interface CommitValues {
  userId: string
  moduleId: number
  courseId: number
  itemId: string
  /** The launch's issue time (orders commits of different launches) and id. */
  launchAt: number
  launchId: string
  /** Issued to an admin: stored whether or not the course is assigned. */
  admin: boolean
  seq: number
  /** The launch's revision, null when the commit carries none. */
  revision: number | null
  terminated: boolean
  cmi: Record<string, unknown>
  lessonStatus: string
  score: number | null
  location: string
  /** null: the commit carries no total time (the stored one is kept). */
  totalTime: string | null
  /** The data model's zero time, for a first state without one. */
  zeroTime: string
  sessionTime: string
  exit: string
  at: Date
  /** Where cmi.total_time sits in a 2004 tree that carries none, to put the stored one back; else null. */
  totalTimePath: string[] | null
  is2004: boolean
  /** Touch the module's progress row in the same statement. */
  touch: boolean
}

/** The SQL of the SCORM runtime: the commit statement, modules, stored states, shared data, revisions. */
export const scormRepository = {
  /**
   * The commit statement (`commitSql`, the variant the commit needs), prepared once per pooled
   * connection: the hottest statement of the service (every open SCO commits every 5 s). Runs on the
   * pool, outside any transaction; a module deleted after the launch fails with the foreign key's 23503.
   */
  prepareCommit(orm: MikroORM): (v: CommitValues) => Promise<CommitRow | undefined> {
    const variant = (ends: boolean, touches: boolean) =>
      preparedStatement<CommitRow>(orm, `scorm_commit${ends ? '_2004' : ''}${touches ? '_touch' : ''}`, commitSql({ ends, touches }))
    const statements = [variant(false, false), variant(false, true), variant(true, false), variant(true, true)]
    return async (v) => {
      const [row] = await statements[(v.is2004 ? 2 : 0) + (v.touch ? 1 : 0)]!([
        v.userId,
        v.moduleId,
        v.itemId,
        v.launchAt,
        v.seq,
        JSON.stringify(v.cmi),
        v.lessonStatus,
        v.score,
        v.location,
        v.totalTime,
        v.zeroTime,
        v.sessionTime,
        v.exit,
        v.at,
        v.totalTimePath === null ? null : `{${v.totalTimePath.join(',')}}`,
        v.courseId,
        v.touch,
        v.admin,
        v.revision,
        v.launchId,
        v.is2004,
        v.terminated,
      ])
      return row
    }
  },

  /** Stores the learner's shared data stores of the module (each replaces the stored one). */
  async storeSharedData(em: EntityManager, userId: string, moduleId: number, stores: readonly { id: string; store: string }[], at: Date): Promise<void> {
    await sqlWithParams(
      em,
      `insert into scorm_shared_data (user_id, module_id, store_id, store, updated_at)
       select $1, $2, x.id, x.store, $3 from jsonb_to_recordset($4::jsonb) as x(id text, store text)
       on conflict (user_id, module_id, store_id) do update set store = excluded.store, updated_at = excluded.updated_at`,
      [userId, moduleId, at, JSON.stringify(stores)],
    )
  },

  /** One SCO's stored cmi tree, locked for the transaction; undefined when none is stored. */
  async lockTree(em: EntityManager, userId: string, moduleId: number, itemId: string): Promise<Record<string, unknown> | undefined> {
    const [stored] = await sqlWithParams<{ cmi: Record<string, unknown> | string }>(
      em,
      'select cmi from scorm_states where user_id = $1 and module_id = $2 and item_id = $3 for update',
      [userId, moduleId, itemId],
    )
    if (!stored) return undefined
    return typeof stored.cmi === 'string' ? (JSON.parse(stored.cmi) as Record<string, unknown>) : stored.cmi
  },

  /** Writes a progress record's tree as the SCO's state, at (launch 0, seq 0): a session still under way goes on committing over it. */
  async storeRecordTree(
    em: EntityManager,
    s: {
      userId: string
      moduleId: number
      itemId: string
      cmi: Record<string, unknown>
      lessonStatus: string
      score: number | null
      location: string
      totalTime: string
      sessionTime: string
      exit: string
      at: Date
    },
  ): Promise<void> {
    await sqlWithParams(
      em,
      `insert into scorm_states as s (user_id, module_id, item_id, launch_at, seq, cmi, lesson_status, score, location, total_time, session_time, exit, updated_at)
       values ($1, $2, $3, 0, 0, $4::jsonb, $5, $6, $7, $8, $9, $10, $11)
       on conflict (user_id, module_id, item_id) do update set launch_at = 0, seq = 0, cmi = excluded.cmi, lesson_status = excluded.lesson_status,
         score = excluded.score, location = excluded.location, total_time = excluded.total_time,
         session_time = excluded.session_time, updated_at = excluded.updated_at`,
      [s.userId, s.moduleId, s.itemId, JSON.stringify(s.cmi), s.lessonStatus, s.score, s.location, s.totalTime, s.sessionTime, s.exit, s.at],
    )
  },

  /** The learner's stored sequencing engine state of a module, null before the first one. */
  async sequencingState(em: EntityManager, userId: string, moduleId: number): Promise<SequencingState | null> {
    const [row] = await sqlWithParams<{ state: SequencingState | string }>(em, 'select state from scorm_sequencing_states where user_id = $1 and module_id = $2', [
      userId,
      moduleId,
    ])
    if (!row) return null
    return typeof row.state === 'string' ? (JSON.parse(row.state) as SequencingState) : row.state
  },

  /**
   * Stores the engine state unless a newer one is stored (ordered by launch and `seq`); true when
   * it was stored. A module deleted after the launch fails with the foreign key's 23503.
   */
  async storeSequencingState(
    em: EntityManager,
    s: { userId: string; moduleId: number; launchAt: number; seq: number; state: SequencingState; rootCompletion: string; rootSuccess: string; at: Date },
  ): Promise<boolean> {
    const rows = await sqlWithParams(
      em,
      `insert into scorm_sequencing_states as s (user_id, module_id, launch_at, seq, state, root_completion, root_success, updated_at)
       values ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)
       on conflict (user_id, module_id) do update set
         launch_at = excluded.launch_at, seq = excluded.seq, state = excluded.state,
         root_completion = excluded.root_completion, root_success = excluded.root_success, updated_at = excluded.updated_at
       where (s.launch_at, s.seq) < (excluded.launch_at, excluded.seq)
       returning 1`,
      [s.userId, s.moduleId, s.launchAt, s.seq, JSON.stringify(s.state), s.rootCompletion, s.rootSuccess, s.at],
    )
    return rows.length > 0
  },

  /** The SCOs of the module whose stored state reports completion (`SCO_REPORTS_COMPLETE`). */
  async reportedCompleteItems(em: EntityManager, userId: string, moduleId: number): Promise<string[]> {
    const rows = await sqlWithParams<{ item_id: string }>(em, `select item_id from scorm_states where user_id = $1 and module_id = $2 and ${SCO_REPORTS_COMPLETE}`, [
      userId,
      moduleId,
    ])
    return rows.map((r) => r.item_id)
  },

  /** The stored root rollup of a sequenced module says done (completed, or its objective satisfied). */
  async rootReportsDone(em: EntityManager, userId: string, moduleId: number): Promise<boolean> {
    const [root] = await sqlWithParams(
      em,
      `select 1 from scorm_sequencing_states where user_id = $1 and module_id = $2 and (root_completion = 'completed' or root_success = 'passed')`,
      [userId, moduleId],
    )
    return root !== undefined
  },

  /** What a package's SCOs are read from. */
  async packageOf(em: EntityManager, id: number) {
    const [row] = (await em.execute('select id, is_scorm, processing_status, manifest from course_modules where id = ?', [id])) as Pick<
      ModuleRow,
      'id' | 'is_scorm' | 'processing_status' | 'manifest'
    >[]
    return row
  },

  /** The most recently updated SCO state of the module. */
  async latestState(em: EntityManager, userId: string, moduleId: number): Promise<StateRow | undefined> {
    const [row] = (await em
      .getConnection()
      .execute('select * from scorm_states where user_id = ? and module_id = ? order by updated_at desc, launch_at desc, seq desc limit 1', [userId, moduleId])) as StateRow[]
    return row
  },

  /** The module as a completion reads it, with its course. */
  async moduleToComplete(em: EntityManager, moduleId: number) {
    const [module] = (await em.execute('select id, title, is_scorm, course_id, manifest, scorm_version from course_modules where id = ?', [moduleId])) as (Pick<
      ModuleRow,
      'id' | 'title' | 'is_scorm' | 'manifest' | 'scorm_version'
    > & { course_id: number })[]
    return module
  },

  /** The learner's stored state per SCO, most recently updated first. */
  states: (em: EntityManager, userId: string, moduleId: number) =>
    em
      .getConnection()
      .execute('select item_id, cmi, exit, launch_at, updated_at from scorm_states where user_id = ? and module_id = ? order by updated_at desc, launch_at desc, seq desc', [
        userId,
        moduleId,
      ]) as Promise<StateRow[]>,

  /** One SCO's stored state: the tree, and the launch and commit that stored it. */
  async stateOf(em: EntityManager, userId: string, moduleId: number, itemId: string) {
    const [row] = (await em
      .getConnection()
      .execute('select launch_at, seq, cmi from scorm_states where user_id = ? and module_id = ? and item_id = ?', [userId, moduleId, itemId])) as (Pick<
      StateRow,
      'launch_at' | 'cmi'
    > & { seq: number | string })[]
    return row
  },

  /** The learner's shared data stores of the module. */
  sharedData: (em: EntityManager, userId: string, moduleId: number) =>
    em.execute('select store_id, store from scorm_shared_data where user_id = ? and module_id = ?', [userId, moduleId]) as Promise<{ store_id: string; store: string }[]>,

  /** The learner's state revision of the module (none before a first commit). */
  async revision(em: EntityManager, userId: string, moduleId: number) {
    const [revision] = (await em.execute('select revision from scorm_revisions where user_id = ? and module_id = ?', [userId, moduleId])) as {
      revision: string | number
    }[]
    return revision
  },

  async moduleExists(em: EntityManager, moduleId: number) {
    const [module] = (await em.execute('select 1 from course_modules where id = ?', [moduleId])) as unknown[]
    return module !== undefined
  },
}
