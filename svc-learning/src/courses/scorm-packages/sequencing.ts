import {
  HIDE_LMS_UI,
  objectiveMapTo,
  ROLLUP_CONDITIONS,
  SEQUENCING_RULE_ACTIONS,
  SEQUENCING_RULE_CONDITIONS,
  ScormSequencing,
  type HideLmsUi,
  type ScormCompletionThreshold,
  type ScormObjective,
  type ScormObjectiveMap,
  type ScormOrganization,
} from '@portal/contracts'
import { asArray, attr, child, numberOf, textOf, type XmlNode } from './xml-node.ts'

/*
 * SCORM 2004 sequencing information (IMS SS `imsss:sequencing` with the ADL `adlseq:` extensions and
 * `adlnav:presentation`) of the manifest tree fast-xml-parser makes: namespace prefixes are dropped
 * and names lower-cased, so `imsss:objectives` and `adlseq:objectives` share the name `objectives`;
 * the IMS one always has its required `primaryObjective`, the ADL one never has one.
 * Values outside the schema's vocabularies leave out the rule or attribute they belong to.
 */

type Seq = ScormSequencing

const boolOf = (node: XmlNode | undefined, name: string): boolean | undefined => {
  const v = attr(node, name)?.trim().toLowerCase()
  return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined
}
const numOf = (node: XmlNode | undefined, name: string): number | undefined => numberOf(attr(node, name)) ?? undefined
const textAttr = (node: XmlNode | undefined, name: string): string | undefined => attr(node, name)?.trim() || undefined
const oneOf = <T extends string>(values: readonly T[], v: string | null | undefined): T | undefined => values.find((x) => x.toLowerCase() === v?.trim().toLowerCase())

/** Drops undefined fields; undefined when nothing is left (the element says nothing). */
function compact<T extends object>(o: T): T | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
  return Object.keys(out).length ? out : undefined
}

/**
 * An element made only of boolean attributes (`imsss:controlMode`, `deliveryControls`...), as the
 * given fields (field name → attribute name); undefined without the element, {} when it sets none.
 */
function flagsOf<K extends string>(seq: XmlNode, element: string, fields: Record<K, string>): Partial<Record<K, boolean>> | undefined {
  const n = child(seq, element)
  if (!n) return undefined
  const flags = Object.fromEntries(Object.entries<string>(fields).map(([field, name]) => [field, boolOf(n, name)])) as Partial<Record<K, boolean>>
  return compact(flags) ?? {}
}

const controlModeOf = (seq: XmlNode) =>
  flagsOf(seq, 'controlmode', {
    choice: 'choice',
    choiceExit: 'choiceexit',
    flow: 'flow',
    forwardOnly: 'forwardonly',
    useCurrentAttemptObjectiveInfo: 'usecurrentattemptobjectiveinfo',
    useCurrentAttemptProgressInfo: 'usecurrentattemptprogressinfo',
  })

function ruleOf<A extends string>(rule: XmlNode, actions: readonly A[]) {
  const conditionsNode = child(rule, 'ruleconditions')
  const conditionCombination = oneOf(['all', 'any'] as const, attr(conditionsNode, 'conditioncombination') ?? 'all')
  const action = oneOf(actions, attr(child(rule, 'ruleaction'), 'action'))
  const conditions = asArray(conditionsNode?.rulecondition).map((c) => {
    const condition = oneOf(SEQUENCING_RULE_CONDITIONS, attr(c, 'condition'))
    const operator = attr(c, 'operator')?.trim().toLowerCase() ?? 'noop'
    if (!condition || (operator !== 'not' && operator !== 'noop')) return null
    return compact({
      condition,
      operator: operator === 'not' ? ('not' as const) : undefined,
      referencedObjective: textAttr(c, 'referencedobjective'),
      measureThreshold: numOf(c, 'measurethreshold'),
    })!
  })
  if (!conditionCombination || !action || conditions.length === 0 || conditions.includes(null)) return null
  return { conditionCombination, conditions: conditions.filter((c) => c !== null), action }
}

