import { z } from 'zod'
import { ScormVersion } from './courses.ts'
import { ScormItem, ScormOrganization } from './scorm-package.ts'

/**
 * The SCORM runtime: progress record, launch, commits (learner §3, §7). Paths below are without
 * the gateway's `/api`.
 */

/**
 * What the runtime keeps of a learner's state, at most: texts (responses, shared data stores) of
 * 64,000 characters, SCORM 2004's smallest permitted maximum for suspend_data; and suspend_data
 * itself, 64,000 characters in SCORM 1.2 too (DESIGN.md's deliberate departure from the 1.2 letter
 * of 4,096: real content exceeds it), which the runtime refuses past it (scorm-again) and a
 * commit or a progress record answers with 400.
 */
export const SCORM_LIMITS = { text: 64_000, suspendData: 64_000 } as const

/** An interaction as the progress record keeps it (learner §3 SCORM progress record). */
export const ScormInteraction = z.object({
  id: z.string().max(4000),
  type: z.string().max(100).optional(),
  timestamp: z.string().max(100).optional(),
  result: z.string().max(1000).optional(),
  latency: z.string().max(100).optional(),
  student_response: z.string().max(SCORM_LIMITS.text).optional(),
  correct_responses: z.array(z.string().max(SCORM_LIMITS.text)).max(1000).optional(),
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
    suspendData: z.string().max(SCORM_LIMITS.suspendData).optional(),
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
  /**
   * A final commit too large for a beacon sends only what changed: `runtimeData` is then a JSON
   * merge patch (RFC 7396) of the state this launch stored with its commit `base` (its `seq`), or
   * a later one of the same launch; when another state is stored, 409 `stale_commit`.
   */
  base: z.number().int().min(0).max(2_147_483_647).optional(),
  successStatus: z.string().max(50).optional(),
  completionStatus: z.string().max(50).optional(),
  totalTimeSeconds: z.number().min(0).optional(),
  score: z.object({ raw: z.number().optional(), min: z.number().optional(), max: z.number().optional(), scaled: z.number().optional() }).partial().optional(),
  /** The whole cmi tree (with `base`: the merge patch to it). */
  runtimeData: z.record(z.string(), z.unknown()).refine((tree) => nestsAtMost(tree, RUNTIME_DATA_MAX_DEPTH), `runtimeData may nest at most ${RUNTIME_DATA_MAX_DEPTH} levels deep`),
  /** adl.data stores written by the SCO (2004 4th). */
  adlData: z
    .array(z.object({ id: z.string().max(4000), store: z.string().max(SCORM_LIMITS.text) }))
    .max(100)
    .optional(),
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
