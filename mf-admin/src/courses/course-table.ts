import { SCORM_EDITOR_MESSAGES as M, type Course, type CourseModule } from '@portal/contracts'
import { byNumber, byText, type TableColumns } from '../table/index.ts'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** Modules cell summary: "3 modules · 1 processing · 1 failed". */
export const modulesSummary = (course: Pick<Course, 'modules'>): string => {
  const processing = course.modules.filter((m) => m.processing_status === 'processing').length
  const failed = course.modules.filter((m) => m.processing_status === 'failed').length
  return [plural(course.modules.length, 'module'), processing ? `${processing} processing` : '', failed ? `${failed} failed` : ''].filter(Boolean).join(' · ')
}

/** Whether any module of the list is still being processed (the list is polled until none is). */
export const anyProcessing = (courses: readonly Pick<Course, 'modules'>[] | undefined): boolean =>
  !!courses?.some((c) => c.modules.some((m) => m.processing_status === 'processing'))

/**
 * Edit SCORM on a stored module: offered when its package holds a Captivate project (or the server
 * does not say, as before the check), else the plain words why not, or that it is being checked;
 * null for a module that is no ready package.
 */
export type ScormEditOffer = { offer: true } | { offer: false; reason: string }

export const scormEditOffer = (
  m: Pick<CourseModule, 'is_scorm' | 'processing_status' | 'scorm_editable'> & { scorm_version?: CourseModule['scorm_version'] },
): ScormEditOffer | null => {
  // A cmi5 course is no Captivate project: nothing to offer or explain.
  if (!m.is_scorm || m.processing_status !== 'ready' || m.scorm_version === 'cmi5') return null
  if (m.scorm_editable === false) return { offer: false, reason: M.notCaptivateModule }
  if (m.scorm_editable === null) return { offer: false, reason: M.checkingProject }
  return { offer: true }
}

/** Whether a ready package of the list is still to be checked for a Captivate project (the list is polled until none is). */
export const anyUnchecked = (courses: readonly Pick<Course, 'modules'>[] | undefined): boolean =>
  !!courses?.some((c) => c.modules.some((m) => m.is_scorm && m.processing_status === 'ready' && m.scorm_editable === null))

/** The SCORM badge text: "SCORM 1.2", "SCORM 2004 4th Edition", "AICC", "cmi5"; null for other modules. */
export const scormBadge = (m: Pick<CourseModule, 'is_scorm' | 'scorm_version' | 'scorm_edition'>): string | null => {
  if (!m.is_scorm) return null
  if (m.scorm_version === 'AICC' || m.scorm_version === 'cmi5') return m.scorm_version
  if (m.scorm_version === '2004' && m.scorm_edition) return `SCORM ${m.scorm_edition}`
  return m.scorm_version ? `SCORM ${m.scorm_version}` : 'SCORM'
}

/** A module's processing state as shown to admins: null when ready. */
export const processingText = (m: Pick<CourseModule, 'processing_status' | 'processing_error'>): string | null => {
  if (m.processing_status === 'processing') return 'Processing…'
  if (m.processing_status === 'failed') return `Failed: ${m.processing_error ?? 'This SCORM package could not be processed'}`
  return null
}

/** Assignment column. */
export const courseAssignmentText = (c: Pick<Course, 'is_assigned_to_all' | 'assigned_user_ids'>): string =>
  c.is_assigned_to_all ? 'All users' : c.assigned_user_ids.length === 0 ? 'Not assigned' : plural(c.assigned_user_ids.length, 'user')

/** Modules by their order. */
export const sortedModules = <M extends Pick<CourseModule, 'order'>>(modules: readonly M[]): M[] => [...modules].sort((a, b) => a.order - b.order)

/** Search and sort of the Courses table. */
export const COURSE_COLUMNS: TableColumns<Course, 'title' | 'modules' | 'assignment'> = {
  searchText: (c) => `${c.title} ${c.modules.map((m) => m.title).join(' ')}`,
  compare: {
    title: byText((c) => c.title),
    modules: byNumber((c) => c.modules.length),
    assignment: byNumber((c) => (c.is_assigned_to_all ? -1 : c.assigned_user_ids.length)),
  },
}