function sequencingRulesOf(seq: XmlNode) {
  const n = child(seq, 'sequencingrules')
  if (!n) return undefined
  const rules = <A extends string>(name: string, actions: readonly A[]) => {
    const list = asArray(n[name]).map((r) => ruleOf(r, actions))
    const kept = list.filter((r) => r !== null)
    return kept.length ? kept : undefined
  }
  return (
    compact({
      preConditionRules: rules('preconditionrule', SEQUENCING_RULE_ACTIONS.pre),
      exitConditionRules: rules('exitconditionrule', SEQUENCING_RULE_ACTIONS.exit),
      postConditionRules: rules('postconditionrule', SEQUENCING_RULE_ACTIONS.post),
    }) ?? {}
  )
}

const limitConditionsOf = (seq: XmlNode) => {
  const n = child(seq, 'limitconditions')
  if (!n) return undefined
  const limit = numOf(n, 'attemptlimit')
  return (
    compact({
      attemptLimit: limit !== undefined && Number.isInteger(limit) && limit >= 0 ? limit : undefined,
      attemptAbsoluteDurationLimit: textAttr(n, 'attemptabsolutedurationlimit'),
      attemptExperiencedDurationLimit: textAttr(n, 'attemptexperienceddurationlimit'),
      activityAbsoluteDurationLimit: textAttr(n, 'activityabsolutedurationlimit'),
      activityExperiencedDurationLimit: textAttr(n, 'activityexperienceddurationlimit'),
      beginTimeLimit: textAttr(n, 'begintimelimit'),
      endTimeLimit: textAttr(n, 'endtimelimit'),
    }) ?? {}
  )
}

function rollupRulesOf(seq: XmlNode) {
  const n = child(seq, 'rolluprules')
  if (!n) return undefined
  const rules = asArray(n.rolluprule).flatMap((r) => {
    const conditionsNode = child(r, 'rollupconditions')
    const childActivitySet = oneOf(['all', 'any', 'none', 'atLeastCount', 'atLeastPercent'] as const, attr(r, 'childactivityset') ?? 'all')
    const conditionCombination = oneOf(['all', 'any'] as const, attr(conditionsNode, 'conditioncombination') ?? 'any')
    const action = oneOf(['satisfied', 'notSatisfied', 'completed', 'incomplete'] as const, attr(child(r, 'rollupaction'), 'action'))
    const conditions = asArray(conditionsNode?.rollupcondition).map((c) => {
      const condition = oneOf(ROLLUP_CONDITIONS, attr(c, 'condition'))
      const operator = attr(c, 'operator')?.trim().toLowerCase() ?? 'noop'
      if (!condition || (operator !== 'not' && operator !== 'noop')) return null
      return operator === 'not' ? { condition, operator: 'not' as const } : { condition }
    })
    if (!childActivitySet || !conditionCombination || !action || conditions.length === 0 || conditions.includes(null)) return []
    const minimumCount = numOf(r, 'minimumcount')
    const minimumPercent = numOf(r, 'minimumpercent')
    return [
      compact({
        childActivitySet,
        minimumCount: minimumCount !== undefined && Number.isInteger(minimumCount) && minimumCount >= 0 ? minimumCount : undefined,
        minimumPercent: minimumPercent !== undefined && minimumPercent >= 0 && minimumPercent <= 1 ? minimumPercent : undefined,
        conditionCombination,
        conditions: conditions.filter((c) => c !== null),
        action,
      })!,
    ]
  })
  const weight = numOf(n, 'objectivemeasureweight')
  return {
    ...compact({
      rollupObjectiveSatisfied: boolOf(n, 'rollupobjectivesatisfied'),
      rollupProgressCompletion: boolOf(n, 'rollupprogresscompletion'),
      objectiveMeasureWeight: weight !== undefined && weight >= 0 && weight <= 1 ? weight : undefined,
    }),
    rules,
  }
}

const CONSIDERATIONS = ['always', 'ifAttempted', 'ifNotSkipped', 'ifNotSuspended'] as const
const rollupConsiderationsOf = (seq: XmlNode) => {
  const n = child(seq, 'rollupconsiderations')
  return n
    ? (compact({
        requiredForSatisfied: oneOf(CONSIDERATIONS, attr(n, 'requiredforsatisfied')),
        requiredForNotSatisfied: oneOf(CONSIDERATIONS, attr(n, 'requiredfornotsatisfied')),
        requiredForCompleted: oneOf(CONSIDERATIONS, attr(n, 'requiredforcompleted')),
        requiredForIncomplete: oneOf(CONSIDERATIONS, attr(n, 'requiredforincomplete')),
        measureSatisfactionIfActive: boolOf(n, 'measuresatisfactionifactive'),
      }) ?? {})
    : undefined
}

