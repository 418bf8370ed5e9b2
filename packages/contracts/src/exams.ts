import { z } from 'zod'

/** Exam limits and defaults (admin §4-§5, §9; learner §9). */
export const EXAM_LIMITS = {
  timeLimit: { min: 1, max: 180, default: 60 },
  passScore: { min: 0, max: 100, default: 70 },
  maxAttempts: { min: 1, max: 10 },
  totalQuestionsDefault: 10,
} as const

export const EXAM_MESSAGES = {
  atLeastOneQuestion: 'Must have at least 1 question',
  exceedsPool: (n: number) => `Cannot exceed question pool size (${n})`,
  notEnoughInPool: 'Not enough questions in the pool',
  questionTextRequired: 'Question text is required',
  optionTextRequired: 'Option text is required',
  categoryEmpty: 'Subject category names cannot be empty',
  categoryDuplicate: 'Subject category names must be unique',
  selectAtLeastOneUser: 'Please select at least one user',
  noQuestions: 'This exam has no questions.',
  poolTooSmall: (required: number, available: number) => `Not enough questions in pool. Required: ${required}, Available: ${available}`,
} as const

export const QuestionType = z.enum(['multiple_choice', 'multi_select'])
export type QuestionType = z.infer<typeof QuestionType>
export const ExamType = z.enum(['practice', 'final'])
export type ExamType = z.infer<typeof ExamType>

/** An answer: an option index (multiple_choice) or a sorted list of indexes (multi_select); -1 = unanswered. */
export const Answer = z.union([z.number().int().min(-1).max(99), z.array(z.number().int().min(0).max(99)).max(100)])
export type Answer = z.infer<typeof Answer>

/** A boolean whose error names the field (the exam form's new settings, issue 27). */
const flag = (field: string) => z.boolean({ error: `${field} must be true or false` })

/** A question as an admin writes it (blank options are dropped before the checks). */
export const QuestionInput = z.object({
  id: z.number().int().positive().optional(),
  question_type: QuestionType,
  question_text: z.string().trim().min(1, EXAM_MESSAGES.questionTextRequired).max(5000),
  options: z
    .array(z.string().trim().max(1000))
    .max(50)
    .transform((opts) => opts.filter((o) => o.length > 0))
    .pipe(z.array(z.string()).min(2, 'A question needs at least two options')),
  correct_answer: z.union([z.number().int().min(0), z.array(z.number().int().min(0)).max(50)]),
  subject_category: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((c) => (c ? c : null)),
  category_weight: z.number().positive().max(100).default(1),
  /**
   * Shown in the pool's order even when the exam shuffles options (e.g. "All of the above" last).
   * Left out: false for a new question, unchanged for a stored one.
   */
  keep_option_order: flag('keep_option_order').optional(),
})
export type QuestionInput = z.input<typeof QuestionInput>

/** The exam form's payload (POST /exams, PUT /exams/{id}); every rule of admin §5 holds on the server. */
export const ExamInput = z
  .object({
    name: z.string().trim().min(1, 'Exam name is required').max(300),
    time_limit: z.number().int().min(EXAM_LIMITS.timeLimit.min).max(EXAM_LIMITS.timeLimit.max),
    pass_score: z.number().min(EXAM_LIMITS.passScore.min).max(EXAM_LIMITS.passScore.max),
    total_questions: z.number().int().min(1, EXAM_MESSAGES.atLeastOneQuestion).max(1000),
    subject_categories: z.array(z.string().trim().max(200)).max(100).default([]),
    exam_type: ExamType,
    max_attempts: z.number().int().min(EXAM_LIMITS.maxAttempts.min).max(EXAM_LIMITS.maxAttempts.max).nullish(),
    is_assigned_to_all: z.boolean().default(false),
    /**
     * Each attempt shows every question's options in an order of its own, drawn by the server
     * (decision 0045). Left out: true for a new exam, unchanged for a stored one.
     */
    shuffle_options: flag('shuffle_options').optional(),
    questions: z.array(QuestionInput).max(1000),
  })
  .transform((e) => ({ ...e, max_attempts: e.exam_type === 'practice' ? null : (e.max_attempts ?? 1) }))
  .superRefine((e, ctx) => {
    const seen = new Set<string>()
    e.subject_categories.forEach((c, i) => {
      if (!c) ctx.addIssue({ code: 'custom', path: ['subject_categories', i], message: EXAM_MESSAGES.categoryEmpty })
      else if (seen.has(c.toLowerCase())) ctx.addIssue({ code: 'custom', path: ['subject_categories', i], message: EXAM_MESSAGES.categoryDuplicate })
      seen.add(c.toLowerCase())
    })
    if (e.total_questions > e.questions.length) ctx.addIssue({ code: 'custom', path: ['total_questions'], message: EXAM_MESSAGES.notEnoughInPool })
    e.questions.forEach((q, i) => {
      const n = q.options.length
      if (q.question_type === 'multiple_choice') {
        if (typeof q.correct_answer !== 'number' || q.correct_answer >= n)
          ctx.addIssue({ code: 'custom', path: ['questions', i, 'correct_answer'], message: 'The correct answer must be one of the options' })
      } else {
        const a = q.correct_answer
        const ok = Array.isArray(a) && a.length > 0 && a.every((x, j) => x < n && (j === 0 || x > a[j - 1]!))
        if (!ok)
          ctx.addIssue({
            code: 'custom',
            path: ['questions', i, 'correct_answer'],
            message: 'Select at least one correct option (a sorted list of option indexes)',
          })
      }
      if (q.subject_category && !e.subject_categories.includes(q.subject_category))
        ctx.addIssue({ code: 'custom', path: ['questions', i, 'subject_category'], message: 'Unknown subject category' })
    })
  })
