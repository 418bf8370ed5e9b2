import { SCORM_EDITOR_MESSAGES as M, type EditTimingResponse, type ScormVideoSlide } from '@portal/contracts'
import { isLikelyProblemSlide, parseDuration } from '@portal/contracts/captivate'

/** What the admin typed in the SCORM Timing Editor. */
export interface TimingForm {
  slideId: string
  duration: string
  name: string
}

/** Save is disabled unless a slide is selected and a duration or a name is given (admin §5). */
export const canSave = (f: TimingForm): boolean => f.slideId !== '' && (f.duration.trim() !== '' || f.name.trim() !== '')

/** Whether only the name changes (a name-only update, admin §4). */
export const isNameOnly = (f: TimingForm, hasVideoFile: boolean): boolean => f.name.trim() !== '' && f.duration.trim() === '' && !hasVideoFile

/** Why the form cannot be sent (admin §5 messages; a malformed duration says what to type), or null. */
export function timingProblem(f: TimingForm, slide: ScormVideoSlide | undefined, hasVideoFile: boolean): string | null {
  if (!f.slideId || !slide) return M.selectSlide
  if (isNameOnly(f, hasVideoFile)) return null
  if (!slide.video) return M.noVideo
  if (f.duration.trim() === '') return hasVideoFile ? null : M.enterDuration
  if (parseDuration(f.duration, { allowMinutes: true }) === null) return 'Enter the duration as MM:SS or HH:MM:SS'
  return null
}

/** The success message of an edit: the time difference for a duration update. */
export const successMessage = (r: EditTimingResponse): string => (r.changes.timeDifference ? M.timingUpdated(r.changes.timeDifference.formatted) : M.saved)

/** The option text of a slide in the selection. */
export const slideLabel = (s: ScormVideoSlide, frameRate: number) => `${s.name} (${s.durationFormatted})${isLikelyProblemSlide(s, frameRate) ? ` – ${M.likelyProblem}` : ''}`