/** `imsss:objectives` (has the required primaryObjective) and `adlseq:objectives` of one sequencing element. */
const imsssObjectives = (seq: XmlNode) => asArray(seq.objectives).find((o) => o.primaryobjective !== undefined)
const adlseqObjectives = (seq: XmlNode) => asArray(seq.objectives).find((o) => o.primaryobjective === undefined)

type ImsssFlags = Pick<ScormObjectiveMap, 'readSatisfiedStatus' | 'readNormalizedMeasure' | 'writeSatisfiedStatus' | 'writeNormalizedMeasure'>
type AdlseqFlags = Omit<ScormObjectiveMap, keyof ImsssFlags | 'targetObjectiveID'>
const imsssFlags = (m: XmlNode): ImsssFlags => ({
  readSatisfiedStatus: boolOf(m, 'readsatisfiedstatus') ?? true,
  readNormalizedMeasure: boolOf(m, 'readnormalizedmeasure') ?? true,
  writeSatisfiedStatus: boolOf(m, 'writesatisfiedstatus') ?? false,
  writeNormalizedMeasure: boolOf(m, 'writenormalizedmeasure') ?? false,
})
const adlseqFlags = (m: XmlNode): AdlseqFlags => ({
  readCompletionStatus: boolOf(m, 'readcompletionstatus') ?? true,
  writeCompletionStatus: boolOf(m, 'writecompletionstatus') ?? false,
  readProgressMeasure: boolOf(m, 'readprogressmeasure') ?? true,
  writeProgressMeasure: boolOf(m, 'writeprogressmeasure') ?? false,
  readRawScore: boolOf(m, 'readrawscore') ?? true,
  writeRawScore: boolOf(m, 'writerawscore') ?? false,
  readMinScore: boolOf(m, 'readminscore') ?? true,
  writeMinScore: boolOf(m, 'writeminscore') ?? false,
  readMaxScore: boolOf(m, 'readmaxscore') ?? true,
  writeMaxScore: boolOf(m, 'writemaxscore') ?? false,
})

/**
 * The objectives of `imsss` (from one sequencing element) with the `adlseq:mapInfo` of `adlseq`
 * (possibly from another: the collection's) merged per objective and target.
 */
function objectivesOf(imsss: XmlNode | undefined, adlseq: XmlNode | undefined) {
  if (!imsss) return undefined
  const adlseqMaps = new Map<string, XmlNode[]>()
  for (const o of asArray(adlseq?.objective)) {
    const id = textAttr(o, 'objectiveid')
    if (id) adlseqMaps.set(id, [...(adlseqMaps.get(id) ?? []), ...asArray(o.mapinfo)])
  }
  const objective = (o: XmlNode): ScormObjective => {
    const objectiveID = textAttr(o, 'objectiveid') ?? null
    const maps = new Map<string, ScormObjectiveMap>()
    const entry = (target: string) => maps.get(target) ?? objectiveMapTo(target)
    for (const m of asArray(o.mapinfo)) {
      const target = textAttr(m, 'targetobjectiveid')
      if (target) maps.set(target, { ...entry(target), ...imsssFlags(m) })
    }
    for (const m of objectiveID ? (adlseqMaps.get(objectiveID) ?? []) : []) {
      const target = textAttr(m, 'targetobjectiveid')
      if (target) maps.set(target, { ...entry(target), ...adlseqFlags(m) })
    }
    const min = numberOf(textOf(o.minnormalizedmeasure))
    return {
      objectiveID,
      satisfiedByMeasure: boolOf(o, 'satisfiedbymeasure') ?? false,
      ...(min !== null && min >= -1 && min <= 1 ? { minNormalizedMeasure: min } : {}),
      mapInfo: [...maps.values()],
    }
  }
  const primary = child(imsss, 'primaryobjective')
  return {
    ...(primary ? { primary: objective(primary) } : {}),
    objectives: asArray(imsss.objective)
      .filter((o) => textAttr(o, 'objectiveid'))
      .map(objective),
  }
}

