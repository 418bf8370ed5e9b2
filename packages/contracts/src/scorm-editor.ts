import { z } from 'zod'
import { CourseModule } from './courses.ts'
import { numericId } from './params.ts'

/**
 * The SCORM timing editor of stored Captivate modules (admin §2, §3, §4, §5, §7, §8). Paths are
 * without the gateway's `/api`. The project data itself is read and rewritten by
 * `@portal/contracts/captivate`.
 */

export const SCORM_EDITOR_MESSAGES = {
  analyzeFileFailed: "Failed to analyze SCORM file. Please ensure it's a valid SCORM package.",
  saveFailed: 'Failed to save changes. Please try again.',
  saveFailedToast: 'Failed to save changes',
  unreadable: 'Could not find or parse project configuration files',
  analyzeModuleFailed: 'Failed to analyze SCORM module',
  restoreFailed: 'Failed to restore from backup',
  renameFailed: 'Failed to update slide name',
  timingFailed: 'Failed to update SCORM timing',
  selectSlide: 'Please select a slide to update',
  enterDuration: 'Please enter a duration for the selected slide',
  noVideo: 'No video available for this slide',
  edited: 'SCORM content edited successfully!',
  saved: 'Changes saved successfully!',
  restored: (name: string) => `Successfully restored from backup: ${name}`,
  timingUpdated: (formatted: string) => `Successfully updated timing! Time difference: ${formatted}`,
  likelyProblem: 'Likely Problem Slide',
  notScorm: 'This module is not a SCORM package',
  notReady: 'This SCORM package is not ready yet',
  backupNotFound: 'Backup not found',
  /** Edit SCORM works on Adobe Captivate projects only: what a package without one says instead (issue 30 item 4). */
  checkingProject: 'Looking for a Captivate project…',
  notCaptivateFile: 'Not an Adobe Captivate project: this package has no slides whose names or timings can be edited here. It uploads and plays as it is.',
  notCaptivateModule: 'Not an Adobe Captivate project: this package has no slides whose names or timings can be edited here. It plays as it was uploaded.',
  notAZip: 'This file does not open as a zip archive, so there is nothing in it to edit.',
} as const

const id = numericId('module')

/** POST /scorm-editor/analyze. */
export const AnalyzeScormBody = z.object({ moduleId: id })

export const ScormVideoSlide = z.object({
  id: z.string(),
  title: z.string(),
  name: z.string(),
  durationInSeconds: z.number(),
  durationInFrames: z.number().int(),
  durationFormatted: z.string(),
  /** The slide's video (path in the package), when it has one. */
  video: z.string().nullable(),
})
export type ScormVideoSlide = z.infer<typeof ScormVideoSlide>

export const ScormAnalysis = z.object({
  /** File name of the first video the project data references (null when none). */
  referencedVideo: z.string().nullable(),
  videos: z.array(z.object({ fileName: z.string(), estimatedDurationSeconds: z.number(), estimatedDurationFormatted: z.string() })),
  videoSlides: z.array(ScormVideoSlide),
  frameRate: z.number(),
})
export type ScormAnalysis = z.infer<typeof ScormAnalysis>

export const ScormAnalyzeResponse = z.object({ module: CourseModule, analysis: ScormAnalysis })
export type ScormAnalyzeResponse = z.infer<typeof ScormAnalyzeResponse>

/** POST /scorm-editor/edit-timing (JSON, or multipart with `videoFile`). */
export const EditTimingFields = z.object({
  moduleId: id,
  slideId: z.string().trim().min(1, SCORM_EDITOR_MESSAGES.selectSlide).max(200),
  slideName: z.string().max(500).optional(),
  /** MM:SS or HH:MM:SS. */
  duration: z.string().max(20).optional(),
})
export type EditTimingFields = z.infer<typeof EditTimingFields>

export const SlideNameChange = z.object({
  from: z.string(),
  to: z.string(),
  slideFoundAtLine: z.number().int(),
  totalLines: z.number().int(),
  filesUpdated: z.object({ mainFile: z.boolean(), companionFile: z.boolean() }),
})

export const EditTimingResponse = z.object({
  message: z.string(),
  backupId: z.number().int(),
  changes: z.object({
    slideName: SlideNameChange.optional(),
    timeDifference: z.object({ frames: z.number().int(), seconds: z.number(), formatted: z.string() }).optional(),
    oldDuration: z.string().optional(),
    newDuration: z.string().optional(),
    videoReplaced: z.boolean().optional(),
  }),
})
export type EditTimingResponse = z.infer<typeof EditTimingResponse>

export const ScormBackup = z.object({
  id: z.number().int(),
  backup_name: z.string(),
  created_at: z.string(),
  creator: z.object({ username: z.string() }).nullable(),
})
export type ScormBackup = z.infer<typeof ScormBackup>

/** GET /scorm-editor/backups/{moduleId}, newest first. */
export const ScormBackupsResponse = z.object({ backups: z.array(ScormBackup) })

/** POST /scorm-editor/restore. */
export const RestoreScormBody = z.object({ moduleId: id, backupId: z.coerce.number({ error: 'Invalid backup id' }).int().positive().max(2_147_483_647) })
export const RestoreScormResponse = z.object({ message: z.string(), restoredFrom: ScormBackup })

const VerifiedFile = z.object({
  path: z.string().nullable(),
  /** Storage key the learner's launch reads the file from. */
  key: z.string().nullable(),
  exists: z.boolean(),
  size: z.number().nullable(),
  lastModified: z.string().nullable(),
  sha256: z.string().nullable(),
  /** Whether it reads as Captivate project data. */
  parses: z.boolean(),
  edited: z.boolean(),
})

/** GET /scorm-editor/verify/{moduleId}. */
export const ScormVerification = z.object({
  moduleId: z.number().int(),
  /** Storage prefix of the extracted package. */
  s3Key: z.string().nullable(),
  timestamp: z.string(),
  hasEdits: z.boolean(),
  slideCount: z.number().int(),
  error: z.string().nullable(),
  files: z.object({ projectTxt: VerifiedFile, projectJs: VerifiedFile }),
})
export type ScormVerification = z.infer<typeof ScormVerification>
