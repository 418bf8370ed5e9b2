import { z } from 'zod'
import { AssignBody } from './exams.ts'

/**
 * Courses, modules and module progress (learner §3, §7; admin §3, §5, §7). SCORM packages and
 * sequencing are in `scorm-package.ts`, the SCORM runtime in `scorm-runtime.ts`.
 * Paths below are without the gateway's `/api`.
 */

/** Upload rules (admin §5, §9). Sizes are defaults; svc-learning reads its own limits from env. */
export const COURSE_UPLOAD = {
  /** 'xml': a cmi5 course structure (cmi5.xml) uploaded alone, its AUs hosted elsewhere (issue 26). */
  allowedExtensions: ['pdf', 'pptx', 'mp4', 'webm', 'mp3', 'wav', 'zip', 'xml'] as const,
  /** Largest single module file (bytes). */
  maxFileBytes: 512 * 1024 * 1024,
  /** Largest whole upload request (bytes). */
  maxRequestBytes: 1024 * 1024 * 1024,
  maxFiles: 50,
  /** Course upload timeout (learner §9, admin §9). */
  timeoutMs: 600_000,
} as const
export type ModuleExtension = (typeof COURSE_UPLOAD.allowedExtensions)[number]

export const COURSE_MESSAGES = {
  titleRequired: 'Course title is required',
  atLeastOneModule: 'At least one module is required',
  moduleTitleRequired: 'Module title is required',
  fileTypeNotSupported: (file: string) => `File type not supported: ${file}`,
  fileContentMismatch: (file: string) => `File content does not match its type: ${file}`,
  fileTooLarge: (file: string, maxMb: number) => `File too large: ${file} (the limit is ${maxMb} MB)`,
  uploadTooLarge: (maxMb: number) => `Upload too large (the limit is ${maxMb} MB in one request)`,
  tooManyFiles: (max: number) => `Too many files in one upload (at most ${max})`,
  moduleFileMissing: (title: string) => `No file was sent for module "${title}"`,
  selectAtLeastOneUser: 'Please select at least one user',
  courseNotFound: 'Course not found',
  moduleNotFound: 'Module not found',
  courseNotAssigned: 'This course is not assigned to you',
  processing: 'SCORM module is still being processed. Please wait and try again.',
  processingFailed: 'This SCORM package could not be processed',
  notScorm: 'This module is not a SCORM package',
  /** Manual completion blocked by the engagement rule (learner §5). */
  engageMoreManual: 'Please spend more time engaging with the course content before marking as complete.',
  /** Other completion triggers blocked by the engagement rule (learner §8). */
  engageMore: 'Please spend more time reviewing the course content before marking as complete.',
  launchExpired: 'This content session has expired. Please reopen the module.',
  /** A commit of a launch (tab) another launch of the same module has stored newer work over. */
  staleCommit: 'Newer progress of this module was saved in another window. Please reopen the module.',
  /** A completion asked for a SCORM module whose content talks to the runtime and has not reported completion. */
  contentDecides: 'This lesson records its own completion. Finish it in the lesson to complete the module.',
} as const

/** Minimum engagement before a completion not reported by the content counts (learner §5). */
export const COMPLETION_RULES = {
  manual: { minSeconds: 180, minProgress: 30 },
  other: { minSeconds: 60, minProgress: 20 },
} as const

/** Progress tracker and viewer constants (learner §4, §9). */
export const PROGRESS_TRACKER = {
  opened: 1,
  scormInitialized: 5,
  nonScormFrameLoaded: 50,
  maxBeforeComplete: 99,
  finishWithoutCompletion: 95,
  startPercent: 5,
  timeCheckMs: 15_000,
  perMinuteUnder5: 15,
  capUnder5: 75,
  perMinute5To10: 4,
  cap5To10: 95,
  autoCompleteMinutes: 20,
  urlCheckMs: 3_000,
  activityCheckMs: 10_000,
  activityPer3Interactions: 8,
  activityCap: 85,
  activityPatternInteractions: 10,
  activityPatternIdleMs: 30_000,
  activityPatternRepeats: 3,
  activityPatternMinProgress: 50,
  hiddenTimesToComplete: 3,
  hiddenMinProgress: 60,
  unloadMinProgress: 70,
  messageCap: 99,
  slidesTo90: 15,
  pagesTo90: 10,
  realActivityFloor: 60,
  realActivityBelow: 50,
  startDelayUneditedMs: 1_500,
  startDelayEditedMs: 2_000,
  contentLoadFallbackMs: 10_000,
  launchRetryMs: 30_000,
  scormAutocommitSeconds: 5,
  completionUrlKeywords: ['goodbye', 'goodby', 'completion', 'finished', 'complete', 'final', 'end'],
} as const

