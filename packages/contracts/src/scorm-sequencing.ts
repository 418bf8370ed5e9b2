import {
  walkItems,
  type HideLmsUi,
  type ScormItem,
  type ScormObjective,
  type ScormObjectiveMap,
  type ScormOrganization,
  type ScormRuleCondition,
  type ScormSequencing,
} from './scorm-package.ts'

/*
 * A package's sequencing (as the manifest declares it, see `ScormSequencing`) in the shape scorm-again
 * 3.4's SCORM 2004 engine takes as `settings.sequencing.activityTree` (its `ActivitySettings`), with
 * the spec's defaults written out where the engine's differ (its flow defaults to true, the IMS
 * Simple Sequencing default is false). The types below describe that shape without depending on
 * scorm-again, so the server's tests and the runtime share one mapping.
 */

export interface EngineRuleCondition {
  condition: string
  operator?: 'not'
  referencedObjective?: string
  parameters?: { threshold: number }
}
export interface EngineRule {
  action: string
  conditionCombination: 'all' | 'any'
  conditions: EngineRuleCondition[]
}
export interface EngineRollupRule {
  action: string
  consideration: string
  minimumCount?: number
  /** 0 to 100 (the manifest's fraction times 100). */
  minimumPercent?: number
  conditionCombination: 'all' | 'any'
  conditions: { condition: string; operator?: 'not' }[]
}
export interface EngineObjective {
  objectiveID: string
  isPrimary: boolean
  satisfiedByMeasure: boolean
  minNormalizedMeasure?: number
  mapInfo: ScormObjectiveMap[]
}
export interface EngineControls {
  choice: boolean
  choiceExit: boolean
  flow: boolean
  forwardOnly: boolean
  useCurrentAttemptObjectiveInfo: boolean
  useCurrentAttemptProgressInfo: boolean
  preventActivation?: boolean
  constrainChoice?: boolean
  rollupObjectiveSatisfied?: boolean
  rollupProgressCompletion?: boolean
  objectiveMeasureWeight?: number
  selectionTiming?: string
  selectCount?: number
  randomizationTiming?: string
  /** The manifest's `reorderChildren` (scorm-again's own `reorderChildren` is its "already reordered" state). */
  randomizeChildren?: boolean
}
export interface EngineActivity {
  id: string
  title: string
  isVisible: boolean
  children: EngineActivity[]
  sequencingControls: EngineControls
  deliveryControls?: { tracked?: boolean; completionSetByContent?: boolean; objectiveSetByContent?: boolean }
  sequencingRules?: { preConditionRules?: EngineRule[]; exitConditionRules?: EngineRule[]; postConditionRules?: EngineRule[] }
  rollupRules?: { rules: EngineRollupRule[] }
  rollupConsiderations?: Record<string, string | boolean>
  primaryObjective?: EngineObjective
  objectives?: EngineObjective[]
  attemptLimit?: number
  attemptAbsoluteDurationLimit?: string
  activityAbsoluteDurationLimit?: string
  beginTimeLimit?: string
  endTimeLimit?: string
  completionThreshold?: { completedByMeasure: boolean; minProgressMeasure: number; progressWeight: number }
  hideLmsUi?: HideLmsUi[]
  sharedDataMaps?: { targetID: string; readSharedData: boolean; writeSharedData: boolean }[]
}

/** The package a tree is built from: its organization (root activity), title and item tree. */
export interface SequencedPackage {
  organization: ScormOrganization
  title: string
  items: readonly ScormItem[]
}

/** scorm-again has no `activityProgressKnown` rollup condition; its `progressKnown` is the same test. */
const ROLLUP_CONDITION_NAMES: Record<string, string> = { activityProgressKnown: 'progressKnown' }

