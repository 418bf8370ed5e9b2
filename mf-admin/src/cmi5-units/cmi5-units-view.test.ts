import type { Cmi5AuStatus, Course, CourseModule } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { auStatusLabels, auStatusText, isWaivable, learnerCmi5Modules, WAIVE_REASON_OPTIONS } from './cmi5-units-view.ts'

const au = (over: Partial<Cmi5AuStatus> = {}): Cmi5AuStatus => ({
  id: 'https://example.com/au/1',
  title: 'Rocks',
  moveOn: 'Passed',
  launchMethod: 'AnyWindow',
  completed: false,
  passed: false,
  failed: false,
  satisfied: false,
  waived: false,
  launched: false,
  score: null,
  ...over,
})

const mod = (id: number, over: Partial<CourseModule> = {}): CourseModule => ({
  id,
  course_id: 1,
  title: `Module ${id}`,
  order: id,
  file_path: 'm.zip',
  size: 1,
  is_scorm: true,
  content_type: 'application/zip',
  processing_status: 'ready',
  processing_error: null,
  scorm_version: 'cmi5',
  scorm_edition: null,
  sco_count: 1,
  ...over,
})

const course = (id: number, over: Partial<Course> = {}): Course => ({
  id,
  title: `Course ${id}`,
  is_assigned_to_all: false,
  assigned_user_ids: [],
  modules: [],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  ...over,
})

describe('a learner’s AU in words', () => {
  it('says what the learner viewer says', () => {
    expect(auStatusLabels(au())).toEqual(['Not started'])
    expect(auStatusLabels(au({ launched: true }))).toEqual(['In progress'])
    expect(auStatusLabels(au({ completed: true, passed: true, satisfied: true }))).toEqual(['Completed', 'Passed'])
    expect(auStatusLabels(au({ failed: true, launched: true }))).toEqual(['Failed'])
    expect(auStatusLabels(au({ moveOn: 'NotApplicable', satisfied: true }))).toEqual(['Satisfied'])
    expect(auStatusLabels(au({ waived: true, satisfied: true, failed: true }))).toEqual(['Waived'])
  })

  it('adds the score of the last Passed or Failed, not to a waiver', () => {
    expect(auStatusText(au({ failed: true, score: 0.456 }))).toBe('Failed · Score 46%')
    expect(auStatusText(au({ completed: true, passed: true, score: 0.8 }))).toBe('Completed, Passed · Score 80%')
    expect(auStatusText(au({ waived: true, satisfied: true, score: 0.2 }))).toBe('Waived')
  })

  it('offers Waive only while the unit is not satisfied', () => {
    expect(isWaivable(au({ failed: true }))).toBe(true)
    expect(isWaivable(au({ completed: true, moveOn: 'CompletedAndPassed' }))).toBe(true)
    expect(isWaivable(au({ completed: true, satisfied: true }))).toBe(false)
    expect(isWaivable(au({ waived: true, satisfied: true }))).toBe(false)
  })

  it('offers the four reasons of cmi5', () => {
    expect(WAIVE_REASON_OPTIONS.map((o) => o.label)).toEqual(['Tested Out', 'Equivalent AU', 'Equivalent Outside Activity', 'Administrative'])
  })
})

describe('the learner’s cmi5 modules', () => {
  it('are the ready cmi5 modules of courses assigned to them or to everyone, in module order', () => {
    const courses = [
      course(1, { assigned_user_ids: ['u1'], modules: [mod(12, { order: 2 }), mod(11, { order: 1 }), mod(13, { scorm_version: '2004' })] }),
      course(2, { is_assigned_to_all: true, modules: [mod(21), mod(22, { processing_status: 'processing' }), mod(23, { processing_status: 'failed' })] }),
      course(3, { assigned_user_ids: ['u2'], modules: [mod(31)] }),
      course(4, { is_assigned_to_all: true, modules: [mod(41, { is_scorm: false, scorm_version: null })] }),
    ]
    expect(learnerCmi5Modules(courses, 'u1').map((m) => [m.course.title, m.module.id])).toEqual([
      ['Course 1', 11],
      ['Course 1', 12],
      ['Course 2', 21],
    ])
    expect(learnerCmi5Modules(courses, 'u3')).toEqual([{ course: { id: 2, title: 'Course 2' }, module: courses[1]!.modules[0] }])
  })
})
