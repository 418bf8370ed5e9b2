import { Migration } from '@portal/server-kit'

/**
 * The kept figures of item analysis (issue 27): one row per graded attempt (`exam_attempt_scores`)
 * and one per question of it (`exam_attempt_items`), written by the database when an attempt is
 * finalised (submitted or expired) and backfilled here from the attempts graded before. The
 * analysis aggregates these rows in SQL; it never reads the attempts' JSON snapshots.
 *
 * - `exam_type` is the exam's type when the attempt was graded (the backfill: its type now), so
 *   final and practice attempts are analysed apart even when an admin changes the type later.
 * - `correct` is the grading's own decision (the result's `is_correct`), never graded again here.
 * - `chosen_bits` is the learner's answer as a set of pool indexes (option i: bit i; 0 when
 *   unanswered): the shown indexes mapped through the attempt's `option_orders` (decision 0045).
 *   Its TypeScript twin is `poolAnswer` in item-analysis/reference.ts (the agreement test is in
 *   item-analysis.routes.test.ts). A question has at most 50 options (QuestionInput); an index past
 *   62 would set the sign bit rather than overflow. Bits keep the rows narrow and let the analysis
 *   count each option with a plain integer test in one pass.
 * - `raw_score` is the attempt's number of correct answers (the classical test score: item-rest
 *   correlation and Cronbach's alpha add unweighted items); `score` the graded percentage.
 * Attempts of exams deleted before the backfill are left out (no analysis can be asked for them).
 * A graded attempt is never deleted (forget-user keeps them); the rows follow it if one is.
 */
export class ItemAnalysis extends Migration {
  override async up() {
    this.addSql(`create table exam_attempt_scores (
      attempt_id uuid primary key references exam_attempts (id) on delete cascade,
      exam_id int not null,
      exam_type text not null check (exam_type in ('practice', 'final')),
      finalised_at timestamptz not null,
      items smallint not null,
      raw_score smallint not null,
      score double precision not null,
      duration_seconds double precision)`)
    this.addSql('create index exam_attempt_scores_exam on exam_attempt_scores (exam_id, exam_type, finalised_at)')
    this.addSql(`create table exam_attempt_items (
      attempt_id uuid not null references exam_attempts (id) on delete cascade,
      finalised_at timestamptz not null,
      chosen_bits bigint not null,
      exam_id int not null,
      question_id int not null,
      position smallint not null,
      raw_score smallint not null,
      correct boolean not null,
      exam_type text not null,
      primary key (attempt_id, position))`)
    this.addSql('create index exam_attempt_items_exam on exam_attempt_items (exam_id, exam_type, finalised_at)')
    this.addSql(`create function learning_record_attempt_items(p_attempt uuid) returns void language sql as $fn$
      ${insertScores('a.id = p_attempt')};
      ${insertItems('a.id = p_attempt')};
    $fn$`)
    // Filled as the attempt is graded, whichever way the grading stores it (the submit's update, the sweeper's entity flush).
    this.addSql(`create function learning_attempt_items_on_finalise() returns trigger language plpgsql as $fn$
      begin
        if new.status <> 'in_progress' and new.result is not null and (tg_op = 'INSERT' or old.status = 'in_progress') then
          perform learning_record_attempt_items(new.id);
        end if;
        return null;
      end
    $fn$`)
    this.addSql(`create trigger exam_attempts_item_analysis after insert or update of status on exam_attempts
      for each row execute function learning_attempt_items_on_finalise()`)
    const graded = "a.status <> 'in_progress' and a.result is not null"
    this.addSql(insertScores(graded))
    this.addSql(insertItems(graded))
  }
}

/** The finalised attempts matching `where` (alias `a`) with their exam's type. */
const finalisedAttempts = (where: string, join = '') => `from exam_attempts a join exams e on e.id = a.exam_id${join}
  where ${where} and a.finalised_at is not null`

const insertScores = (where: string) => `insert into exam_attempt_scores (attempt_id, exam_id, exam_type, finalised_at, items, raw_score, score, duration_seconds)
  select a.id, a.exam_id, e.exam_type, a.finalised_at, jsonb_array_length(a.questions), (a.result ->> 'correct_answers')::int,
         (a.result ->> 'score')::float8,
         case when a.status = 'submitted' then extract(epoch from a.finalised_at - a.started_at)::float8 end
  ${finalisedAttempts(where)}
  on conflict do nothing`

/**
 * One row per question of each attempt: the answer given (`answers`, indexes as shown) mapped to
 * pool indexes through `option_orders` (none: shown = pool), sorted.
 */
const insertItems = (where: string) => `insert into exam_attempt_items (attempt_id, position, exam_id, exam_type, finalised_at, question_id, correct, chosen_bits, raw_score)
  select a.id, (q.i - 1)::smallint, a.exam_id, e.exam_type, a.finalised_at, (q.question ->> 'id')::int,
         coalesce((a.result -> 'question_results' -> (q.i::int - 1) ->> 'is_correct')::boolean, false),
         ch.bits, (a.result ->> 'correct_answers')::int
  ${finalisedAttempts(
    where,
    `
  cross join lateral jsonb_array_elements(a.questions) with ordinality as q (question, i)
  cross join lateral (
    select coalesce(bit_or(1::bigint << least(m.pool, 63)), 0) as bits
      from (select case when jsonb_typeof(a.option_orders -> (q.i::int - 1)) = 'array'
                        then (a.option_orders -> (q.i::int - 1) ->> s.shown)::int
                        else s.shown end as pool
              from (select x::int as shown
                      from jsonb_array_elements_text(case jsonb_typeof(a.answers -> (q.i::int - 1))
                                                       when 'array' then a.answers -> (q.i::int - 1)
                                                       when 'number' then jsonb_build_array(a.answers -> (q.i::int - 1))
                                                       else '[]'::jsonb end) x
                     where x::int >= 0) s) m) ch`,
  )}
  on conflict do nothing`