export const ProcessingStatus = z.enum(['ready', 'processing', 'failed'])
export type ProcessingStatus = z.infer<typeof ProcessingStatus>

/** How a package talks to the runtime: SCORM 1.2, SCORM 2004 (3rd/4th edition), AICC (on the 1.2 API), or cmi5 (xAPI to the portal's LRS; decision 0053). */
export const ScormVersion = z.enum(['1.2', '2004', 'AICC', 'cmi5'])
export type ScormVersion = z.infer<typeof ScormVersion>

/** A module as stored (admin §3 Module; learner §3 Module without the learner's progress). */
export const CourseModule = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  title: z.string(),
  order: z.number().int(),
  /** Original file name as uploaded (shown to admins; never a storage path). */
  file_path: z.string(),
  size: z.number().int(),
  is_scorm: z.boolean(),
  /** video/mp4, video/webm, application/pdf, audio/mpeg, audio/wav, application/vnd.openxmlformats-officedocument.presentationml.presentation, application/zip */
  content_type: z.string(),
  processing_status: ProcessingStatus,
  processing_error: z.string().nullable(),
  scorm_version: ScormVersion.nullable(),
  /** "2004 3rd Edition", "2004 4th Edition", ... when known. */
  scorm_edition: z.string().nullable(),
  /** Number of launchable items (SCOs) in the package; 0 for non-SCORM modules. */
  sco_count: z.number().int(),
  /**
   * The package holds an Adobe Captivate project, the only kind Edit SCORM (the Timing Editor)
   * edits: true offers it, false says why not (SCORM_EDITOR_MESSAGES.notCaptivateModule); null
   * while not yet known (being processed, or a package stored before the check, checked soon);
   * false for a module that is no package. Absent from servers before it (issue 30 item 4).
   */
  scorm_editable: z.boolean().nullable().optional(),
})
export type CourseModule = z.infer<typeof CourseModule>

/** A course as admins see it (GET /admin/courses, answer of POST and PUT /courses). */
export const Course = z.object({
  id: z.number().int(),
  title: z.string(),
  is_assigned_to_all: z.boolean(),
  assigned_user_ids: z.array(z.string()),
  modules: z.array(CourseModule),
  created_at: z.string(),
  updated_at: z.string(),
})
export type Course = z.infer<typeof Course>

/** GET /courses: what the caller may open (admins: all), without progress. */
export const CourseSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  is_assigned_to_all: z.boolean(),
  module_count: z.number().int(),
  created_at: z.string(),
})
export type CourseSummary = z.infer<typeof CourseSummary>

export const CourseStatus = z.enum(['completed', 'in-progress', 'not-started'])
export type CourseStatus = z.infer<typeof CourseStatus>

