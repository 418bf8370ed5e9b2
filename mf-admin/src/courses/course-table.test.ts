import { SCORM_EDITOR_MESSAGES as M, type CourseModule } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { anyProcessing, anyUnchecked, courseAssignmentText, modulesSummary, processingText, scormBadge, scormEditOffer, sortedModules } from './course-table.ts'

const m = (over: Partial<CourseModule>): CourseModule => ({
  id: 1,
  course_id: 1,
  title: 'M',
  order: 1,
  file_path: 'm.pdf',
  size: 1,
  is_scorm: false,
  content_type: 'application/pdf',
  processing_status: 'ready',
  processing_error: null,
  scorm_version: null,
  scorm_edition: null,
  sco_count: 0,
  ...over,
})

describe('courses table', () => {
  it('summarises modules with the ones processing and failed', () => {
    expect(modulesSummary({ modules: [m({})] })).toBe('1 module')
    expect(
      modulesSummary({
        modules: [m({}), m({ processing_status: 'processing' }), m({ processing_status: 'failed' })],
      }),
    ).toBe('3 modules · 1 processing · 1 failed')
    expect(modulesSummary({ modules: [] })).toBe('0 modules')
  })

  it('polls only while a module is processing', () => {
    expect(anyProcessing(undefined)).toBe(false)
    expect(anyProcessing([{ modules: [m({})] }])).toBe(false)
    expect(anyProcessing([{ modules: [m({})] }, { modules: [m({ processing_status: 'processing' })] }])).toBe(true)
  })

  it('offers Edit SCORM on a ready package with a Captivate project, and says why not on the others', () => {
    const pkg = (over: Partial<CourseModule>) => m({ is_scorm: true, file_path: 'p.zip', ...over })
    expect(scormEditOffer(pkg({ scorm_editable: true }))).toEqual({ offer: true })
    expect(scormEditOffer(pkg({ scorm_editable: false }))).toEqual({ offer: false, reason: M.notCaptivateModule })
    expect(scormEditOffer(pkg({ scorm_editable: null }))).toEqual({ offer: false, reason: M.checkingProject })
    // A server from before the check does not say: offered as before.
    expect(scormEditOffer(pkg({}))).toEqual({ offer: true })
    expect(scormEditOffer(pkg({ processing_status: 'processing', scorm_editable: null }))).toBeNull()
    expect(scormEditOffer(pkg({ processing_status: 'failed', scorm_editable: null }))).toBeNull()
    expect(scormEditOffer(m({ scorm_editable: false }))).toBeNull()
    // A cmi5 course is no Captivate project: nothing to offer or explain.
    expect(scormEditOffer(pkg({ scorm_version: 'cmi5', scorm_editable: false }))).toBeNull()
  })

  it('polls while a ready package is still to be checked', () => {
    expect(anyUnchecked([{ modules: [m({ is_scorm: true, scorm_editable: true }), m({ is_scorm: true, scorm_editable: false })] }])).toBe(false)
    expect(anyUnchecked([{ modules: [m({ is_scorm: true })] }])).toBe(false)
    expect(anyUnchecked([{ modules: [m({ is_scorm: true, processing_status: 'processing', scorm_editable: null })] }])).toBe(false)
    expect(anyUnchecked([{ modules: [m({ is_scorm: true, scorm_editable: null })] }])).toBe(true)
  })

  it('shows the processing error of a package that is not SCORM', () => {
    const error = 'The package has no imsmanifest.xml at its root (not a SCORM package)'
    expect(processingText(m({ processing_status: 'failed', processing_error: error }))).toBe(`Failed: ${error}`)
    expect(processingText(m({ processing_status: 'processing' }))).toBe('Processing…')
    expect(processingText(m({}))).toBeNull()
  })

  it('names the SCORM version and edition', () => {
    expect(scormBadge(m({}))).toBeNull()
    expect(scormBadge(m({ is_scorm: true, scorm_version: '1.2' }))).toBe('SCORM 1.2')
    expect(scormBadge(m({ is_scorm: true, scorm_version: '2004', scorm_edition: '2004 4th Edition' }))).toBe('SCORM 2004 4th Edition')
    expect(scormBadge(m({ is_scorm: true, scorm_version: '2004' }))).toBe('SCORM 2004')
    expect(scormBadge(m({ is_scorm: true, scorm_version: 'AICC' }))).toBe('AICC')
    expect(scormBadge(m({ is_scorm: true, scorm_version: 'cmi5', scorm_edition: null }))).toBe('cmi5')
    expect(scormBadge(m({ is_scorm: true }))).toBe('SCORM')
  })

  it('describes the assignment', () => {
    expect(courseAssignmentText({ is_assigned_to_all: true, assigned_user_ids: ['a'] })).toBe('All users')
    expect(courseAssignmentText({ is_assigned_to_all: false, assigned_user_ids: [] })).toBe('Not assigned')
    expect(courseAssignmentText({ is_assigned_to_all: false, assigned_user_ids: ['a', 'b'] })).toBe('2 users')
  })

  it('lists modules by their order', () => {
    expect(sortedModules([m({ id: 2, order: 2 }), m({ id: 1, order: 1 })]).map((x) => x.id)).toEqual([1, 2])
  })
})
