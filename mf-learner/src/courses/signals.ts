import type { RuntimeStatus } from '../runtime/index.ts'
import { PROGRESS_TRACKER as T } from '@portal/contracts'

/** The file name of a URL (lower case, decoded), or '' when it has none. */
const fileName = (url: string): string => {
  let path: string
  try {
    path = new URL(url, 'http://x.invalid/').pathname
  } catch {
    path = url.split(/[?#]/)[0] ?? ''
  }
  const last = path.split('/').pop() ?? ''
  try {
    return decodeURIComponent(last).toLowerCase()
  } catch {
    return last.toLowerCase()
  }
}

const KEYWORD = new RegExp(`(?:^|[^a-z])(?:${T.completionUrlKeywords.join('|')})(?:[^a-z]|$)`)

/**
 * Whether a content URL is a completion page (learner §4, §9): an .html file whose name has one of
 * the keywords (goodbye, goodby, completion, finished, complete, final, end) as a word, e.g.
 * `goodbye.html`, `course_complete.html`, `the-end.htm`. Only the file name counts (the launch
 * token in the path is random text), and a keyword inside a longer word does not
 * (`legend.html`, `incomplete.html`).
 */
export const completionUrl = (url: string): boolean => {
  const name = fileName(url)
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return false
  const ext = name.slice(dot + 1)
  if (ext !== 'html' && ext !== 'htm') return false
  return KEYWORD.test(name.slice(0, dot))
}

/**
 * Progress from a slide or page number in a content URL (learner §9): slide 15 is 90 %, page 10 is
 * 90 %, proportionally below and capped at 90. `slide7.html`, `slides/slide_7.html`,
 * `page-3.html`, `?page=4` and `#/slide/5` are recognised; null when there is no number.
 */
export const urlSlideProgress = (url: string): number | null => {
  const lower = url.toLowerCase()
  const slide = /(?:^|[^a-z])slides?[\s_\-/=]*(\d{1,4})(?!\d)/.exec(lower)
  if (slide) return Math.min(Math.round((Number(slide[1]) / T.slidesTo90) * 90), 90)
  const page = /(?:^|[^a-z])pages?[\s_\-/=]*(\d{1,4})(?!\d)/.exec(lower)
  if (page) return Math.min(Math.round((Number(page[1]) / T.pagesTo90) * 90), 90)
  return null
}

/** What a message from the content means for the viewer. */
export type ContentSignal = { kind: 'complete' } | { kind: 'progress'; progress: number } | { kind: 'activity' } | null

const COMPLETION_EVENTS = new Set(['scorm-module-completed', 'module-completed', 'course-completed', 'completed', 'complete', 'final-slide', 'goodbye'])
const ACTIVITY_EVENTS = new Set(['real-user-activity', 'user-activity', 'user-interaction'])
const DONE_STATUSES = new Set(['completed', 'complete', 'passed', 'finished'])
const GOODBYE_TEXT = /\b(good-?bye|goodby|thank you for (?:completing|taking)|you have completed|course (?:is )?complete[d]?|end of (?:the )?(?:course|module|presentation))\b/i

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
  return Number.isFinite(n) ? n : null
}

/**
 * Reads a `postMessage` from the content frame (learner §4): 'scorm-module-completed' and
 * 'module-completed' (as a string or as `type`/`event`/`action`), a status of completed/passed,
 * a progress of 100 or more, the final slide, or a goodbye text complete the module; a lower
 * progress raises it; 'real-user-activity' lifts it. Anything else is ignored.
 */
export const contentSignal = (data: unknown): ContentSignal => {
  if (typeof data === 'string') {
    const s = data.trim()
    if (s.startsWith('{')) {
      try {
        return contentSignal(JSON.parse(s))
      } catch {
        return null
      }
    }
    const key = s.toLowerCase()
    if (COMPLETION_EVENTS.has(key)) return { kind: 'complete' }
    if (ACTIVITY_EVENTS.has(key)) return { kind: 'activity' }
    return GOODBYE_TEXT.test(s) ? { kind: 'complete' } : null
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null
  const m = data as Record<string, unknown>
  const name = (text(m.type) ?? text(m.event) ?? text(m.action) ?? '').toLowerCase()
  if (COMPLETION_EVENTS.has(name)) return { kind: 'complete' }
  for (const key of ['status', 'lessonStatus', 'lesson_status', 'completionStatus', 'completion_status', 'successStatus', 'success_status']) {
    const status = text(m[key])?.toLowerCase()
    if (status && DONE_STATUSES.has(status)) return { kind: 'complete' }
  }
  if (m.completed === true || m.isComplete === true || m.finalSlide === true || m.isFinalSlide === true || m.isLastSlide === true) return { kind: 'complete' }
  const slide = num(m.slide ?? m.currentSlide)
  const total = num(m.totalSlides ?? m.slideCount ?? m.total)
  if (slide !== null && total !== null && total > 0 && slide >= total) return { kind: 'complete' }
  for (const key of ['text', 'message', 'title']) {
    const t = text(m[key])
    if (t && GOODBYE_TEXT.test(t)) return { kind: 'complete' }
  }
  const progress = num(m.progress ?? m.percent ?? m.percentage)
  if (progress !== null) {
    if (progress >= 100) return { kind: 'complete' }
    if (progress > 0) return { kind: 'progress', progress }
  }
  if (slide !== null && total !== null && total > 0) return { kind: 'progress', progress: (slide / total) * 100 }
  if (ACTIVITY_EVENTS.has(name)) return { kind: 'activity' }
  return null
}

/** The status fields of the SCORM runtime (a type only: the runtime itself stays in its lazy chunk). */
export type ScormStatusLike = RuntimeStatus

const SCORM_DONE = new Set(['completed', 'passed'])

/**
 * Whether the SCO's data completes the module (learner §4): lesson, completion or success status
 * completed or passed ('scorm-status'), or a raw score of 100 or more ('scorm-score'); else null.
 */
export const scormCompletion = (s: ScormStatusLike): 'scorm-status' | 'scorm-score' | null => {
  for (const v of [s.lessonStatus, s.completionStatus, s.successStatus]) if (v && SCORM_DONE.has(v.toLowerCase())) return 'scorm-status'
  if (s.scoreRaw !== null && s.scoreRaw >= 100) return 'scorm-score'
  return null
}

/** The score of a SCO as a percent: the raw score, else the scaled one, else null. */
export const scormScorePercent = (s: ScormStatusLike): number | null =>
  s.scoreRaw !== null && Number.isFinite(s.scoreRaw) ? s.scoreRaw : s.scoreScaled !== null && Number.isFinite(s.scoreScaled) ? s.scoreScaled * 100 : null

/** A finish without completion sets progress to the greater of the score and 95 (learner §4). */
export const finishWithoutCompletionProgress = (s: ScormStatusLike): number => Math.max(scormScorePercent(s) ?? 0, T.finishWithoutCompletion)
