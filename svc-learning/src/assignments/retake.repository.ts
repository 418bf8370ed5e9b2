import type { EntityManager } from '@mikro-orm/postgresql'
import type { AssignmentItemKind } from '@portal/contracts'
import { sqlWithParams } from '../sql.ts'

/** Whose rows a roll forward looks at: everyone's (the scan), or one learner's, maybe of one item (the lazy path). */
export interface RetakeScope {
  userId?: string | undefined
  kind?: AssignmentItemKind | undefined
  itemId?: number | undefined
}

/** A learner and an item whose next cycle has opened. */
export interface RetakePair {
  item_kind: AssignmentItemKind
  item_id: number
  user_id: string
}

/**
 * A row asks for its next cycle on `$1`: completed, with a next cycle whose window has opened (the
 * rule of `assignment_effective_due`), of a live rule, neither removed nor exempt (an exempt person
 * is asked nothing, so nothing of theirs is started over).
 */
const OPENED = `ap.completed_on is not null and ap.next_due_on is not null and (ap.next_opens_on is null or ap.next_opens_on <= $1::date)
  and ap.removed_at is null and ap.exempt_reason is null and r.deleted_at is null`

const SCOPE = `($2::uuid is null or ap.user_id = $2) and ($3::text is null or r.item_kind = $3) and ($4::int is null or r.item_id = $4)`

const scopeValues = (s: RetakeScope) => [s.userId ?? null, s.kind ?? null, s.itemId ?? null]

/** The learner's lock of an item: the key `progressRepository.lockLearnerCourse` and `attemptRepository.lockStarts` take. */
const LEARNER_ITEM_KEY = 'v.item_id, hashtext(v.user_id::text)'

/**
 * The SQL of retakes: which learners' next cycles opened, the locks a roll forward takes (in the
 * order of decision 0051), the rows rolled forward, and the fresh start at the item (a course's
 * progress and SCORM state, an exam's attempt count). The fresh start writes other features'
 * tables on purpose: the scan does it for every learner in a few statements.
 */
