/**
 * "The SCO reports complete", the one rule: SCORM 1.2 (and AICC) lesson_status completed or
 * passed; 2004 completion_status completed or success_status passed. TypeScript reads a commit
 * (`summarize`); SQL reads a stored `scorm_states` row, whatever the tree's shape. Its test checks
 * that both agree.
 */
export const COMPLETE_LESSON_STATUSES: readonly string[] = ['completed', 'passed']

export const reportsComplete12 = (lessonStatus: string): boolean => COMPLETE_LESSON_STATUSES.includes(lessonStatus)

export const reportsComplete2004 = (completion: string, success: string): boolean => completion === 'completed' || success === 'passed'

/** SQL condition on a `scorm_states` row (columns `lesson_status`, `cmi`): its SCO reports completion (any tree shape). */
export const SCO_REPORTS_COMPLETE = `(lesson_status in ('completed', 'passed') or cmi #>> '{cmi,core,lesson_status}' in ('completed', 'passed')
  or cmi #>> '{cmi,completion_status}' = 'completed' or cmi #>> '{completion_status}' = 'completed' or cmi ->> 'cmi.completion_status' = 'completed'
  or cmi #>> '{cmi,success_status}' = 'passed' or cmi #>> '{success_status}' = 'passed' or cmi ->> 'cmi.success_status' = 'passed')`