/** A module with the caller's progress (learner §3 Module). `is_current` is set by the client. */
export const LearnerModule = CourseModule.extend({
  is_unlocked: z.boolean(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /**
   * What completed the module (the completion trigger: the lesson's own SCORM status, a video
   * watched to its end, the learner's click, a fallback rule...), shown to the learner; null before.
   */
  completed_by: z.string().nullable().optional(),
  progress: z.number().int().min(0).max(100),
  last_accessed: z.string().nullable(),
})
export type LearnerModule = z.infer<typeof LearnerModule>

/** GET /courses/with-progress: the caller's courses with status and progress (learner §3 Course). */
export const CourseWithProgress = z.object({
  id: z.number().int(),
  title: z.string(),
  status: CourseStatus,
  /** Whole percent, the mean of the modules' progress. */
  progress: z.number().int().min(0).max(100),
  is_assigned_to_all: z.boolean(),
  completed_at: z.string().nullable(),
  modules: z.array(LearnerModule),
})
export type CourseWithProgress = z.infer<typeof CourseWithProgress>

/** GET /modules/course/{id}/progress. */
export const CourseModulesProgress = z.object({
  data: z.object({
    courseId: z.number().int(),
    title: z.string(),
    status: CourseStatus,
    progress: z.number().int(),
    completed_at: z.string().nullable(),
    modules: z.array(LearnerModule),
  }),
})
export type CourseModulesProgress = z.infer<typeof CourseModulesProgress>

// ---------- authoring (multipart fields are JSON texts; the server parses them with these) ----------

const moduleTitle = z.string().trim().min(1, COURSE_MESSAGES.moduleTitleRequired).max(300)
const courseTitle = z.string().trim().min(1, COURSE_MESSAGES.titleRequired).max(300)

/** One entry of `moduleData` / `newModuleData`: the n-th file of the request belongs to the n-th entry. */
export const NewModuleData = z.object({ title: moduleTitle, order: z.number().int().min(1).max(10_000) })
export const ExistingModuleData = z.object({ id: z.number().int().positive(), title: moduleTitle, order: z.number().int().min(1).max(10_000) })

/** POST /courses (multipart): title, is_assigned_to_all ("true"/"false"), moduleData (JSON), moduleFiles (files). */
export const CreateCourseFields = z.object({
  title: courseTitle,
  is_assigned_to_all: z.boolean().default(false),
  moduleData: z.array(NewModuleData).min(1, COURSE_MESSAGES.atLeastOneModule).max(COURSE_UPLOAD.maxFiles),
})
export type CreateCourseFields = z.infer<typeof CreateCourseFields>

/**
 * PUT /courses/{id} (multipart): title, is_assigned_to_all, existingModules (JSON), modulesToDelete
 * (JSON list of ids), newModuleData (JSON), newModuleFiles (files). At least one module must remain.
 */
export const UpdateCourseFields = z.object({
  title: courseTitle,
  is_assigned_to_all: z.boolean().default(false),
  existingModules: z.array(ExistingModuleData).max(1000).default([]),
  modulesToDelete: z.array(z.number().int().positive()).max(1000).default([]),
  newModuleData: z.array(NewModuleData).max(COURSE_UPLOAD.maxFiles).default([]),
})
export type UpdateCourseFields = z.infer<typeof UpdateCourseFields>

/** POST /courses/{id}/assign: the body of POST /exams/{id}/assign. */
export const AssignCourseBody = AssignBody

// ---------- module progress ----------

/** PUT /modules/{id}/progress. Progress never goes down and stays at most 99 until completion. */
export const ModuleProgressBody = z.object({
  progress: z.number().min(0).max(100),
  courseId: z.number().int().positive(),
})
export const ModuleProgressResponse = z.object({
  moduleId: z.number().int(),
  progress: z.number().int(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
})

/** What made the viewer ask for completion (learner §4); `manual` has the stricter engagement rule. */
export const CompletionTrigger = z.enum([
  'manual',
  'scorm-status',
  'scorm-score',
  'scorm-finish',
  'content-message',
  'completion-url',
  'module-close',
  'frame-reload',
  'tracker',
  'media-ended',
])
export type CompletionTrigger = z.infer<typeof CompletionTrigger>

/** PUT /modules/{id}/complete. */
export const CompleteModuleBody = z.object({
  courseId: z.number().int().positive(),
  trigger: CompletionTrigger.default('manual'),
})
export const CompleteModuleResponse = z.object({
  moduleId: z.number().int(),
  completed_at: z.string(),
  /** False when the module had already been completed (completion is recorded once). */
  newly_completed: z.boolean(),
  course_completed: z.boolean(),
  course_completed_at: z.string().nullable(),
})
export type CompleteModuleResponse = z.infer<typeof CompleteModuleResponse>
