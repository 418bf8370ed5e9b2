import { z } from 'zod'

/**
 * SCORM packages as stored with their manifest: items, shared data maps and the SCORM 2004
 * sequencing schemas (learner §7; admin §5).
 */

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
  conditions: z
    .array(z.object({ condition: z.enum(ROLLUP_CONDITIONS), operator: z.literal('not').optional() }))
    .min(1)
    .max(100),
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