export const retakeRepository = {
  /** Whether any of the scope's rows asks for its next cycle on `today` (cheap: the learner's index). */
  async anyOpened(em: EntityManager, today: string, scope: RetakeScope): Promise<boolean> {
    const rows = await sqlWithParams(em, `select 1 from assignment_people ap join assignment_rules r on r.id = ap.rule_id where ${OPENED} and ${SCOPE} limit 1`, [
      today,
      ...scopeValues(scope),
    ])
    return rows.length > 0
  },

  /** Up to `limit` learners and items whose next cycle opened on `today`, in the order their learner locks are taken. */
  async openedPairs(em: EntityManager, today: string, scope: RetakeScope, limit: number): Promise<RetakePair[]> {
    const rows = await sqlWithParams<RetakePair>(
      em,
      `select distinct r.item_id, hashtext(ap.user_id::text) as user_key, r.item_kind, ap.user_id
         from assignment_people ap join assignment_rules r on r.id = ap.rule_id
        where ${OPENED} and ${SCOPE}
        order by r.item_id, user_key, r.item_kind, ap.user_id
        limit $5`,
      [today, ...scopeValues(scope), limit],
    )
    return rows.map((r) => ({ item_kind: r.item_kind, item_id: Number(r.item_id), user_id: r.user_id }))
  },

  /**
   * The learners' locks of their items (`pairs` in `openedPairs`' order, so two holders of several
   * wait in one order): what a module completion and an exam start hold, so none of them runs
   * through a fresh start half done.
   */
  lockLearnerItems: (em: EntityManager, pairs: RetakePair[]) =>
    sqlWithParams(em, `select pg_advisory_xact_lock(${LEARNER_ITEM_KEY}) from unnest($1::int[], $2::uuid[]) with ordinality as v (item_id, user_id, n) order by v.n`, [
      pairs.map((p) => p.item_id),
      pairs.map((p) => p.user_id),
    ]),

  /**
   * The courses' rows, key-share locked in id order: a course being deleted (which locks its row
   * before its assignment rows) is either gone here or waits for the fresh start.
   */
  lockCourses: (em: EntityManager, ids: number[]) =>
    ids.length === 0 ? Promise.resolve([]) : sqlWithParams(em, 'select id from courses where id = any($1::int[]) order by id for key share', [ids]),

  /**
   * Rolls the rows of `pairs` whose next cycle opened on `today` forward, rows locked in key order:
   * cycle + 1, the next cycle's dates as the current ones, no completion and no next cycle yet
   * (`assignment_completions` keeps the cycle completed). Migration 0013's trigger announces each.
   * Resolves with the pairs rolled.
   */
  async roll(em: EntityManager, today: string, pairs: RetakePair[], at: Date): Promise<RetakePair[]> {
    const locked = await sqlWithParams<{ rule_id: number; user_id: string }>(
      em,
      `select ap.rule_id, ap.user_id
         from assignment_people ap
         join assignment_rules r on r.id = ap.rule_id
         join unnest($2::text[], $3::int[], $4::uuid[]) as v (item_kind, item_id, user_id) on r.item_kind = v.item_kind and r.item_id = v.item_id and ap.user_id = v.user_id
        where ${OPENED}
        order by ap.rule_id, ap.user_id
          for update of ap`,
      [today, pairs.map((p) => p.item_kind), pairs.map((p) => p.item_id), pairs.map((p) => p.user_id)],
    )
    if (locked.length === 0) return []
    const rolled = await sqlWithParams<RetakePair>(
      em,
      `update assignment_people ap
          set cycle = ap.cycle + 1, due_on = ap.next_due_on, opens_on = ap.next_opens_on, completed_on = null, completed_at = null,
              next_due_on = null, next_opens_on = null, updated_at = $4
         from unnest($2::int[], $3::uuid[]) as v (rule_id, user_id), assignment_rules r
        where ap.rule_id = v.rule_id and ap.user_id = v.user_id and r.id = ap.rule_id and ${OPENED}
        returning r.item_kind, r.item_id, ap.user_id`,
      [today, locked.map((l) => Number(l.rule_id)), locked.map((l) => l.user_id), at],
    )
    const seen = new Map<string, RetakePair>()
    for (const r of rolled) seen.set(`${r.item_kind}:${r.item_id}:${r.user_id}`, { item_kind: r.item_kind, item_id: Number(r.item_id), user_id: r.user_id })
    return [...seen.values()]
  },

  /**
   * Starts the learners' progress through the courses over, as a new SCORM attempt does: each SCO's
   * stored state goes to `scorm_attempts` (the history of attempts) and the runtime starts from
   * nothing; the sequencing engine's state and the module progress go; the shared data stores stay
   * (they outlive attempts). Each SCORM module's revision moves on, so a launch opened before the
   * restart cannot store its old state over the new start (its commits are refused as stale).
   * `course_completions` keeps the last completion: the course is complete again once every module is.
   */
  async restartCourses(em: EntityManager, pairs: { course_id: number; user_id: string }[], at: Date): Promise<void> {
    if (pairs.length === 0) return
    const values = [pairs.map((p) => p.course_id), pairs.map((p) => p.user_id)]
    const modules = `unnest($1::int[], $2::uuid[]) as v (course_id, user_id) join course_modules m on m.course_id = v.course_id`
    // In the commit statement's order (revision, state, progress), so a commit under way and a restart wait in one order.
    await sqlWithParams(
      em,
      `insert into scorm_revisions as sr (user_id, module_id, revision, launch_id, launch_at, final)
       select v.user_id, m.id, 1, 'restart', $3, false from ${modules} where m.is_scorm
       order by m.id, v.user_id
       on conflict (user_id, module_id) do update set revision = sr.revision + 1, launch_id = excluded.launch_id, launch_at = excluded.launch_at, final = false`,
      [...values, at.getTime()],
    )
    await sqlWithParams(
      em,
      `with ended as (
         delete from scorm_states s using ${modules} where s.user_id = v.user_id and s.module_id = m.id
         returning s.user_id, s.module_id, s.item_id, s.cmi, s.lesson_status, s.score, s.total_time, s.exit, s.updated_at)
       insert into scorm_attempts (user_id, module_id, item_id, cmi, lesson_status, score, total_time, exit, ended_at)
       select user_id, module_id, item_id, cmi, lesson_status, score, total_time, exit, updated_at from ended`,
      values,
    )
    await sqlWithParams(em, `delete from scorm_sequencing_states s using ${modules} where s.user_id = v.user_id and s.module_id = m.id`, values)
    // A cmi5 course starts over with a new registration (issue 26): the old one's sessions, AU statuses and
    // satisfaction go with it (its statements stay in the LRS, under the old registration).
    await sqlWithParams(em, `delete from cmi5_registrations r using ${modules} where r.user_id = v.user_id and r.module_id = m.id`, values)
    await sqlWithParams(
      em,
      'delete from module_progress mp using unnest($1::int[], $2::uuid[]) as v (course_id, user_id) where mp.user_id = v.user_id and mp.course_id = v.course_id',
      values,
    )
  },

  /**
   * Starts the learners' count of attempts at the exams over: the attempt limit counts attempts
   * numbered after the last one started so far (`attemptRepository.countOf` reads it).
   */
  restartExams: (em: EntityManager, pairs: { exam_id: number; user_id: string }[], at: Date) =>
    pairs.length === 0
      ? Promise.resolve([])
      : sqlWithParams(
          em,
          `insert into exam_attempt_resets (exam_id, user_id, counts_from, reset_at)
           select v.exam_id, v.user_id, coalesce((select max(a.attempt_number) from exam_attempts a where a.exam_id = v.exam_id and a.user_id = v.user_id), 0) + 1, $3
             from unnest($1::int[], $2::uuid[]) as v (exam_id, user_id)
           on conflict (exam_id, user_id) do update set counts_from = excluded.counts_from, reset_at = excluded.reset_at`,
          [pairs.map((p) => p.exam_id), pairs.map((p) => p.user_id), at],
        ),
}