export type ExamInput = z.input<typeof ExamInput>

export const Question = z.object({
  id: z.number().int(),
  question_type: QuestionType,
  question_text: z.string(),
  options: z.array(z.string()),
  correct_answer: z.union([z.number().int(), z.array(z.number().int())]),
  subject_category: z.string().nullable(),
  category_weight: z.number(),
  /** Options shown in this order whatever the exam's shuffle_options (optional within v1). */
  keep_option_order: z.boolean().optional(),
})
export type Question = z.infer<typeof Question>

/**
 * The caller's attempt under way (GET /exams, GET /exams/{id}): it stays open on the server and its
 * clock runs until the deadline, so the dashboard and the intro offer Resume with the time left.
 */
export const OpenAttempt = z.object({
  attempt_number: z.number().int(),
  started_at: z.string(),
  deadline: z.string(),
  /** Whole seconds left when the server answered (the browser's clock may be off). */
  seconds_left: z.number().int().min(0),
  /** Questions with a saved answer, of `questions`. */
  answered: z.number().int(),
  questions: z.number().int(),
})
export type OpenAttempt = z.infer<typeof OpenAttempt>

/** An exam with its pool, as admins see it. */
export const Exam = z.object({
  id: z.number().int(),
  name: z.string(),
  time_limit: z.number().int(),
  pass_score: z.number(),
  total_questions: z.number().int(),
  subject_categories: z.array(z.string()),
  exam_type: ExamType,
  max_attempts: z.number().int().nullable(),
  is_assigned_to_all: z.boolean(),
  /** Each attempt shows the options in an order of its own (optional within v1; absent: not shuffled). */
  shuffle_options: z.boolean().optional(),
  assigned_user_ids: z.array(z.string()),
  /** The pool: the active questions, offered to attempts and counted against total_questions. */
  questions: z.array(Question),
  /** Questions retired from the pool, kept for the attempts that answered them (optional within v1; issue 27). */
  retired_questions: z.array(Question.extend({ retired_at: z.string(), replaced_by: z.number().int().nullable() })).optional(),
  created_at: z.string(),
  /** GET /exams/{id} only: the caller's (an admin's) own open attempt, null when there is none. */
  open_attempt: OpenAttempt.nullable().optional(),
})
export type Exam = z.infer<typeof Exam>

/** An exam a learner may take (GET /exams for non-admins): no questions, no answers. */
export const ExamSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  time_limit: z.number().int(),
  pass_score: z.number(),
  total_questions: z.number().int(),
  exam_type: ExamType,
  max_attempts: z.number().int().nullable(),
  attempts_used: z.number().int(),
  is_assigned_to_all: z.boolean(),
  /** The caller's attempt under way, null when there is none (optional within v1). */
  open_attempt: OpenAttempt.nullable().optional(),
})
export type ExamSummary = z.infer<typeof ExamSummary>

/**
 * A question as a learner sees it during an attempt: no correct answer, no weight, and the options
 * in the order this attempt shows them (answers are indexes into it), never the pool's.
 */
export const AttemptQuestion = z.object({
  id: z.number().int(),
  question_type: QuestionType,
  question_text: z.string(),
  options: z.array(z.string()),
  subject_category: z.string().nullable(),
})
export type AttemptQuestion = z.infer<typeof AttemptQuestion>

/** GET /exams/{id} for a learner allowed to take it: the settings and the pool, never answers or weights. */
export const LearnerExam = ExamSummary.extend({
  subject_categories: z.array(z.string()),
  questions: z.array(AttemptQuestion),
})
export type LearnerExam = z.infer<typeof LearnerExam>

/** PUT /exams/attempts/{attemptId}/answers. */
export const SaveAnswersResponse = z.object({ savedAt: z.string() })

