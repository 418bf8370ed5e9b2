import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { Answer, ExamSubmissionResult, Question } from '@portal/contracts'
import type { OptionOrder } from '../option-order.ts'

export type AttemptStatus = 'in_progress' | 'submitted' | 'expired'

/**
 * One sitting of an exam by one learner. `questions` is a snapshot (text, options, correct answer,
 * category, weight) in the order drawn, so later edits of the exam never change a graded attempt;
 * `optionOrders` holds, per question, the order its options are shown in (decision 0045: null for
 * attempts started before, which show the stored order); `answers` is aligned with the questions,
 * each an index into the options as shown (-1 = unanswered).
 */
export const ExamAttemptEntity = defineEntity({
  name: 'ExamAttemptEntity',
  tableName: 'exam_attempts',
  properties: {
    id: p.uuid().primary(),
    examId: p.integer(),
    userId: p.uuid(),
    attemptNumber: p.integer(),
    examName: p.string(),
    passScore: p.double().$type<number>(),
    questions: p.json<Question[]>(),
    optionOrders: p.json<OptionOrder[]>().nullable(),
    answers: p.json<Answer[]>(),
    status: p.string().$type<AttemptStatus>(),
    startedAt: p.datetime(),
    deadline: p.datetime(),
    answersSavedAt: p.datetime().nullable(),
    finalisedAt: p.datetime().nullable(),
    score: p.double().$type<number>().nullable(),
    passed: p.boolean().nullable(),
    result: p.json<ExamSubmissionResult>().nullable(),
  },
})
export type ExamAttemptEntity = InferEntity<typeof ExamAttemptEntity>
