import { LockMode, type EntityManager } from '@mikro-orm/postgresql'
import type { z } from 'zod'
import type { Exam, ExamInput, ExamSummary, LearnerExam, OpenAttempt } from '@portal/contracts'
import { EXAM_MESSAGES, assignedMessage, type AssignResponse } from '@portal/contracts'
import { AppError, badRequest, notFound, type Actor } from '@portal/server-kit'
import { itemAnalysisRepository } from '../item-analysis/index.ts'
import type { LearningContext } from '../context.ts'
import { requireAssignable } from '../users/index.ts'
import { examNotFound, requireTakeable, takeableExams } from './access.ts'
import { ExamAssignmentEntity, ExamEntity, ExamQuestionEntity, toExamDto, toExamSummary } from './exam.entity.ts'
import { examRepository } from './exam.repository.ts'
import { deleteRulesOfItem, keepAccessOfRules, openRetakes, usersKeptByRules } from '../assignments/index.ts'

export type ExamData = z.output<typeof ExamInput>

async function loadFull(em: EntityManager, exams: ExamEntity[]): Promise<Exam[]> {
  const ids = exams.map((e) => e.id)
  const [questions, assignments] = await Promise.all([examRepository.questionsOf(em, ids), examRepository.assignmentsOf(em, ids)])
  return exams.map((e) =>
    toExamDto(
      e,
      questions.filter((q) => q.examId === e.id),
      assignments.filter((a) => a.examId === e.id).map((a) => a.userId),
    ),
  )
}

/** The exam's settings; what the payload leaves out of the issue 27 ones stays as stored (shuffling: on for a new exam). */
const settings = (data: ExamData, stored?: ExamEntity) => ({
  name: data.name,
  timeLimit: data.time_limit,
  passScore: data.pass_score,
  totalQuestions: data.total_questions,
  subjectCategories: data.subject_categories,
  examType: data.exam_type,
  maxAttempts: data.max_attempts,
  isAssignedToAll: data.is_assigned_to_all,
  shuffleOptions: data.shuffle_options ?? stored?.shuffleOptions ?? true,
})

const questionFields = (q: ExamData['questions'][number], position: number, stored?: ExamQuestionEntity) => ({
  position,
  questionType: q.question_type,
  questionText: q.question_text,
  options: q.options,
  correctAnswer: q.correct_answer,
  subjectCategory: q.subject_category,
  categoryWeight: q.category_weight,
  keepOptionOrder: q.keep_option_order ?? stored?.keepOptionOrder ?? false,
})

const questionNotFound = () => notFound('Question not found', 'question_not_found')

/** Whether an edit changes what a learner answers (text, type, options, correct answer): an answered question then gets a new version. */
const isNewVersion = (stored: ExamQuestionEntity, next: ReturnType<typeof questionFields>) =>
  stored.questionText !== next.questionText ||
  stored.questionType !== next.questionType ||
  JSON.stringify(stored.options) !== JSON.stringify(next.options) ||
  JSON.stringify(stored.correctAnswer) !== JSON.stringify(next.correctAnswer)

const isAnswered = (a: unknown) => (Array.isArray(a) ? a.length > 0 : typeof a === 'number' && a >= 0)

/** An attempt under way as the dashboard and the intro show it (time left by the server's clock). */
const toOpenAttempt = (open: { attemptNumber: number; startedAt: Date; deadline: Date; answers: unknown[] } | undefined, at: Date): OpenAttempt | null =>
  open
    ? {
        attempt_number: open.attemptNumber,
        started_at: open.startedAt.toISOString(),
        deadline: open.deadline.toISOString(),
        seconds_left: Math.max(0, Math.ceil((open.deadline.getTime() - at.getTime()) / 1000)),
        answered: open.answers.filter(isAnswered).length,
        questions: open.answers.length,
      }
    : null