type ManifestRule = { action: string; conditionCombination: 'all' | 'any'; conditions: ScormRuleCondition[] }
const rules = (list: readonly ManifestRule[] | undefined) =>
  list?.map((r): EngineRule => ({
    action: r.action,
    conditionCombination: r.conditionCombination,
    conditions: r.conditions.map((c) => ({
      condition: c.condition,
      ...(c.operator ? { operator: c.operator } : {}),
      ...(c.referencedObjective ? { referencedObjective: c.referencedObjective } : {}),
      ...(c.measureThreshold !== undefined ? { parameters: { threshold: c.measureThreshold } } : {}),
    })),
  }))

const objective = (o: ScormObjective, isPrimary: boolean): EngineObjective | null =>
  // An objective without an ID cannot be referenced or mapped: the activity's own status stands for it.
  o.objectiveID === null
    ? null
    : {
        objectiveID: o.objectiveID,
        isPrimary,
        satisfiedByMeasure: o.satisfiedByMeasure,
        ...(o.minNormalizedMeasure !== undefined ? { minNormalizedMeasure: o.minNormalizedMeasure } : {}),
        mapInfo: o.mapInfo.map((m) => ({ ...m })),
      }

function controls(seq: ScormSequencing | undefined): EngineControls {
  const mode = seq?.controlMode ?? {}
  const rollup = seq?.rollupRules
  const random = seq?.randomizationControls
  const constrained = seq?.constrainedChoiceConsiderations
  return {
    choice: mode.choice ?? true,
    choiceExit: mode.choiceExit ?? true,
    flow: mode.flow ?? false,
    forwardOnly: mode.forwardOnly ?? false,
    useCurrentAttemptObjectiveInfo: mode.useCurrentAttemptObjectiveInfo ?? true,
    useCurrentAttemptProgressInfo: mode.useCurrentAttemptProgressInfo ?? true,
    ...(constrained?.preventActivation !== undefined ? { preventActivation: constrained.preventActivation } : {}),
    ...(constrained?.constrainChoice !== undefined ? { constrainChoice: constrained.constrainChoice } : {}),
    ...(rollup?.rollupObjectiveSatisfied !== undefined ? { rollupObjectiveSatisfied: rollup.rollupObjectiveSatisfied } : {}),
    ...(rollup?.rollupProgressCompletion !== undefined ? { rollupProgressCompletion: rollup.rollupProgressCompletion } : {}),
    ...(rollup?.objectiveMeasureWeight !== undefined ? { objectiveMeasureWeight: rollup.objectiveMeasureWeight } : {}),
    ...(random?.selectionTiming ? { selectionTiming: random.selectionTiming } : {}),
    ...(random?.selectCount !== undefined ? { selectCount: random.selectCount } : {}),
    ...(random?.randomizationTiming ? { randomizationTiming: random.randomizationTiming } : {}),
    ...(random?.reorderChildren !== undefined ? { randomizeChildren: random.reorderChildren } : {}),
  }
}

