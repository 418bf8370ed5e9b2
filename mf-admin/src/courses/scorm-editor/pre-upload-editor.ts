import { CAPTIVATE_FRAME_RATE, formatHms, isLikelyProblemSlide, parseDuration, type CaptivateEdit, type CaptivateProject } from '@portal/contracts/captivate'
import { editsFrom } from './package-zip.ts'

/** A video slide as the pre-upload editor shows it: name and duration typed as HH:MM:SS. */
export interface SlideDraft {
  id: string
  name: string
  duration: string
  /** Length when analysed, in frames. */
  frames: number
  likelyProblem: boolean
}

export const DURATION_FORMAT_MESSAGE = 'Enter the duration as HH:MM:SS'
export const NAME_REQUIRED_MESSAGE = 'Slide name is required'

export const draftsFrom = (project: CaptivateProject): SlideDraft[] =>
  project.slides
    .filter((s) => s.video)
    .map((s) => ({
      id: s.id,
      name: s.name,
      duration: formatHms(s.durationInFrames / project.frameRate),
      frames: s.durationInFrames,
      likelyProblem: isLikelyProblemSlide(s, project.frameRate),
    }))

/** Per slide id: what is wrong with its typed values. */
export function draftErrors(drafts: readonly SlideDraft[]): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const d of drafts) {
    if (!d.name.trim()) errors[d.id] = NAME_REQUIRED_MESSAGE
    else if (parseDuration(d.duration, { allowMinutes: false }) === null) errors[d.id] = DURATION_FORMAT_MESSAGE
  }
  return errors
}

/**
 * The edits the drafts ask for (HH:MM:SS at 30 frames per second, admin §5). A duration still
 * showing what the analysis showed keeps the slide's exact frames (a slide of 45.5 s shows
 * 00:00:46 and is not rounded by an unrelated save).
 */
export function draftEdits(project: CaptivateProject, drafts: readonly SlideDraft[]): CaptivateEdit[] {
  return editsFrom(
    project,
    drafts.map((d) => {
      const shown = formatHms(d.frames / project.frameRate)
      const seconds = parseDuration(d.duration, { allowMinutes: false })
      return { id: d.id, name: d.name, durationInFrames: d.duration.trim() === shown || seconds === null ? d.frames : seconds * CAPTIVATE_FRAME_RATE }
    }),
  )
}
