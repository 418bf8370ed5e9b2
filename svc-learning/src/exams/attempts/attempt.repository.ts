import type { EntityManager } from '@mikro-orm/postgresql'
import type { Answer, ExamSubmissionResult, Question } from '@portal/contracts'
import { sqlWithParams } from '../../sql.ts'
import type { AttemptStatus, ExamAttemptEntity } from './attempt.entity.ts'
import type { OptionOrder } from '../option-order.ts'

/** An attempt as a submit reads it: a plain row, so its question snapshot is neither hydrated nor change-tracked. */
export type AttemptRow = Pick<
  ExamAttemptEntity,
  'id' | 'examId' | 'userId' | 'attemptNumber' | 'examName' | 'passScore' | 'questions' | 'optionOrders' | 'answers' | 'status' | 'deadline' | 'result'
>

/** A new attempt's row: its snapshot of the drawn questions, their option orders and no answers yet. */
export interface NewAttempt {
  id: string
  examId: number
  userId: string
  attemptNumber: number
  examName: string
  passScore: number
  questions: Question[]
  optionOrders: OptionOrder[]
  answers: Answer[]
  startedAt: Date
  deadline: Date
}

/** The SQL of exam attempts (`exam_attempts`); snapshots and results are JSON documents sent as parameters. */
export const attemptRepository = {
  /**
   * The exam's pool (its active questions, never the retired ones) as an attempt snapshots it, read as plain rows: a start needs the values only,
   * and hydrating (then change-tracking) one entity per question made up most of a start's cost.
   */
  async poolOf(em: EntityManager, examId: number): Promise<Question[]> {
    const rows = (await em.execute(
      `select id, question_type, question_text, options, correct_answer, subject_category, category_weight, keep_option_order
       from exam_questions where exam_id = ? and retired_at is null order by position, id`,
      [examId],
    )) as {
      id: number
      question_type: Question['question_type']
      question_text: string
      options: string[]
      correct_answer: Question['correct_answer']
      subject_category: string | null
      category_weight: number
      keep_option_order: boolean
    }[]
    return rows.map((r) => ({
      id: Number(r.id),
      question_type: r.question_type,
      question_text: r.question_text,
      options: r.options,
      correct_answer: r.correct_answer,
      subject_category: r.subject_category ?? null,
      category_weight: Number(r.category_weight),
      keep_option_order: r.keep_option_order === true,
    }))
  },

  /** The learner's open attempt of the exam, else their latest one (whose stored result a repeated submit answers). */
  async latestAttemptId(em: EntityManager, examId: number, userId: string): Promise<string | null> {
    const rows = (await em.execute(
      `select id from exam_attempts where exam_id = ? and user_id = ?
       order by (status = 'in_progress') desc, attempt_number desc limit 1`,
      [examId, userId],
    )) as { id: string }[]
    return rows[0]?.id ?? null
  },

  /** The attempt's row, locked for the transaction, or null. */
  async lockAttemptRow(em: EntityManager, id: string): Promise<AttemptRow | null> {
    const rows = (await em.execute(
      `select id, exam_id, user_id, attempt_number, exam_name, pass_score, questions, option_orders, answers, status, deadline, result
       from exam_attempts where id = ? for update`,
      [id],
    )) as {
      id: string
      exam_id: number
      user_id: string
      attempt_number: number
      exam_name: string
      pass_score: number
      questions: Question[]
      option_orders: OptionOrder[] | null
      answers: Answer[]
      status: AttemptStatus
      deadline: Date | string
      result: ExamSubmissionResult | null
    }[]
    const r = rows[0]
    if (!r) return null
    return {
      id: r.id,
      examId: Number(r.exam_id),
      userId: r.user_id,
      attemptNumber: Number(r.attempt_number),
      examName: r.exam_name,
      passScore: Number(r.pass_score),
      questions: r.questions,
      optionOrders: r.option_orders ?? null,
      answers: r.answers,
      status: r.status,
      deadline: new Date(r.deadline),
      result: r.result,
    }
  },

  /** Serializes the starts of one learner on one exam until the transaction ends (double clicks, two tabs). */
  async lockStarts(em: EntityManager, examId: number, userId: string): Promise<void> {
    await em.execute('select pg_advisory_xact_lock(?, hashtext(?))', [examId, userId])
  },

  /**
   * How many attempts the learner has started on the exam that count against its attempt limit, and
   * the last attempt number (0 before the first). A recurring assignment's new cycle starts the
   * count over (`exam_attempt_resets`, decision 0051): only attempts numbered from its mark count.
   */
  async countOf(em: EntityManager, examId: number, userId: string): Promise<{ used: number; last: number }> {
    const rows = (await em.execute(
      `select count(*) filter (where a.attempt_number >= coalesce(r.counts_from, 1))::int as n, coalesce(max(a.attempt_number), 0)::int as last
         from exam_attempts a left join exam_attempt_resets r on r.exam_id = a.exam_id and r.user_id = a.user_id
        where a.exam_id = ? and a.user_id = ?`,
      [examId, userId],
    )) as { n: number; last: number }[]
    return { used: Number(rows[0]!.n), last: Number(rows[0]!.last) }
  },

  /** One insert with real parameters: the snapshot is tens of kilobytes of JSON. */
  async insertStarted(em: EntityManager, a: NewAttempt): Promise<void> {
    await sqlWithParams(
      em,
      `insert into exam_attempts (id, exam_id, user_id, attempt_number, exam_name, pass_score, questions, option_orders, answers, status, started_at, deadline)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, 'in_progress', $10, $11)`,
      [
        a.id,
        a.examId,
        a.userId,
        a.attemptNumber,
        a.examName,
        a.passScore,
        JSON.stringify(a.questions),
        JSON.stringify(a.optionOrders),
        JSON.stringify(a.answers),
        a.startedAt,
        a.deadline,
      ],
    )
  },

  /** Stores a graded attempt in one update statement (real parameters: the result carries every question's text and options). */
  async storeGraded(
    em: EntityManager,
    id: string,
    g: { answers: Answer[]; status: Exclude<AttemptStatus, 'in_progress'>; finalisedAt: Date; score: number; passed: boolean; result: ExamSubmissionResult },
  ): Promise<void> {
    await sqlWithParams(em, 'update exam_attempts set answers = $2::jsonb, status = $3, finalised_at = $4, score = $5, passed = $6, result = $7::jsonb where id = $1', [
      id,
      JSON.stringify(g.answers),
      g.status,
      g.finalisedAt,
      g.score,
      g.passed,
      JSON.stringify(g.result),
    ])
  },
}