export function createExamService(ctx: LearningContext) {
  const { orm, now } = ctx

  const getFull = async (em: EntityManager, id: number) => {
    const exam = await examRepository.findById(em, id)
    if (!exam) throw examNotFound()
    return (await loadFull(em, [exam]))[0]!
  }

  return {
    /** What the caller may take (admins: every exam), newest first, with the caller's attempts under way. */
    async listForCaller(actor: Actor): Promise<ExamSummary[]> {
      const em = orm.em.fork()
      const exams = await takeableExams(em, actor)
      const at = now()
      // Attempts used count from a recurring assignment's cycle that opened (decision 0051): rolled forward first if the scan has not yet.
      await openRetakes(em, { userId: actor.userId, kind: 'exam' }, { today: ctx.today(), at })
      const [used, open] = await Promise.all([examRepository.attemptCounts(em, actor.userId), examRepository.openAttempts(em, actor.userId, at)])
      return exams.map((e) => ({ ...toExamSummary(e, used.get(e.id) ?? 0), open_attempt: toOpenAttempt(open.get(e.id), at) }))
    },

    /** Every exam with its pool and answers (admins). */
    async listAdmin(): Promise<Exam[]> {
      const em = orm.em.fork()
      return loadFull(em, await examRepository.listAll(em))
    },

    /**
     * Admins get the whole exam; a learner allowed to take it gets it without answers or weights.
     * Both get their own attempt under way (`open_attempt`), which the intro offers to resume.
     */
    async get(actor: Actor, id: number): Promise<Exam | LearnerExam> {
      const em = orm.em.fork()
      const exam = await requireTakeable(em, actor, id)
      const at = now()
      await openRetakes(em, { userId: actor.userId, kind: 'exam', itemId: id }, { today: ctx.today(), at })
      const open_attempt = toOpenAttempt((await examRepository.openAttempts(em, actor.userId, at, id)).get(id), at)
      if (actor.isAdmin) return { ...(await getFull(em, id)), open_attempt }
      // The intro needs no questions; a learner sees the drawn ones only once an attempt starts.
      const used = (await examRepository.attemptCounts(em, actor.userId)).get(id) ?? 0
      return { ...toExamSummary(exam, used), subject_categories: exam.subjectCategories, questions: [], open_attempt }
    },

    async create(data: ExamData): Promise<Exam> {
      const em = orm.em.fork()
      const id = await em.transactional(async (tx) => {
        const at = now()
        const exam = tx.create(ExamEntity, { ...settings(data), createdAt: at, updatedAt: at })
        await tx.flush()
        data.questions.forEach((q, i) => tx.create(ExamQuestionEntity, { examId: exam.id, ...questionFields(q, i) }))
        return exam.id
      })
      return getFull(orm.em.fork(), id)
    },

    /**
     * Replaces the settings and the pool (its active questions; retired ones stay as they are):
     * questions with an id are updated in place, new ones added, missing ones removed. A question
     * graded attempts have answered is never changed or removed (issue 27): an edit of it makes a new
     * version in its place and retires it, and leaving it out retires it. Attempts keep their own
     * snapshot, so graded results do not change.
     */
    async update(id: number, data: ExamData): Promise<Exam> {
      await orm.em.fork().transactional(async (tx) => {
        // The row locked: switched off "assigned to everyone", the rules' people keep it (below) before a rule save decides on access.
        const exam = await tx.findOne(ExamEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        if (!exam) throw examNotFound()
        const existing = new Map((await examRepository.questionsOf(tx, [id])).filter((q) => !q.retiredAt).map((q) => [q.id, q]))
        const answered = await itemAnalysisRepository.answered(tx, [...existing.keys()])
        const at = now()
        const kept = new Set<number>()
        data.questions.forEach((q, i) => {
          if (q.id === undefined) return
          if (!existing.has(q.id)) throw badRequest(`Question ${q.id} does not belong to this exam`, 'unknown_question')
          if (kept.has(q.id)) throw badRequest(`Question ${q.id} appears twice`, 'duplicate_question')
          kept.add(q.id)
          const stored = existing.get(q.id)!
          const fields = questionFields(q, i, stored)
          if (answered.has(q.id) && isNewVersion(stored, fields)) {
            tx.assign(stored, { retiredAt: at })
            tx.create(ExamQuestionEntity, { examId: id, ...fields, replacesId: stored.id })
          } else tx.assign(stored, fields)
        })
        for (const [qid, q] of existing) {
          if (kept.has(qid)) continue
          if (answered.has(qid)) tx.assign(q, { retiredAt: at })
          else tx.remove(q)
        }
        data.questions.forEach((q, i) => {
          if (q.id === undefined) tx.create(ExamQuestionEntity, { examId: id, ...questionFields(q, i) })
        })
        // No longer everyone's: the people its assignment rules assign keep it (issue 24).
        if (exam.isAssignedToAll && !data.is_assigned_to_all) await keepAccessOfRules(tx, 'exam', id, at)
        tx.assign(exam, { ...settings(data, exam), updatedAt: at })
      })
      return getFull(orm.em.fork(), id)
    },

    /**
     * Retires a question from the pool (kept for the attempts that answered it, never offered
     * again), unless the active questions left would be fewer than the exam draws (admin §5).
     */
    async retireQuestion(id: number, questionId: number): Promise<Exam> {
      await orm.em.fork().transactional(async (tx) => {
        const exam = await examRepository.findById(tx, id)
        if (!exam) throw examNotFound()
        const questions = await examRepository.questionsOf(tx, [id])
        const q = questions.find((x) => x.id === questionId)
        if (!q) throw questionNotFound()
        if (q.retiredAt) return
        const active = questions.filter((x) => !x.retiredAt).length
        if (active - 1 < exam.totalQuestions) throw new AppError(422, 'not_enough_in_pool', EXAM_MESSAGES.notEnoughInPool)
        tx.assign(q, { retiredAt: now() })
      })
      return getFull(orm.em.fork(), id)
    },

    /** Puts a retired question back into the pool. */
    async restoreQuestion(id: number, questionId: number): Promise<Exam> {
      await orm.em.fork().transactional(async (tx) => {
        const exam = await examRepository.findById(tx, id)
        if (!exam) throw examNotFound()
        const q = (await examRepository.questionsOf(tx, [id])).find((x) => x.id === questionId)
        if (!q) throw questionNotFound()
        tx.assign(q, { retiredAt: null })
      })
      return getFull(orm.em.fork(), id)
    },

    /** Deletes the exam, its pool and assignments; graded attempts stay for history and stats. */
    async remove(id: number) {
      await orm.em.fork().transactional(async (tx) => {
        const exam = await examRepository.findById(tx, id)
        if (!exam) throw examNotFound()
        // An attempt under way can no longer be taken: it is dropped (it was never graded).
        await examRepository.deleteAttemptsInProgressOfExam(tx, id)
        // Its assignment rules go with it (issue 24), announced while its name is still there.
        await deleteRulesOfItem(tx, 'exam', id, now())
        tx.remove(exam)
      })
      return { message: 'Exam deleted successfully' }
    },

    /**
     * Sets who the exam is assigned to: the selected users (existing non-admins) replace the
     * previous selection (the assign dialog shows the current one, from `assigned_user_ids`), except
     * that people a live assignment rule gives the exam keep it (issue 24): the answer names them.
     */
    async assign(id: number, userIds: string[]): Promise<AssignResponse> {
      const unique = [...new Set(userIds)]
      const { total, kept } = await orm.em.fork().transactional(async (tx) => {
        // The row locked: a rule save or a user joining gives access after this, or is seen by it.
        const exam = await tx.findOne(ExamEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        if (!exam) throw examNotFound()
        await requireAssignable(tx, unique)
        const chosen = new Set(unique)
        const kept = (await usersKeptByRules(tx, 'exam', id)).filter((u) => !chosen.has(u))
        await tx.nativeDelete(ExamAssignmentEntity, { examId: id })
        const at = now()
        for (const userId of [...unique, ...kept]) tx.create(ExamAssignmentEntity, { examId: id, userId, assignedAt: at })
        return { total: unique.length + kept.length, kept }
      })
      return { message: assignedMessage('Exam', total, kept.length), assigned: total, kept_by_rules: kept }
    },
  }
}
export type ExamService = ReturnType<typeof createExamService>
