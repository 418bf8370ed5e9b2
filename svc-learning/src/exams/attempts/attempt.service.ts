import { LockMode, type EntityManager } from '@mikro-orm/postgresql'
import { EXAM_MESSAGES, ExamSubmissionResult, type Answer, type Question, type StartAttemptResponse } from '@portal/contracts'
import { AppError, badRequest, conflict, createBackgroundTask, recordEvent, type Actor } from '@portal/server-kit'
import type { LearningContext } from '../../context.ts'
import { requireOwnAttempt, requireSubmitterIsCaller, requireTakeable } from '../access.ts'
import { toAttemptQuestion } from '../exam.entity.ts'
import { ExamAttemptEntity, type AttemptStatus } from './attempt.entity.ts'
import { attemptRepository, type AttemptRow } from './attempt.repository.ts'
import { draw } from './draw.ts'
import { answerProblem, gradeAttempt } from './grading.ts'
import { drawOptionOrder } from '../option-order.ts'
import { openRetakes, recordItemCompletion } from '../../assignments/index.ts'

/** Network latency allowance: a save or submit this long after the deadline is still accepted. */
export const SUBMIT_GRACE_MS = 5_000

const unprocessable = (message: string, code: string) => new AppError(422, code, message)

/** Past the deadline and the grace: the attempt is finalised by the server with what was saved. */
const isOverdue = (a: Pick<ExamAttemptEntity, 'deadline'>, now: Date) => now.getTime() > a.deadline.getTime() + SUBMIT_GRACE_MS

/** Same questions and no duplicates, else 400. */
function requireSameQuestions(attempt: Pick<ExamAttemptEntity, 'questions'>, questionIds: number[], answers: Answer[], subset: boolean) {
  if (answers.length !== questionIds.length) throw badRequest('answers and questionIds must have the same length', 'answers_mismatch')
  const ids = new Set(attempt.questions.map((q) => q.id))
  const seen = new Set<number>()
  for (const id of questionIds) {
    if (!ids.has(id)) throw badRequest(`Question ${id} is not part of this attempt`, 'question_not_in_attempt')
    if (seen.has(id)) throw badRequest(`Question ${id} is answered twice`, 'duplicate_answer')
    seen.add(id)
  }
  if (!subset && seen.size !== ids.size) throw badRequest('Every question of the attempt must be answered (-1 when unanswered)', 'answers_mismatch')
}

/** The body's answers by question id, each checked against its question's type and options. */
function checkedAnswers(attempt: Pick<ExamAttemptEntity, 'questions'>, questionIds: number[], answers: Answer[]): Map<number, Answer> {
  const byId = new Map(attempt.questions.map((q) => [q.id, q]))
  const out = new Map<number, Answer>()
  questionIds.forEach((id, i) => {
    const problem = answerProblem(byId.get(id)!, answers[i]!)
    if (problem) throw badRequest(`${problem} (question ${id})`, 'invalid_answer', { details: [{ path: `answers.${i}`, message: problem }] })
    out.set(id, answers[i]!)
  })
  return out
}

