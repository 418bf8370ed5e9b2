import type { CourseStatus, CourseWithProgress, LearnerModule } from '@portal/contracts'
import { formatDate } from '@portal/ui-kit'

/** The status badge of a course card (learner §2). */
export const courseStatusLabel = (status: CourseStatus): 'Completed' | 'In Progress' | 'Not Started' =>
  status === 'completed' ? 'Completed' : status === 'in-progress' ? 'In Progress' : 'Not Started'

/** When the learner last worked on a course (its modules' last access or start), or '' for never. */
const lastWorkedOn = (course: Pick<CourseWithProgress, 'modules'>): string =>
  course.modules.reduce((latest, m) => [m.last_accessed ?? '', m.started_at ?? '', latest].reduce((a, b) => (a > b ? a : b)), '')

/**
 * "Continue where you left off": the unfinished course the learner worked on last, else the first
 * one in progress; null when no course is under way.
 */
export const courseToContinue = <C extends Pick<CourseWithProgress, 'status' | 'modules'>>(courses: readonly C[]): C | null => {
  const underWay = courses.filter((c) => c.status === 'in-progress')
  return underWay.reduce<C | null>((best, c) => (best === null || lastWorkedOn(c) > lastWorkedOn(best) ? c : best), null)
}

/** A whole percent, clamped to 0-100. */
export const percent = (value: number): number => (Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : 0)

export const percentText = (value: number): string => `${percent(value)}%`

/** "1 module" / "3 modules". */
export const moduleCountText = (count: number): string => `${count} ${count === 1 ? 'module' : 'modules'}`

/** How a module's content is shown. */
export type ModuleKind = 'scorm' | 'cmi5' | 'video' | 'audio' | 'pdf' | 'slides' | 'file'

export const moduleKind = (m: Pick<LearnerModule, 'is_scorm' | 'content_type' | 'file_path'> & Partial<Pick<LearnerModule, 'scorm_version'>>): ModuleKind => {
  if (m.is_scorm) return m.scorm_version === 'cmi5' ? 'cmi5' : 'scorm'
  const type = m.content_type.toLowerCase()
  const name = m.file_path.toLowerCase()
  if (type.startsWith('video/')) return 'video'
  if (type.startsWith('audio/')) return 'audio'
  if (type === 'application/pdf') return 'pdf'
  if (type.includes('presentationml') || type.includes('powerpoint')) return 'slides'
  if (name.endsWith('.pdf')) return 'pdf'
  if (name.endsWith('.pptx')) return 'slides'
  return 'file'
}

/** The type badge of a module in the sidebar (SCORM / Video / PDF, also Audio / Slides). */
export const moduleTypeLabel = (m: Parameters<typeof moduleKind>[0]): string =>
  ({ scorm: 'SCORM', cmi5: 'cmi5', video: 'Video', audio: 'Audio', pdf: 'PDF', slides: 'Slides', file: 'File' })[moduleKind(m)]

export type ModuleStatusLabel = 'Completed' | 'Current' | 'Available' | 'Locked'

/** A module's status in the sidebar: Completed, Current (the one shown), Available, or Locked. */
export const moduleStatusLabel = (m: Pick<LearnerModule, 'id' | 'completed_at' | 'is_unlocked'>, currentId: number | null): ModuleStatusLabel => {
  if (m.completed_at) return 'Completed'
  if (m.id === currentId) return 'Current'
  return m.is_unlocked ? 'Available' : 'Locked'
}

/** Modules in course order (order, then id). */
export const sortModules = <M extends Pick<LearnerModule, 'id' | 'order'>>(modules: readonly M[]): M[] => [...modules].sort((a, b) => a.order - b.order || a.id - b.id)

/**
 * The module the viewer opens first (learner §4): the requested one if it is unlocked; otherwise
 * the first unlocked module not yet completed; otherwise the first module; null when there is none.
 */
export const initialModule = <M extends Pick<LearnerModule, 'id' | 'order' | 'is_unlocked' | 'completed_at'>>(modules: readonly M[], requestedId?: number | null): M | null => {
  const ordered = sortModules(modules)
  if (requestedId != null) {
    const requested = ordered.find((m) => m.id === requestedId)
    if (requested?.is_unlocked) return requested
  }
  return ordered.find((m) => m.is_unlocked && !m.completed_at) ?? ordered[0] ?? null
}

/** "N of M modules completed". */
export const completedText = (modules: readonly Pick<LearnerModule, 'completed_at'>[]): string =>
  `${modules.filter((m) => m.completed_at).length} of ${modules.length} modules completed`

/** "Module X of Y" for the header; null when the module is not in the list. */
export const modulePositionText = (modules: readonly Pick<LearnerModule, 'id' | 'order'>[], currentId: number | null): string | null => {
  const index = sortModules(modules).findIndex((m) => m.id === currentId)
  return index < 0 ? null : `Module ${index + 1} of ${modules.length}`
}

/** A completion date as shown in the sidebar ("Completed 22 Nov 2026"), in the viewer's locale. */
/** What completed a module, as the learner reads it (issue 15: say which rule did). */
const COMPLETED_BY: Record<string, string> = {
  'scorm-commit': 'The lesson reported it complete',
  'scorm-rollup': 'The lesson reported it complete',
  'scorm-status': 'The lesson reported it complete',
  'scorm-score': 'The lesson reported it complete',
  'scorm-finish': 'The lesson reported it complete',
  manual: 'You marked it complete',
  'media-ended': 'Watched to the end',
  'content-message': 'The content reported it complete',
  'completion-url': 'The content reached its completion page',
  'module-close': 'Time spent before closing it',
  'frame-reload': 'The content was viewed again',
  tracker: 'Time and activity in the module',
}

export const completedByText = (trigger: string | null | undefined): string | null => (trigger ? (COMPLETED_BY[trigger] ?? null) : null)

/** "Completed Nov 22, 2026": the portal's one date format (ui-kit's formatDate), as every other screen writes a completion. */
export const completedOnText = (iso: string | null): string | null => {
  if (!iso || Number.isNaN(new Date(iso).getTime())) return null
  return `Completed ${formatDate(iso)}`
}