const TIMING = ['never', 'once', 'onEachNewAttempt'] as const
const randomizationOf = (seq: XmlNode) => {
  const n = child(seq, 'randomizationcontrols')
  if (!n) return undefined
  const selectCount = numOf(n, 'selectcount')
  return (
    compact({
      randomizationTiming: oneOf(TIMING, attr(n, 'randomizationtiming')),
      selectCount: selectCount !== undefined && Number.isInteger(selectCount) && selectCount >= 0 ? selectCount : undefined,
      reorderChildren: boolOf(n, 'reorderchildren'),
      selectionTiming: oneOf(TIMING, attr(n, 'selectiontiming')),
    }) ?? {}
  )
}

const deliveryControlsOf = (seq: XmlNode) =>
  flagsOf(seq, 'deliverycontrols', { tracked: 'tracked', completionSetByContent: 'completionsetbycontent', objectiveSetByContent: 'objectivesetbycontent' })

const constrainedChoiceOf = (seq: XmlNode) => flagsOf(seq, 'constrainedchoiceconsiderations', { preventActivation: 'preventactivation', constrainChoice: 'constrainchoice' })

/**
 * The sequencing information of an item or organization: its own `imsss:sequencing`, each top-level
 * element falling back to the one of the collection entry it references (`IDRef`). Undefined when
 * it has no sequencing element.
 */
export function sequencingOf(node: XmlNode, collection: ReadonlyMap<string, XmlNode>): ScormSequencing | undefined {
  const own = child(node, 'sequencing')
  if (!own) return undefined
  const ref = attr(own, 'idref')?.trim()
  const shared = ref ? collection.get(ref) : undefined
  const pick = <T>(read: (seq: XmlNode) => T | undefined): T | undefined => read(own) ?? (shared ? read(shared) : undefined)
  const seq: Seq = {
    controlMode: pick(controlModeOf),
    sequencingRules: pick(sequencingRulesOf),
    limitConditions: pick(limitConditionsOf),
    rollupRules: pick(rollupRulesOf),
    rollupConsiderations: pick(rollupConsiderationsOf),
    objectives: objectivesOf(pick(imsssObjectives), pick(adlseqObjectives)),
    randomizationControls: pick(randomizationOf),
    deliveryControls: pick(deliveryControlsOf),
    constrainedChoiceConsiderations: pick(constrainedChoiceOf),
  }
  // The zod schema is the contract of what is stored: a value it refuses is a bug here, not bad input.
  return ScormSequencing.parse(compact(seq) ?? {})
}

/** `adlcp:completionThreshold` in its 4th edition form (attributes); the 3rd edition's text form is cmi.completion_threshold only. */
export function completionOf(item: XmlNode): ScormCompletionThreshold | undefined {
  const n = child(item, 'completionthreshold')
  if (!n?.['@']) return undefined
  const clamp = (v: number | undefined, d: number) => (v === undefined || v < 0 || v > 1 ? d : v)
  return {
    completedByMeasure: boolOf(n, 'completedbymeasure') ?? false,
    minProgressMeasure: clamp(numOf(n, 'minprogressmeasure'), 1),
    progressWeight: clamp(numOf(n, 'progressweight'), 1),
  }
}

/** `adlnav:presentation/adlnav:navigationInterface/adlnav:hideLMSUI` values of an item. */
export function hideLmsUiOf(item: XmlNode): HideLmsUi[] | undefined {
  const values = asArray(child(child(item, 'presentation'), 'navigationinterface')?.hidelmsui)
    .map((n) => oneOf(HIDE_LMS_UI, textOf(n)))
    .filter((v) => v !== undefined)
  return values.length ? [...new Set(values)] : undefined
}

/** The organization as the root activity; `declaresSequencing` when it or any item has a sequencing element. */
export function organizationOf(org: XmlNode, identifier: string, collection: ReadonlyMap<string, XmlNode>, itemsDeclare: boolean): ScormOrganization {
  const sequencing = sequencingOf(org, collection)
  return {
    identifier,
    declaresSequencing: itemsDeclare || sequencing !== undefined,
    objectivesGlobalToSystem: boolOf(org, 'objectivesglobaltosystem') ?? true,
    ...(sequencing ? { sequencing } : {}),
  }
}