export function createAttemptService(ctx: LearningContext) {
  const { orm, now } = ctx

  /**
   * Grades the attempt and records `learning.exam.submitted.v1`, and a pass as the completion of the
   * learner's assignments of the exam (issue 24), in the caller's transaction; answers the result
   * and the attempt's new values.
   */
  const grade = async (em: EntityManager, attempt: AttemptRow, status: Exclude<AttemptStatus, 'in_progress'>, answers: Answer[]) => {
    const at = now()
    const result = gradeAttempt({
      attemptId: attempt.id,
      examId: attempt.examId,
      examName: attempt.examName,
      passScore: attempt.passScore,
      attemptNumber: attempt.attemptNumber,
      questions: attempt.questions,
      optionOrders: attempt.optionOrders,
      answers,
      submittedAt: at,
    })
    recordEvent(em, 'learning.exam.submitted.v1', {
      userId: attempt.userId,
      examId: attempt.examId,
      examName: attempt.examName,
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      score: result.score,
      passed: result.passed,
    })
    if (result.passed) await recordItemCompletion(em, { userId: attempt.userId, kind: 'exam', itemId: attempt.examId, at, timeZone: ctx.timeZone })
    return { result, changes: { answers: [...answers], status, finalisedAt: at, score: result.score, passed: result.passed, result } }
  }

  /** Grades a loaded attempt and stores the result (caller holds the row lock). */
  const finalise = async (em: EntityManager, attempt: ExamAttemptEntity, status: Exclude<AttemptStatus, 'in_progress'>, answers: Answer[]) => {
    const { result, changes } = await grade(em, attempt, status, answers)
    em.assign(attempt, changes)
    return result
  }

  /** The same for a row read by `attemptRepository.lockAttemptRow`: one update statement, no change tracking of the snapshot. */
  const finaliseRow = async (em: EntityManager, attempt: AttemptRow, status: Exclude<AttemptStatus, 'in_progress'>, answers: Answer[]) => {
    const { result, changes } = await grade(em, attempt, status, answers)
    await attemptRepository.storeGraded(em, attempt.id, changes)
    return result
  }

  const lockAttempt = (em: EntityManager, id: string) => em.findOne(ExamAttemptEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })

  /** Finalises, one transaction each, the overdue attempts matching `where`; resolves with how many. */
  const finaliseOverdueWhere = async (where: { userId?: string }, limit = 100): Promise<number> => {
    const cutoff = new Date(now().getTime() - SUBMIT_GRACE_MS)
    const due = await orm.em.fork().find(ExamAttemptEntity, { ...where, status: 'in_progress', deadline: { $lt: cutoff } }, { fields: ['id'], limit, orderBy: { deadline: 'asc' } })
    let done = 0
    for (const { id } of due) {
      const finalised = await orm.em.fork().transactional(async (tx) => {
        const a = await lockAttempt(tx, id)
        if (!a || a.status !== 'in_progress' || !isOverdue(a, now())) return false
        await finalise(tx, a, 'expired', a.answers)
        return true
      })
      if (finalised) done++
    }
    return done
  }

  /** The attempt as the browser gets it: each question's options in the attempt's order only (never the pool's, nor the permutation). */
  const startResponse = (
    a: Pick<ExamAttemptEntity, 'id' | 'questions' | 'optionOrders' | 'deadline' | 'startedAt' | 'attemptNumber' | 'answers'>,
    resumed: boolean,
    countedNumber: number,
  ): StartAttemptResponse => ({
    attemptId: a.id,
    questions: a.questions.map((q, i) => toAttemptQuestion(q, a.optionOrders?.[i])),
    deadline: a.deadline.toISOString(),
    startedAt: a.startedAt.toISOString(),
    attemptNumber: a.attemptNumber,
    countedNumber,
    ...(resumed ? { answers: a.answers } : {}),
  })

  return {
    /** The sweeper's work: every attempt past its deadline (and the grace) is graded with its saved answers. */
    finaliseOverdue: (limit?: number) => finaliseOverdueWhere({}, limit),
    /** Lazy finalisation of one user's overdue attempts before reading their results. */
    finaliseOverdueOf: (userId: string) => finaliseOverdueWhere({ userId }),

    /**
     * Starts an attempt (201) or resumes the caller's unfinished one (200, same questions and saved
     * answers). Final exams allow `max_attempts` attempts; a started attempt counts, from the
     * opening of the learner's current cycle of a recurring assignment of the exam on.
     */
    async start(actor: Actor, examId: number): Promise<{ resumed: boolean; attempt: StartAttemptResponse }> {
      const out = await orm.em.fork().transactional(async (tx) => {
        const exam = await requireTakeable(tx, actor, examId)
        // Serializes the starts of one learner on one exam (double clicks, two tabs).
        await attemptRepository.lockStarts(tx, examId, actor.userId)
        // A recurring assignment's next cycle that opened before the scan came by starts the attempt count over first (decision 0051).
        await openRetakes(tx, { userId: actor.userId, kind: 'exam', itemId: examId }, { today: ctx.today(), at: now() })
        const open = await tx.findOne(ExamAttemptEntity, { examId, userId: actor.userId, status: 'in_progress' }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        if (open) {
          if (now().getTime() < open.deadline.getTime())
            return { resumed: true, attempt: startResponse(open, true, (await attemptRepository.countOf(tx, examId, actor.userId)).used) }
          await finalise(tx, open, 'expired', open.answers)
          await tx.flush()
        }
        const pool = await attemptRepository.poolOf(tx, examId)
        if (pool.length === 0) return { error: unprocessable(EXAM_MESSAGES.noQuestions, 'no_questions') }
        if (pool.length < exam.totalQuestions) return { error: unprocessable(EXAM_MESSAGES.poolTooSmall(exam.totalQuestions, pool.length), 'pool_too_small') }
        const { used, last } = await attemptRepository.countOf(tx, examId, actor.userId)
        if (exam.examType === 'final' && exam.maxAttempts !== null && exam.maxAttempts !== undefined && used >= exam.maxAttempts)
          return { error: conflict(`You have used all ${exam.maxAttempts} attempt(s) for this exam.`, 'attempts_exhausted') }
        const questions: Question[] = draw(pool, exam.totalQuestions)
        // Each question's options in an order of this attempt's own, held with it (decision 0045).
        const optionOrders = questions.map((q) => drawOptionOrder(q, exam.shuffleOptions))
        const startedAt = now()
        const attempt = {
          id: crypto.randomUUID(),
          attemptNumber: last + 1,
          questions,
          optionOrders,
          answers: questions.map((): Answer => -1),
          startedAt,
          deadline: new Date(startedAt.getTime() + exam.timeLimit * 60_000),
        }
        await attemptRepository.insertStarted(tx, { ...attempt, examId, userId: actor.userId, examName: exam.name, passScore: exam.passScore })
        return { resumed: false, attempt: startResponse(attempt, false, used + 1) }
      })
      // The expired attempt finalised on the way is committed (and announced) even when no new one could start.
      if ('error' in out) throw out.error
      return { resumed: out.resumed, attempt: out.attempt }
    },

    /** Saves answers as the learner goes (any subset of the attempt's questions), as indexes into the options as shown. */
    async saveAnswers(actor: Actor, attemptId: string, body: { answers: Answer[]; questionIds: number[] }) {
      const out = await orm.em.fork().transactional(async (tx) => {
        const a = requireOwnAttempt(actor, await lockAttempt(tx, attemptId))
        if (a.status !== 'in_progress') throw conflict('This attempt has already been submitted', 'attempt_finalised')
        if (isOverdue(a, now())) {
          await finalise(tx, a, 'expired', a.answers)
          return { late: true as const }
        }
        requireSameQuestions(a, body.questionIds, body.answers, true)
        const given = checkedAnswers(a, body.questionIds, body.answers)
        const savedAt = now()
        tx.assign(a, { answers: a.questions.map((q, i) => (given.has(q.id) ? given.get(q.id)! : a.answers[i]!)), answersSavedAt: savedAt })
        return { savedAt: savedAt.toISOString() }
      })
      if ('late' in out) {
        throw conflict('Time is up: this attempt was submitted with the answers saved before the deadline', 'attempt_finalised')
      }
      return out
    },

    /**
     * Grades the attempt on the server. A second submit returns the stored result; a submit after the
     * deadline (and the grace) returns the result graded from the answers saved in time.
     */
    async submit(
      actor: Actor,
      examId: number,
      body: { attemptId?: string | undefined; userId?: string | undefined; answers: Answer[]; questionIds: number[] },
    ): Promise<ExamSubmissionResult> {
      requireSubmitterIsCaller(actor, body.userId)
      return orm.em.fork().transactional(async (tx) => {
        const attemptId = body.attemptId ?? (await attemptRepository.latestAttemptId(tx, examId, actor.userId))
        const a = requireOwnAttempt(actor, attemptId ? await attemptRepository.lockAttemptRow(tx, attemptId) : null, examId)
        requireSameQuestions(a, body.questionIds, body.answers, false)
        // The stored result, keys in the contract's order (jsonb reorders them).
        if (a.status !== 'in_progress') return ExamSubmissionResult.parse(a.result)
        if (isOverdue(a, now())) return finaliseRow(tx, a, 'expired', a.answers)
        const given = checkedAnswers(a, body.questionIds, body.answers)
        return finaliseRow(
          tx,
          a,
          'submitted',
          a.questions.map((q) => given.get(q.id)!),
        )
      })
    },
  }
}
export type AttemptService = ReturnType<typeof createAttemptService>

/** Runs `finaliseOverdue` every `intervalMs` (one run at a time). */
export function startAttemptSweeper(svc: Pick<AttemptService, 'finaliseOverdue'>, opts: { intervalMs?: number; logger: LearningContext['logger'] }) {
  const task = createBackgroundTask({
    name: 'attempt sweeper',
    logger: opts.logger,
    intervalMs: opts.intervalMs ?? 3_000,
    runAtStart: false,
    pass: () => svc.finaliseOverdue(),
  })
  task.start()
  return { stop: () => task.stop() }
}
