import { z } from 'zod'

/**
 * Courses, modules, module progress and SCORM (learner §3, §7; admin §3, §5, §7).
 * Paths below are without the gateway's `/api`.
 */

/** Upload rules (admin §5, §9). Sizes are defaults; svc-learning reads its own limits from env. */
export const COURSE_UPLOAD = {
  allowedExtensions: ['pdf', 'pptx', 'mp4', 'webm', 'mp3', 'wav', 'zip'] as const,
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

/** How a package talks to the runtime: SCORM 1.2, SCORM 2004 (3rd/4th edition) or AICC (on the 1.2 API). */
export const ScormVersion = z.enum(['1.2', '2004', 'AICC'])
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

/** POST /courses/{id}/assign (same body as exams). */
export const AssignCourseBody = z.object({
  userIds: z.array(z.uuid()).min(1, COURSE_MESSAGES.selectAtLeastOneUser).max(10_000),
})

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

// ---------- SCORM ----------

/** One `adlcp:map` of a 2004 4th item: a shared `adl.data` store and what the SCO may do with it. */
export const ScormDataMap = z.object({ targetID: z.string(), readSharedData: z.boolean(), writeSharedData: z.boolean() })
export type ScormDataMap = z.infer<typeof ScormDataMap>

// ---------- SCORM 2004 sequencing (IMS Simple Sequencing as SCORM 2004 3rd/4th edition profiles it) ----------
// The manifest's `imsss:sequencing` of an item or the organization, with an `IDRef`'d collection entry
// already merged in (the element's own top-level children win). Optional fields are those the manifest
// left out (the engine applies the spec's defaults); object maps are resolved (see ScormObjectiveMap).

const flag = z.boolean().optional()
const idText = z.string().min(1).max(4000)

/** `imsss:ruleCondition/@condition`. */
export const SEQUENCING_RULE_CONDITIONS = [
  'satisfied',
  'objectiveStatusKnown',
  'objectiveMeasureKnown',
  'objectiveMeasureGreaterThan',
  'objectiveMeasureLessThan',
  'completed',
  'activityProgressKnown',
  'attempted',
  'attemptLimitExceeded',
  'timeLimitExceeded',
  'outsideAvailableTimeRange',
  'always',
] as const
/** `ruleAction/@action` of pre-, exit- and post-condition rules. */
export const SEQUENCING_RULE_ACTIONS = {
  pre: ['skip', 'disabled', 'hiddenFromChoice', 'stopForwardTraversal'],
  exit: ['exit'],
  post: ['exitParent', 'exitAll', 'retry', 'retryAll', 'continue', 'previous'],
} as const
/** `imsss:rollupCondition/@condition`. */
export const ROLLUP_CONDITIONS = [
  'satisfied',
  'objectiveStatusKnown',
  'objectiveMeasureKnown',
  'completed',
  'activityProgressKnown',
  'attempted',
  'attemptLimitExceeded',
  'timeLimitExceeded',
  'outsideAvailableTimeRange',
] as const
/** `adlnav:hideLMSUI` values: LMS navigation controls the content asks to hide. */
export const HIDE_LMS_UI = ['continue', 'previous', 'exit', 'exitAll', 'abandon', 'abandonAll', 'suspendAll'] as const
export const HideLmsUi = z.enum(HIDE_LMS_UI)
export type HideLmsUi = z.infer<typeof HideLmsUi>

export const ScormRuleCondition = z.object({
  condition: z.enum(SEQUENCING_RULE_CONDITIONS),
  /** 'not' negates the condition; the default 'noOp' is left out. */
  operator: z.literal('not').optional(),
  referencedObjective: idText.optional(),
  measureThreshold: z.number().min(-1).max(1).optional(),
})
export type ScormRuleCondition = z.infer<typeof ScormRuleCondition>
const ruleOf = <A extends readonly [string, ...string[]]>(actions: A) =>
  z.object({ conditionCombination: z.enum(['all', 'any']), conditions: z.array(ScormRuleCondition).min(1).max(100), action: z.enum(actions) })
export const ScormSequencingRules = z.object({
  preConditionRules: z.array(ruleOf(SEQUENCING_RULE_ACTIONS.pre)).max(100).optional(),
  exitConditionRules: z.array(ruleOf(SEQUENCING_RULE_ACTIONS.exit)).max(100).optional(),
  postConditionRules: z.array(ruleOf(SEQUENCING_RULE_ACTIONS.post)).max(100).optional(),
})
export type ScormSequencingRules = z.infer<typeof ScormSequencingRules>

export const ScormControlMode = z.object({
  choice: flag,
  choiceExit: flag,
  flow: flag,
  forwardOnly: flag,
  useCurrentAttemptObjectiveInfo: flag,
  useCurrentAttemptProgressInfo: flag,
})

const duration = z.string().min(1).max(100)
export const ScormLimitConditions = z.object({
  attemptLimit: z.number().int().min(0).optional(),
  attemptAbsoluteDurationLimit: duration.optional(),
  attemptExperiencedDurationLimit: duration.optional(),
  activityAbsoluteDurationLimit: duration.optional(),
  activityExperiencedDurationLimit: duration.optional(),
  beginTimeLimit: duration.optional(),
  endTimeLimit: duration.optional(),
})

export const ScormRollupRule = z.object({
  childActivitySet: z.enum(['all', 'any', 'none', 'atLeastCount', 'atLeastPercent']),
  minimumCount: z.number().int().min(0).optional(),
  /** A fraction (0 to 1), as the manifest writes it. */
  minimumPercent: z.number().min(0).max(1).optional(),
  conditionCombination: z.enum(['all', 'any']),
  conditions: z.array(z.object({ condition: z.enum(ROLLUP_CONDITIONS), operator: z.literal('not').optional() })).min(1).max(100),
  action: z.enum(['satisfied', 'notSatisfied', 'completed', 'incomplete']),
})
export const ScormRollupRules = z.object({
  rollupObjectiveSatisfied: flag,
  rollupProgressCompletion: flag,
  objectiveMeasureWeight: z.number().min(0).max(1).optional(),
  rules: z.array(ScormRollupRule).max(100),
})

const consideration = z.enum(['always', 'ifAttempted', 'ifNotSkipped', 'ifNotSuspended']).optional()
/** `adlseq:rollupConsiderations`. */
export const ScormRollupConsiderations = z.object({
  requiredForSatisfied: consideration,
  requiredForNotSatisfied: consideration,
  requiredForCompleted: consideration,
  requiredForIncomplete: consideration,
  measureSatisfactionIfActive: flag,
})

/**
 * One global objective an objective reads or writes: `imsss:mapInfo` and the 4th edition's
 * `adlseq:mapInfo` for the same target merged, every flag resolved (a flag of an element the
 * manifest does not have is false: an `imsss:mapInfo` alone shares no completion, an
 * `adlseq:mapInfo` alone no satisfaction).
 */
export const ScormObjectiveMap = z.object({
  targetObjectiveID: idText,
  readSatisfiedStatus: z.boolean(),
  readNormalizedMeasure: z.boolean(),
  writeSatisfiedStatus: z.boolean(),
  writeNormalizedMeasure: z.boolean(),
  readCompletionStatus: z.boolean(),
  writeCompletionStatus: z.boolean(),
  readProgressMeasure: z.boolean(),
  writeProgressMeasure: z.boolean(),
  readRawScore: z.boolean(),
  writeRawScore: z.boolean(),
  readMinScore: z.boolean(),
  writeMinScore: z.boolean(),
  readMaxScore: z.boolean(),
  writeMaxScore: z.boolean(),
})
export type ScormObjectiveMap = z.infer<typeof ScormObjectiveMap>

/** A map to `targetObjectiveID` sharing only the given flags (every other one false). */
export const objectiveMapTo = (targetObjectiveID: string, flags: Partial<Omit<ScormObjectiveMap, 'targetObjectiveID'>> = {}): ScormObjectiveMap =>
  ({
    ...Object.fromEntries(Object.keys(ScormObjectiveMap.shape).map((k) => [k, false])),
    ...flags,
    targetObjectiveID,
  }) as ScormObjectiveMap

export const ScormObjective = z.object({
  /** Optional for a primary objective (then it cannot be referenced or mapped). */
  objectiveID: idText.nullable(),
  satisfiedByMeasure: z.boolean(),
  /** Declared `minNormalizedMeasure` (the spec's default is 1.0). */
  minNormalizedMeasure: z.number().min(-1).max(1).optional(),
  mapInfo: z.array(ScormObjectiveMap).max(100),
})
export type ScormObjective = z.infer<typeof ScormObjective>
export const ScormObjectives = z.object({ primary: ScormObjective.optional(), objectives: z.array(ScormObjective).max(1000) })

const timing = z.enum(['never', 'once', 'onEachNewAttempt']).optional()
export const ScormRandomizationControls = z.object({
  randomizationTiming: timing,
  selectCount: z.number().int().min(0).optional(),
  reorderChildren: flag,
  selectionTiming: timing,
})
export const ScormDeliveryControls = z.object({ tracked: flag, completionSetByContent: flag, objectiveSetByContent: flag })
/** `adlseq:constrainedChoiceConsiderations`. */
export const ScormConstrainedChoice = z.object({ preventActivation: flag, constrainChoice: flag })

/** The sequencing information of one activity (item or organization). */
export const ScormSequencing = z.object({
  controlMode: ScormControlMode.optional(),
  sequencingRules: ScormSequencingRules.optional(),
  limitConditions: ScormLimitConditions.optional(),
  rollupRules: ScormRollupRules.optional(),
  rollupConsiderations: ScormRollupConsiderations.optional(),
  objectives: ScormObjectives.optional(),
  randomizationControls: ScormRandomizationControls.optional(),
  deliveryControls: ScormDeliveryControls.optional(),
  constrainedChoiceConsiderations: ScormConstrainedChoice.optional(),
})
export type ScormSequencing = z.infer<typeof ScormSequencing>

/** `adlcp:completionThreshold` of a 2004 4th edition item, as sequencing uses it. */
export const ScormCompletionThreshold = z.object({
  completedByMeasure: z.boolean(),
  minProgressMeasure: z.number().min(0).max(1),
  progressWeight: z.number().min(0).max(1),
})
export type ScormCompletionThreshold = z.infer<typeof ScormCompletionThreshold>

/** The organization (the root activity) of a SCORM 2004 package, as stored with its manifest. */
export const ScormOrganization = z.object({
  identifier: z.string().min(1).max(4000),
  /** True when the manifest has any `imsss:sequencing` (organization, items or collection). */
  declaresSequencing: z.boolean(),
  /** `adlseq:objectivesGlobalToSystem` (default true): false keeps global objectives within the package. */
  objectivesGlobalToSystem: z.boolean(),
  sequencing: ScormSequencing.optional(),
})
export type ScormOrganization = z.infer<typeof ScormOrganization>

/** One item of a package's organization (a SCO when it has an `href`). */
export interface ScormItem {
  identifier: string
  title: string
  /** Launch URL of the SCO (a path on the content origin, with its query string), or null for a cluster. */
  href: string | null
  isvisible: boolean
  /** `adlcp:datafromlms` (1.2) / `adlcp:dataFromLMS` (2004): cmi.launch_data. */
  launch_data: string | null
  /** `adlcp:masteryscore` (1.2) → cmi.student_data.mastery_score. */
  mastery_score: number | null
  /** 1.2 `adlcp:prerequisites`, shown for information. */
  prerequisites: string | null
  /** 2004 `adlcp:completionThreshold` → cmi.completion_threshold. */
  completion_threshold: number | null
  /** 2004 scaled passing score of the primary objective (imsss) → cmi.scaled_passing_score. */
  scaled_passing_score: number | null
  /** 1.2 `adlcp:maxtimeallowed` / `adlcp:timelimitaction`. */
  max_time_allowed: string | null
  time_limit_action: string | null
  /** 2004 4th `adlcp:data/adlcp:map`: the `adl.data` stores this SCO may read/write (absent: none declared). */
  data_maps?: ScormDataMap[]
  /** 2004 objectives the item's sequencing declares (imsss primary and secondary `objectiveID`s): cmi.objectives starts with them. */
  objective_ids?: string[]
  /** 2004 `imsss:sequencing` of the item (its collection entry merged in); absent when it declares none. */
  sequencing?: ScormSequencing
  /** 2004 `adlcp:completionThreshold` with its 4th edition attributes (completion by measure, rollup weight). */
  completion?: ScormCompletionThreshold
  /** 2004 `adlnav:presentation` hideLMSUI: LMS navigation controls to hide while this SCO is open. */
  hide_lms_ui?: HideLmsUi[]
  /** The item launches an asset (`scormtype="asset"`): it never talks to the runtime and counts as done once launched. */
  asset?: boolean
  children: ScormItem[]
}
export const ScormItem: z.ZodType<ScormItem> = z.lazy(() =>
  z.object({
    identifier: z.string(),
    title: z.string(),
    href: z.string().nullable(),
    isvisible: z.boolean(),
    launch_data: z.string().nullable(),
    mastery_score: z.number().nullable(),
    prerequisites: z.string().nullable(),
    completion_threshold: z.number().nullable(),
    scaled_passing_score: z.number().nullable(),
    max_time_allowed: z.string().nullable(),
    time_limit_action: z.string().nullable(),
    data_maps: z.array(ScormDataMap).optional(),
    objective_ids: z.array(z.string()).optional(),
    sequencing: ScormSequencing.optional(),
    completion: ScormCompletionThreshold.optional(),
    hide_lms_ui: z.array(HideLmsUi).optional(),
    asset: z.boolean().optional(),
    children: z.array(ScormItem),
  }),
)

/** Every item of a manifest's tree, depth first (tree order). */
export function* walkItems(items: readonly ScormItem[]): Generator<ScormItem> {
  for (const item of items) {
    yield item
    yield* walkItems(item.children)
  }
}

/** The items that launch a SCO (they have an href), in tree order. */
export const launchableItems = (items: readonly ScormItem[]): ScormItem[] => [...walkItems(items)].filter((i) => i.href !== null && i.href !== '')

/** An item with no launch data, mastery score, limits or children: a cluster unless `over` gives it an href. */
export const blankScormItem = (identifier: string, over: Partial<ScormItem> = {}): ScormItem => ({
  identifier,
  title: identifier,
  href: null,
  isvisible: true,
  launch_data: null,
  mastery_score: null,
  prerequisites: null,
  completion_threshold: null,
  scaled_passing_score: null,
  max_time_allowed: null,
  time_limit_action: null,
  children: [],
  ...over,
})

/** An interaction as the progress record keeps it (learner §3 SCORM progress record). */
export const ScormInteraction = z.object({
  id: z.string().max(4000),
  type: z.string().max(100).optional(),
  timestamp: z.string().max(100).optional(),
  result: z.string().max(1000).optional(),
  latency: z.string().max(100).optional(),
  student_response: z.string().max(64_000).optional(),
  correct_responses: z.array(z.string().max(64_000)).max(1000).optional(),
})
export type ScormInteraction = z.infer<typeof ScormInteraction>

/** GET /scorm/progress/{moduleId} (learner §3 SCORM progress record). Defaults when nothing stored. */
export const ScormProgress = z.object({
  lessonStatus: z.string(),
  score: z.number().nullable(),
  location: z.string(),
  suspendData: z.string(),
  totalTime: z.string(),
  sessionTime: z.string(),
  interactions: z.array(ScormInteraction),
})
export type ScormProgress = z.infer<typeof ScormProgress>
export const DEFAULT_SCORM_PROGRESS: ScormProgress = {
  lessonStatus: 'not attempted',
  score: null,
  location: '',
  suspendData: '',
  totalTime: '0000:00:00',
  sessionTime: '0000:00:00',
  interactions: [],
}

/** Statuses the progress record may carry (learner §5: SCORM 1.2 lesson_status values, and 2004's `unknown`). */
export const LESSON_STATUSES = ['passed', 'completed', 'failed', 'incomplete', 'browsed', 'not attempted', 'unknown'] as const
/** The record's time format (learner §3: 0000:00:00; hours of 2-4 digits, optional hundredths). */
const TIMESPAN = /^\d{2,4}:[0-5]\d:[0-5]\d(\.\d{1,2})?$/

/** POST /scorm/progress (bearer): the spec's summary record of one module. */
export const ScormProgressBody = z.object({
  moduleId: z.number().int().positive(),
  courseId: z.number().int().positive(),
  scormData: z.object({
    /** 1.2 lesson statuses and 2004's `unknown`; which apply depends on the module's SCORM version. */
    lessonStatus: z.enum(LESSON_STATUSES, { error: `lessonStatus must be one of: ${LESSON_STATUSES.join(', ')}` }).optional(),
    score: z.number().nullable().optional(),
    location: z.string().max(1000).optional(),
    suspendData: z.string().max(64_000).optional(),
    totalTime: z.string().regex(TIMESPAN, 'totalTime must look like 0000:00:00').optional(),
    sessionTime: z.string().regex(TIMESPAN, 'sessionTime must look like 0000:00:00').optional(),
    interactions: z.array(ScormInteraction).max(1000).optional(),
  }),
})

/** Stored runtime state of one SCO of a learner, loaded into the runtime before Initialize. */
export const ScoState = z.object({
  /** The whole cmi tree as the runtime rendered it (scorm-again `renderCommitCMI` / `cmi` JSON). */
  cmi: z.record(z.string(), z.unknown()),
  /** What cmi.core.entry (1.2) / cmi.entry (2004) must be at the next launch: 'resume' after an exit of suspend. */
  entry: z.enum(['ab-initio', 'resume', '']),
  updated_at: z.string(),
})
export type ScoState = z.infer<typeof ScoState>

/**
 * The sequencing engine's own serialized state (scorm-again `serializeSequencingState()`: activity
 * tree tracking, global objectives, suspended activity). Opaque to the server, which keeps the
 * newest one per learner and module.
 */
export const SequencingState = z.record(z.string(), z.unknown())
export type SequencingState = z.infer<typeof SequencingState>

/** GET /scorm/{moduleId}/launch → 200 (202 is `ScormProcessing`). */
/** Path of the content player page on the content origin (served there by the gateway). */
export const CONTENT_PLAYER_PATH = '/player/'

export const ScormLaunch = z.object({
  /**
   * The content player page, on the content origin (never the portal's own: decision
   * "content-origin"): it runs the SCORM runtime and shows the package's SCOs. Every other URL of
   * the launch is a path on that origin.
   */
  playerUrl: z.string(),
  /** Launch URL of `startItem` (a path on the content origin, with the item's query string). */
  url: z.string(),
  moduleId: z.number().int(),
  courseId: z.number().int(),
  version: ScormVersion,
  edition: z.string().nullable(),
  /** Signed per-launch token, also embedded in `contentBase` and `commitUrl`. */
  launchToken: z.string(),
  /** `/api/content/{launchToken}/`: every file of the package lives under it. */
  contentBase: z.string(),
  /** `/api/scorm/commit/{launchToken}`: POST a `ScormCommit` (JSON or text/plain body). */
  commitUrl: z.string(),
  expiresAt: z.string(),
  /** The package's default organization. */
  title: z.string(),
  items: z.array(ScormItem),
  /** Identifier of the item to open: the one last used, else the first launchable one. */
  startItem: z.string(),
  /** Stored state per item identifier (absent for an item never opened). */
  state: z.record(z.string(), ScoState),
  /** SCORM 2004 4th `adl.data` stores shared by the package's SCOs: id → store. */
  sharedData: z.record(z.string(), z.string()),
  /** Learner facts for cmi.core.student_id / student_name (1.2) and learner_id / learner_name (2004). */
  learner: z.object({ id: z.string(), name: z.string() }),
  /**
   * Present for the SCORM 2004 packages the runtime sequences with scorm-again's engine (those that
   * declare sequencing, and every multi-SCO 2004 package): the root activity, and the learner's
   * stored sequencing state (null before the first one). The engine then picks the SCO to open;
   * `startItem` is only the server's guess.
   */
  sequencing: z.object({ organization: ScormOrganization, state: SequencingState.nullable() }).optional(),
  /**
   * The learner's revision of this module's runtime data when launched (0 before any commit). The
   * launch's commits carry it: once another launch stored something newer, they are refused (409)
   * instead of overwriting it (docs/decisions/0031-scorm-attempts-and-revisions.md).
   */
  revision: z.number().int().min(0).optional(),
})
export type ScormLaunch = z.infer<typeof ScormLaunch>


/** GET /scorm/{moduleId}/launch while the package is being ingested. */
export const ScormProcessing = z.object({ status: z.literal('processing'), message: z.string() })

/** GET /modules/{id}/launch (video, PDF, audio, slides): a signed URL of the file. */
export const ModuleLaunch = z.object({
  /** On the content origin (an absolute URL when one is configured): the portal's own origin serves no uploaded file. */
  url: z.string(),
  moduleId: z.number().int(),
  content_type: z.string(),
  expiresAt: z.string(),
})
export type ModuleLaunch = z.infer<typeof ModuleLaunch>

/**
 * POST /scorm/commit/{launchToken}: scorm-again's commit object (learner §3 commit result object)
 * plus which SCO it is and its order. Sent as JSON by autocommit and as a `text/plain` beacon at
 * termination or page dismissal; a commit with a lower (launch, seq) than the stored one is ignored.
 */
/** How deep a commit's runtime data may nest: a cmi tree is a few levels deep (cmi.interactions.n.correct_responses.n.pattern). */
export const RUNTIME_DATA_MAX_DEPTH = 32

/** Whether `value` nests no deeper than `max` levels of objects and arrays (stops looking past it). */
export function nestsAtMost(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return true
  if (max <= 0) return false
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (!nestsAtMost(v, max - 1)) return false
  return true
}

export const ScormCommit = z.object({
  itemId: z.string().min(1).max(255),
  /** Increases with every commit of one launch (stored as a 32-bit integer). */
  seq: z.number().int().min(0).max(2_147_483_647),
  /**
   * The launch's `revision`: the commit is stored only if no other launch stored anything since
   * (or this launch stored last); else 409 `stale_commit`. Absent: ordered by (launch, seq) alone.
   */
  revision: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** True for the commit sent by Terminate/LMSFinish or at page dismissal. */
  terminated: z.boolean().default(false),
  successStatus: z.string().max(50).optional(),
  completionStatus: z.string().max(50).optional(),
  totalTimeSeconds: z.number().min(0).optional(),
  score: z
    .object({ raw: z.number().optional(), min: z.number().optional(), max: z.number().optional(), scaled: z.number().optional() })
    .partial()
    .optional(),
  /** The whole cmi tree. */
  runtimeData: z
    .record(z.string(), z.unknown())
    .refine((tree) => nestsAtMost(tree, RUNTIME_DATA_MAX_DEPTH), `runtimeData may nest at most ${RUNTIME_DATA_MAX_DEPTH} levels deep`),
  /** adl.data stores written by the SCO (2004 4th). */
  adlData: z.array(z.object({ id: z.string().max(4000), store: z.string().max(64_000) })).max(100).optional(),
  /**
   * Sequenced 2004 packages: the engine's state when it changed since the last commit of this
   * launch, and the root activity's rollup (the module is complete when it says completed or passed).
   */
  sequencing: z
    .object({
      state: SequencingState,
      root: z.object({ completionStatus: z.enum(['completed', 'incomplete', 'not attempted', 'unknown']), successStatus: z.enum(['passed', 'failed', 'unknown']) }),
    })
    .optional(),
})
export type ScormCommit = z.infer<typeof ScormCommit>

/** What scorm-again reads from a commit answer. */
export const ScormCommitResponse = z.object({
  result: z.boolean(),
  errorCode: z.number().int(),
  /** False when the commit was older than the stored state and was ignored. */
  applied: z.boolean().optional(),
  /** True when this commit completed the module (first time). */
  moduleCompleted: z.boolean().optional(),
})

/** GET /scorm-editor/edit/{moduleId}. */
export const ScormEditState = z.object({ hasEdits: z.boolean() })
