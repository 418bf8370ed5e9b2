import { MikroORM } from '@mikro-orm/postgresql'
import { ExamInput } from '@portal/contracts'
import type { CourseService } from '../courses/index.ts'
import { ExamEntity, ExamQuestionEntity, examRepository } from '../exams/index.ts'
import { seedDemoCourse } from './demo-course.ts'
import { seedDemoRules } from './demo-rules.ts'
import type { LearningContext } from '../context.ts'

/** What seeding needs; `start()`'s result has it (without `courses`, no demo course is made; without `ctx`, no demo assignment rules). */
export interface SeedTarget {
  orm: MikroORM
  courses?: CourseService
  ctx?: LearningContext
}

const mc = (category: string, text: string, options: string[], correct: number) => ({
  question_type: 'multiple_choice' as const,
  question_text: text,
  options,
  correct_answer: correct,
  subject_category: category,
})
const ms = (category: string, text: string, options: string[], correct: number[], weight = 1) => ({
  question_type: 'multi_select' as const,
  question_text: text,
  options,
  correct_answer: correct,
  subject_category: category,
  category_weight: weight,
})

// The correct options sit at every position (issue 27: they were all listed first), and both exams
// shuffle the options per attempt anyway.
const ELECTRICAL_SAFETY = {
  name: 'Electrical Safety Basics',
  time_limit: 15,
  pass_score: 70,
  total_questions: 8,
  subject_categories: ['Hazard Awareness', 'Protective Equipment', 'Safe Work Practices'],
  exam_type: 'practice' as const,
  max_attempts: null,
  is_assigned_to_all: true,
  shuffle_options: true,
  questions: [
    mc('Hazard Awareness', 'What current through the body can be fatal?', ['Only above 5 A', 'Only above 1 A', 'As little as 50 mA', 'Current is never fatal'], 2),
    mc('Hazard Awareness', 'Which is the most common cause of arc flash?', ['Cold weather', 'Dropped tools or accidental contact', 'LED lighting', 'Low humidity'], 1),
    ms('Hazard Awareness', 'Which are signs of an electrical hazard?', ['Frayed cords', 'Labelled breakers', 'Warm outlets', 'Buzzing panels'], [0, 2, 3]),
    mc('Hazard Awareness', 'Water near energized equipment…', ['Reduces the risk of shock', 'Has no effect', 'Only matters outdoors', 'Increases the risk of shock'], 3),
    mc(
      'Protective Equipment',
      'Insulated gloves must be…',
      ['Rated for the voltage and inspected before use', 'Any thick work gloves', 'Leather only', 'Worn only above 1000 V'],
      0,
    ),
    ms(
      'Protective Equipment',
      'Which PPE is part of arc-rated protection?',
      ['Synthetic fleece', 'Arc-rated face shield', 'Arc-rated clothing', 'Voltage-rated gloves'],
      [1, 2, 3],
    ),
    mc('Protective Equipment', 'When should PPE be inspected?', ['Once a year', 'Only when it looks damaged', 'Before each use', 'Never, it is certified'], 2),
    ms(
      'Protective Equipment',
      'Which footwear properties help near live parts?',
      ['Steel toes alone', 'Dry, intact soles', 'Metal cleats', 'Electrical-hazard rated soles'],
      [1, 3],
    ),
    mc(
      'Safe Work Practices',
      'Before working on a circuit you should…',
      ['Work quickly', 'Tell a coworker only', 'Wear a watch for timing', 'De-energize it and verify absence of voltage'],
      3,
    ),
    ms(
      'Safe Work Practices',
      'Verifying absence of voltage includes…',
      ['Testing the tester on a known source', 'Trusting the breaker label', 'Testing each conductor', 'Re-testing the tester afterwards'],
      [0, 2, 3],
      2,
    ),
    mc('Safe Work Practices', 'A ladder used near electrical lines should be…', ['Aluminium', 'Non-conductive (fiberglass)', 'Wet-cleaned first', 'As tall as possible'], 1),
    mc('Safe Work Practices', 'Who may repair damaged electrical equipment?', ['A qualified person', 'Anyone with tools', 'The closest worker', 'Nobody, ever'], 0),
  ],
}