/** POST /exams/{id}/assign and POST /courses/{id}/assign. */
export const AssignResponse = z.object({
  message: z.string(),
  /** How many users the item is assigned to now (the selection and those kept by assignment rules). */
  assigned: z.number().int(),
  /**
   * Users left out of `userIds` who keep the item because a live assignment rule gives it to them
   * (issue 24, decision 0051): a manual assignment never takes away what a rule assigns (optional
   * within v1).
   */
  kept_by_rules: z.array(z.uuid()).optional(),
})
export type AssignResponse = z.infer<typeof AssignResponse>

/** The message of a manual assignment's answer: "Course assigned to 3 user(s), 1 of them kept because an assignment rule gives it to them". */
export const assignedMessage = (item: 'Course' | 'Exam', assigned: number, keptByRules: number) =>
  `${item} assigned to ${assigned} user(s)${keptByRules > 0 ? `, ${keptByRules} of them kept because an assignment rule gives it to them` : ''}`

export const StartAttemptResponse = z.object({
  attemptId: z.uuid(),
  questions: z.array(AttemptQuestion),
  deadline: z.string(),
  startedAt: z.string(),
  attemptNumber: z.number().int(),
  /**
   * The attempt's place among those `max_attempts` counts (issue 24: from a recurring assignment's
   * new cycle on, the count starts over while `attemptNumber` goes on). Optional within v1.
   */
  countedNumber: z.number().int().optional(),
  /** Answers saved so far when an attempt under way is resumed. */
  answers: z.array(Answer).optional(),
})
export type StartAttemptResponse = z.infer<typeof StartAttemptResponse>

export const SaveAnswersBody = z.object({
  answers: z.array(Answer).max(1000),
  questionIds: z.array(z.number().int().positive()).max(1000),
})

/**
 * POST /exams/{id}/submit. The spec's payload (learner §7) is `userId, answers, questionIds`: without
 * `attemptId` the learner's open attempt of the exam is submitted (or their last one, which answers
 * its stored result again); `userId`, when sent, must be the caller's.
 */
export const SubmitExamBody = z.object({
  attemptId: z.uuid().optional(),
  userId: z.string().max(100).optional(),
  answers: z.array(Answer).max(1000),
  questionIds: z.array(z.number().int().positive('Some questions are missing IDs')).max(1000),
})

/**
 * A question of a graded attempt as the learner saw it: `options` in the order shown, `user_answer`
 * and `correct_answer` indexes into that order.
 */
export const QuestionResult = z.object({
  question_id: z.number().int(),
  question_text: z.string(),
  options: z.array(z.string()),
  question_type: QuestionType,
  subject_category: z.string().nullable(),
  user_answer: Answer,
  correct_answer: z.union([z.number().int(), z.array(z.number().int())]),
  is_correct: z.boolean(),
  /** The question's category_weight: the score is Σ weight of the correct ones / Σ weight (optional within v1). */
  weight: z.number().optional(),
})
export const SectionScore = z.object({
  section_name: z.string(),
  section_score: z.number(),
  correct_answers: z.number().int(),
  questions_in_section: z.number().int(),
})

/** The exam submission result of learner §3. */
export const ExamSubmissionResult = z.object({
  attemptId: z.uuid(),
  examId: z.number().int(),
  exam_name: z.string(),
  score: z.number(),
  passed: z.boolean(),
  pass_score: z.number(),
  correct_answers: z.number().int(),
  total_questions: z.number().int(),
  attempt_number: z.number().int(),
  question_results: z.array(QuestionResult),
  section_scores: z.array(SectionScore),
  submitted_at: z.string(),
})
export type ExamSubmissionResult = z.infer<typeof ExamSubmissionResult>

export const AssignBody = z.object({
  userIds: z.array(z.uuid()).min(1, EXAM_MESSAGES.selectAtLeastOneUser).max(10_000),
})

/** GET /users/{id}/stats (learner §3 dashboard stats, admin §3 user stats). */
export const UserStats = z.object({
  examsTaken: z.number().int(),
  averageScore: z.number(),
  highestScore: z.number(),
  lowestScore: z.number(),
  coursesStarted: z.number().int(),
  coursesCompleted: z.number().int(),
  averageCourseProgress: z.number(),
  examHistory: z.array(z.object({ examId: z.number().int(), examName: z.string(), score: z.number(), passed: z.boolean(), completedAt: z.string() })),
  courseHistory: z.array(
    z.object({ courseId: z.number().int(), courseName: z.string(), progress: z.number(), completedAt: z.string().nullable(), lastAccessed: z.string().nullable() }),
  ),
})
export type UserStats = z.infer<typeof UserStats>

/** Score colours: exam results (admin §9) and section scores (learner §9). */
export const examScoreColour = (score: number) => (score >= 70 ? 'green' : score >= 60 ? 'yellow' : 'red')
export const sectionScoreColour = (score: number) => (score >= 80 ? 'green' : score >= 70 ? 'yellow' : 'red')
