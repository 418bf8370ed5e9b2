import type { LearnerModule } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import {
  completedByText,
  completedOnText,
  completedText,
  courseStatusLabel,
  courseToContinue,
  initialModule,
  moduleCountText,
  moduleKind,
  modulePositionText,
  moduleStatusLabel,
  moduleTypeLabel,
  percent,
  percentText,
} from './course-view.ts'

const mod = (id: number, over: Partial<LearnerModule> = {}): LearnerModule => ({
  id,
  course_id: 1,
  title: `Module ${id}`,
  order: id,
  file_path: 'file.pdf',
  size: 10,
  is_scorm: false,
  content_type: 'application/pdf',
  processing_status: 'ready',
  processing_error: null,
  scorm_version: null,
  scorm_edition: null,
  sco_count: 0,
  is_unlocked: true,
  started_at: null,
  completed_at: null,
  progress: 0,
  last_accessed: null,
  ...over,
})

describe('continue where you left off', () => {
  const course = (id: number, status: 'completed' | 'in-progress' | 'not-started', modules: LearnerModule[]) => ({ id, status, modules })
  it('picks the course under way the learner worked on last', () => {
    const older = course(1, 'in-progress', [mod(1, { started_at: '2026-11-01T10:00:00Z', last_accessed: '2026-11-02T10:00:00Z' })])
    const newer = course(2, 'in-progress', [mod(2, { started_at: '2026-11-03T10:00:00Z' })])
    const done = course(3, 'completed', [mod(3, { last_accessed: '2026-11-20T10:00:00Z' })])
    expect(courseToContinue([older, newer, done])?.id).toBe(2)
  })

  it('has nothing to continue when no course is under way', () => {
    expect(courseToContinue([course(1, 'not-started', [mod(1)]), course(2, 'completed', [mod(2)])])).toBeNull()
  })
})

describe('initial module', () => {
  it('opens the requested module when it is unlocked', () => {
    expect(initialModule([mod(1), mod(2), mod(3)], 2)?.id).toBe(2)
  })

  it('opens the first unlocked incomplete module when the requested one is locked or unknown', () => {
    const modules = [mod(1, { completed_at: '2026-01-01T00:00:00Z' }), mod(2, { is_unlocked: false }), mod(3)]
    expect(initialModule(modules, 2)?.id).toBe(3)
    expect(initialModule(modules, 99)?.id).toBe(3)
    expect(initialModule(modules)?.id).toBe(3)
  })

  it('goes by course order, not list order', () => {
    expect(initialModule([mod(7, { order: 3 }), mod(8, { order: 1 }), mod(9, { order: 2 })])?.id).toBe(8)
  })

  it('falls back to the first module when every unlocked one is complete', () => {
    const done = '2026-01-01T00:00:00Z'
    expect(initialModule([mod(1, { completed_at: done }), mod(2, { completed_at: done }), mod(3, { is_unlocked: false })])?.id).toBe(1)
  })

  it('has nothing to open in a course without modules', () => {
    expect(initialModule([], 1)).toBeNull()
  })
})

describe('course and module labels', () => {
  it('names course statuses as the badges do', () => {
    expect(courseStatusLabel('completed')).toBe('Completed')
    expect(courseStatusLabel('in-progress')).toBe('In Progress')
    expect(courseStatusLabel('not-started')).toBe('Not Started')
  })

  it('shows whole, clamped percents', () => {
    expect(percent(33.4)).toBe(33)
    expect(percent(-5)).toBe(0)
    expect(percent(140)).toBe(100)
    expect(percent(Number.NaN)).toBe(0)
    expect(percentText(66.6)).toBe('67%')
  })

  it('counts modules in words', () => {
    expect(moduleCountText(1)).toBe('1 module')
    expect(moduleCountText(4)).toBe('4 modules')
  })

  it('badges a module by its kind of content', () => {
    expect(moduleTypeLabel(mod(1, { is_scorm: true, content_type: 'application/zip' }))).toBe('SCORM')
    expect(moduleTypeLabel(mod(1, { is_scorm: true, content_type: 'application/zip', scorm_version: 'cmi5' }))).toBe('cmi5')
    expect(moduleTypeLabel(mod(1, { content_type: 'video/mp4' }))).toBe('Video')
    expect(moduleTypeLabel(mod(1, { content_type: 'video/webm' }))).toBe('Video')
    expect(moduleTypeLabel(mod(1))).toBe('PDF')
    expect(moduleTypeLabel(mod(1, { content_type: 'audio/mpeg' }))).toBe('Audio')
    expect(moduleTypeLabel(mod(1, { content_type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' }))).toBe('Slides')
    expect(moduleKind(mod(1, { content_type: 'application/octet-stream', file_path: 'deck.PPTX' }))).toBe('slides')
    expect(moduleKind(mod(1, { content_type: 'application/octet-stream', file_path: 'notes.bin' }))).toBe('file')
  })

  it('gives module statuses: completed first, then current, then available or locked', () => {
    expect(moduleStatusLabel(mod(1, { completed_at: '2026-01-01T00:00:00Z' }), 1)).toBe('Completed')
    expect(moduleStatusLabel(mod(1), 1)).toBe('Current')
    expect(moduleStatusLabel(mod(1), 2)).toBe('Available')
    expect(moduleStatusLabel(mod(1, { is_unlocked: false }), 2)).toBe('Locked')
  })

  it('says how many modules are completed and where the current one is', () => {
    const modules = [mod(1, { completed_at: '2026-01-01T00:00:00Z', order: 2 }), mod(2, { order: 1 }), mod(3, { order: 3 })]
    expect(completedText(modules)).toBe('1 of 3 modules completed')
    expect(modulePositionText(modules, 1)).toBe('Module 2 of 3')
    expect(modulePositionText(modules, 42)).toBeNull()
  })

  it('formats completion dates and ignores missing ones', () => {
    expect(completedOnText('2026-11-22T10:00:00Z')).toBe('Completed Nov 22, 2026')
    expect(completedOnText(null)).toBeNull()
    expect(completedOnText('not a date')).toBeNull()
  })

  it('says which rule completed a module (issue 15)', () => {
    expect(completedByText('scorm-commit')).toBe('The lesson reported it complete')
    expect(completedByText('tracker')).toBe('Time and activity in the module')
    expect(completedByText('manual')).toBe('You marked it complete')
    expect(completedByText(null)).toBeNull()
    expect(completedByText('something new')).toBeNull()
  })
})