const LOCKOUT_TAGOUT = {
  name: 'Lockout/Tagout Certification',
  time_limit: 20,
  pass_score: 80,
  total_questions: 10,
  subject_categories: ['Energy Control', 'Procedure'],
  exam_type: 'final' as const,
  max_attempts: 2,
  is_assigned_to_all: true,
  shuffle_options: true,
  questions: [
    mc(
      'Energy Control',
      'What is the purpose of lockout/tagout?',
      ['Save electricity', 'Track tool usage', 'Prevent unexpected release of hazardous energy', 'Mark finished work'],
      2,
    ),
    ms('Energy Control', 'Which are hazardous energy sources?', ['Paint colour', 'Electrical', 'Hydraulic', 'Stored spring tension'], [1, 2, 3]),
    mc('Energy Control', 'Stored energy (capacitors, springs) must be…', ['Ignored once locked', 'Released or restrained', 'Measured next week', 'Tagged only'], 1),
    mc(
      'Energy Control',
      'A tag alone (without a lock) is acceptable when…',
      ['Always', 'Never on any equipment', 'The job is short', 'The device cannot accept a lock and extra measures are used'],
      3,
    ),
    ms(
      'Energy Control',
      'Which verify zero energy state?',
      ['Attempting a normal start', 'Looking at the panel', 'Testing with a meter', 'Bleeding pressure gauges to zero'],
      [0, 2, 3],
      2,
    ),
    mc(
      'Procedure',
      'Who removes a lock?',
      ['Any supervisor', 'The next shift', 'Whoever finishes first', 'Only the person who applied it (or per the employer’s removal procedure)'],
      3,
    ),
    mc('Procedure', 'What comes first in a lockout procedure?', ['Notify affected employees', 'Remove guards', 'Start the machine', 'Apply the tag'], 0),
    ms('Procedure', 'Which belong on a lockout tag?', ['Name of the person applying it', 'Favourite tool', 'Date', 'Reason for lockout'], [0, 2, 3]),
    mc('Procedure', 'In group lockout each worker…', ['Shares one key', 'Relies on the supervisor’s lock', 'Applies their own personal lock', 'Needs no lock'], 2),
    mc(
      'Procedure',
      'Before re-energizing you must…',
      ['Remove locks as fast as possible', 'Check the area and ensure all workers are clear', 'Skip notification', 'Leave tools in place'],
      1,
    ),
  ],
}

/** The exams seeded on a first start (as the exam form would send them). */
export const DEMO_EXAMS = [ELECTRICAL_SAFETY, LOCKOUT_TAGOUT]

/**
 * Creates the demo exams when there are none, the demo course "Field Safety Essentials" when
 * there is no course (with `courses`), and the demo assignment rules when no rule was ever made
 * (with `ctx`); resolves with the exam names created.
 */
export async function seedDemoData(target: SeedTarget | MikroORM, _opts: Record<string, never> = {}): Promise<string[]> {
  const orm = target instanceof MikroORM ? target : target.orm
  const names = await seedDemoExams(orm)
  if (!(target instanceof MikroORM) && target.courses) await seedDemoCourse(orm, target.courses)
  if (!(target instanceof MikroORM) && target.ctx) await seedDemoRules(target.ctx)
  return names
}

async function seedDemoExams(orm: MikroORM): Promise<string[]> {
  return orm.em.fork().transactional(async (em) => {
    // Serialize concurrent first starts of several instances.
    await examRepository.lockForSeeding(em)
    if ((await em.count(ExamEntity, {})) > 0) return []
    const at = new Date()
    const names: string[] = []
    for (const input of DEMO_EXAMS) {
      const data = ExamInput.parse(input)
      const exam = em.create(ExamEntity, {
        name: data.name,
        timeLimit: data.time_limit,
        passScore: data.pass_score,
        totalQuestions: data.total_questions,
        subjectCategories: data.subject_categories,
        examType: data.exam_type,
        maxAttempts: data.max_attempts,
        isAssignedToAll: data.is_assigned_to_all,
        shuffleOptions: data.shuffle_options ?? true,
        createdAt: at,
        updatedAt: at,
      })
      await em.flush()
      data.questions.forEach((q, i) =>
        em.create(ExamQuestionEntity, {
          examId: exam.id,
          position: i,
          questionType: q.question_type,
          questionText: q.question_text,
          options: q.options,
          correctAnswer: q.correct_answer,
          subjectCategory: q.subject_category,
          categoryWeight: q.category_weight,
          keepOptionOrder: q.keep_option_order ?? false,
        }),
      )
      names.push(data.name)
    }
    return names
  })
}
