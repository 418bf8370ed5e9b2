import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { AttemptQuestion, Exam, ExamSummary, ExamType, Question, QuestionType } from '@portal/contracts'
import { shownOptions, type OptionOrder } from './option-order.ts'

/** An exam and its settings; its pool lives in `exam_questions`. */
export const ExamEntity = defineEntity({
  name: 'ExamEntity',
  tableName: 'exams',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string(),
    timeLimit: p.integer(),
    passScore: p.double().$type<number>(),
    totalQuestions: p.integer(),
    subjectCategories: p.json<string[]>(),
    examType: p.string().$type<ExamType>(),
    maxAttempts: p.integer().nullable(),
    isAssignedToAll: p.boolean(),
    /** Each attempt shows the options in an order of its own (decision 0045). */
    shuffleOptions: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
})
export type ExamEntity = InferEntity<typeof ExamEntity>

/** A question of an exam's pool. */
export const ExamQuestionEntity = defineEntity({
  name: 'ExamQuestionEntity',
  tableName: 'exam_questions',
  properties: {
    id: p.integer().primary().autoincrement(),
    examId: p.integer(),
    position: p.integer(),
    questionType: p.string().$type<QuestionType>(),
    questionText: p.string(),
    options: p.json<string[]>(),
    correctAnswer: p.json<number | number[]>(),
    subjectCategory: p.string().nullable(),
    categoryWeight: p.double().$type<number>(),
    /** Options always in this order, even when the exam shuffles (e.g. "All of the above"). */
    keepOptionOrder: p.boolean(),
    /** Retired from the pool: kept for the attempts that answered it, never offered again (issue 27). */
    retiredAt: p.datetime().nullable(),
    /** The question this one is a new version of. */
    replacesId: p.integer().nullable(),
  },
})
export type ExamQuestionEntity = InferEntity<typeof ExamQuestionEntity>

/** An exam assigned to one user (besides `is_assigned_to_all`). */
export const ExamAssignmentEntity = defineEntity({
  name: 'ExamAssignmentEntity',
  tableName: 'exam_assignments',
  properties: {
    examId: p.integer().primary(),
    userId: p.uuid().primary(),
    assignedAt: p.datetime(),
  },
})
export type ExamAssignmentEntity = InferEntity<typeof ExamAssignmentEntity>

export function toQuestionDto(q: ExamQuestionEntity): Question {
  return {
    id: q.id,
    question_type: q.questionType,
    question_text: q.questionText,
    options: q.options,
    correct_answer: q.correctAnswer,
    subject_category: q.subjectCategory ?? null,
    category_weight: q.categoryWeight,
    keep_option_order: q.keepOptionOrder,
  }
}

/**
 * A question without its answer and weight, its options in the order the attempt shows them
 * (`order`: the pool index of each position): what a learner may see.
 */
export const toAttemptQuestion = (q: Question, order: OptionOrder | null | undefined): AttemptQuestion => ({
  id: q.id,
  question_type: q.question_type,
  question_text: q.question_text,
  options: shownOptions(q.options, order),
  subject_category: q.subject_category,
})

/** The exam as admins see it (contracts `Exam`). */
export function toExamDto(e: ExamEntity, questions: ExamQuestionEntity[], assignedUserIds: string[]): Exam {
  return {
    id: e.id,
    name: e.name,
    time_limit: e.timeLimit,
    pass_score: e.passScore,
    total_questions: e.totalQuestions,
    subject_categories: e.subjectCategories,
    exam_type: e.examType,
    max_attempts: e.maxAttempts ?? null,
    is_assigned_to_all: e.isAssignedToAll,
    shuffle_options: e.shuffleOptions,
    assigned_user_ids: assignedUserIds,
    // The pool offered to attempts; retired questions apart, each with the version that replaced it.
    questions: questions.filter((q) => !q.retiredAt).map(toQuestionDto),
    retired_questions: questions
      .filter((q) => q.retiredAt)
      .map((q) => ({ ...toQuestionDto(q), retired_at: q.retiredAt!.toISOString(), replaced_by: questions.find((n) => n.replacesId === q.id)?.id ?? null })),
    created_at: e.createdAt.toISOString(),
  }
}

export function toExamSummary(e: ExamEntity, attemptsUsed: number): ExamSummary {
  return {
    id: e.id,
    name: e.name,
    time_limit: e.timeLimit,
    pass_score: e.passScore,
    total_questions: e.totalQuestions,
    exam_type: e.examType,
    max_attempts: e.maxAttempts ?? null,
    attempts_used: attemptsUsed,
    is_assigned_to_all: e.isAssignedToAll,
  }
}