function activity(id: string, title: string, seq: ScormSequencing | undefined, extra: Partial<EngineActivity>, children: EngineActivity[]): EngineActivity {
  const out: EngineActivity = { id, title, isVisible: true, children, sequencingControls: controls(seq), ...extra }
  if (seq?.deliveryControls) out.deliveryControls = { ...seq.deliveryControls }
  const r = seq?.sequencingRules
  if (r) {
    const pre = rules(r.preConditionRules)
    const exit = rules(r.exitConditionRules)
    const post = rules(r.postConditionRules)
    out.sequencingRules = { ...(pre ? { preConditionRules: pre } : {}), ...(exit ? { exitConditionRules: exit } : {}), ...(post ? { postConditionRules: post } : {}) }
  }
  if (seq?.rollupRules?.rules.length) {
    out.rollupRules = {
      rules: seq.rollupRules.rules.map((rule) => ({
        action: rule.action,
        consideration: rule.childActivitySet,
        ...(rule.minimumCount !== undefined ? { minimumCount: rule.minimumCount } : {}),
        ...(rule.minimumPercent !== undefined ? { minimumPercent: rule.minimumPercent * 100 } : {}),
        conditionCombination: rule.conditionCombination,
        conditions: rule.conditions.map((c) => ({ condition: ROLLUP_CONDITION_NAMES[c.condition] ?? c.condition, ...(c.operator ? { operator: c.operator } : {}) })),
      })),
    }
  }
  if (seq?.rollupConsiderations && Object.keys(seq.rollupConsiderations).length) out.rollupConsiderations = { ...seq.rollupConsiderations }
  const primary = seq?.objectives?.primary ? objective(seq.objectives.primary, true) : null
  if (primary) out.primaryObjective = primary
  const others = (seq?.objectives?.objectives ?? []).map((o) => objective(o, false)).filter((o) => o !== null)
  if (others.length) out.objectives = others
  const limits = seq?.limitConditions
  // An attempt limit of 0 places no limit (SCORM CAM); the engine would read it as "no attempt left".
  if (limits?.attemptLimit) out.attemptLimit = limits.attemptLimit
  if (limits?.attemptAbsoluteDurationLimit) out.attemptAbsoluteDurationLimit = limits.attemptAbsoluteDurationLimit
  if (limits?.activityAbsoluteDurationLimit) out.activityAbsoluteDurationLimit = limits.activityAbsoluteDurationLimit
  if (limits?.beginTimeLimit) out.beginTimeLimit = limits.beginTimeLimit
  if (limits?.endTimeLimit) out.endTimeLimit = limits.endTimeLimit
  return out
}

function itemActivity(item: ScormItem): EngineActivity {
  const extra: Partial<EngineActivity> = { isVisible: item.isvisible }
  if (item.completion) extra.completionThreshold = { ...item.completion }
  if (item.hide_lms_ui?.length) extra.hideLmsUi = [...item.hide_lms_ui]
  if (item.data_maps?.length) extra.sharedDataMaps = item.data_maps.map((m) => ({ ...m }))
  return activity(item.identifier, item.title, item.sequencing, extra, item.children.map(itemActivity))
}

/** The activity tree of a package for scorm-again's sequencing engine (`settings.sequencing.activityTree`). */
export function activityTreeOf(pkg: SequencedPackage): EngineActivity {
  return activity(pkg.organization.identifier, pkg.title, pkg.organization.sequencing, {}, pkg.items.map(itemActivity))
}

/**
 * The items whose objectives an item's `disabled` precondition rules wait for: the rule reads a
 * local objective that reads a global objective, and those items write it (satisfaction or
 * completion). For telling the learner why a lesson is locked; empty when the rules say otherwise.
 */
export function prerequisitesOf(items: readonly ScormItem[], itemId: string): ScormItem[] {
  const all = [...walkItems(items)]
  const item = all.find((i) => i.identifier === itemId)
  const seq = item?.sequencing
  if (!seq) return []
  const local = [...(seq.objectives?.primary ? [seq.objectives.primary] : []), ...(seq.objectives?.objectives ?? [])]
  const targets = new Set<string>()
  for (const rule of seq.sequencingRules?.preConditionRules ?? []) {
    if (rule.action !== 'disabled') continue
    for (const c of rule.conditions) {
      const o = local.find((x) => x.objectiveID !== null && x.objectiveID === c.referencedObjective)
      for (const m of o?.mapInfo ?? []) if (m.readSatisfiedStatus || m.readCompletionStatus) targets.add(m.targetObjectiveID)
    }
  }
  if (targets.size === 0) return []
  const writes = (i: ScormItem) => {
    const s = i.sequencing?.objectives
    const objectives = [...(s?.primary ? [s.primary] : []), ...(s?.objectives ?? [])]
    return objectives.some((o) => o.mapInfo.some((m) => targets.has(m.targetObjectiveID) && (m.writeSatisfiedStatus || m.writeCompletionStatus)))
  }
  return all.filter((i) => i.identifier !== itemId && writes(i))
}
