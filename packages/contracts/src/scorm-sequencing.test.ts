import { describe, expect, it } from 'vitest'
import { blankScormItem, objectiveMapTo, ScormItem, type ScormOrganization, type ScormSequencing } from './scorm-package.ts'
import { ScormCommit, ScormLaunch } from './scorm-runtime.ts'
import { activityTreeOf, prerequisitesOf } from './scorm-sequencing.ts'

const map = objectiveMapTo

const item = (identifier: string, over: Partial<ScormItem> = {}): ScormItem => blankScormItem(identifier, { title: identifier.toUpperCase(), href: `${identifier}.html`, ...over })

const gated = (own: string, after: string): ScormSequencing => ({
  sequencingRules: {
    preConditionRules: [
      {
        conditionCombination: 'any',
        conditions: [
          { condition: 'satisfied', operator: 'not', referencedObjective: 'before' },
          { condition: 'objectiveStatusKnown', operator: 'not', referencedObjective: 'before' },
        ],
        action: 'disabled',
      },
    ],
  },
  objectives: {
    primary: { objectiveID: own, satisfiedByMeasure: false, mapInfo: [map(`g.${own}`, { readSatisfiedStatus: true, writeSatisfiedStatus: true })] },
    objectives: [{ objectiveID: 'before', satisfiedByMeasure: false, mapInfo: [map(`g.${after}`, { readSatisfiedStatus: true })] }],
  },
})

const organization: ScormOrganization = { identifier: 'org', declaresSequencing: true, objectivesGlobalToSystem: false, sequencing: { controlMode: { flow: true } } }

describe('activity tree for the sequencing engine', () => {
  it('writes out the spec defaults of the control modes (no flow unless declared)', () => {
    const tree = activityTreeOf({ organization: { ...organization, sequencing: undefined }, title: 'Course', items: [item('a'), item('b')] })
    const defaults = { choice: true, choiceExit: true, flow: false, forwardOnly: false, useCurrentAttemptObjectiveInfo: true, useCurrentAttemptProgressInfo: true }
    expect(tree).toEqual({
      id: 'org',
      title: 'Course',
      isVisible: true,
      sequencingControls: defaults,
      children: [
        { id: 'a', title: 'A', isVisible: true, sequencingControls: defaults, children: [] },
        { id: 'b', title: 'B', isVisible: true, sequencingControls: defaults, children: [] },
      ],
    })
  })

  it('maps rules, objectives and their maps, limits, rollup, randomization, delivery and presentation', () => {
    const lesson = item('lesson', {
      isvisible: false,
      sequencing: {
        ...gated('main', 'intro'),
        controlMode: { forwardOnly: true, choiceExit: false },
        sequencingRules: {
          ...gated('main', 'intro').sequencingRules,
          exitConditionRules: [{ conditionCombination: 'all', conditions: [{ condition: 'objectiveMeasureLessThan', measureThreshold: -0.25 }], action: 'exit' }],
          postConditionRules: [{ conditionCombination: 'all', conditions: [{ condition: 'always' }], action: 'retry' }],
        },
        limitConditions: { attemptLimit: 2, attemptAbsoluteDurationLimit: 'PT30M', attemptExperiencedDurationLimit: 'PT10M', endTimeLimit: '2030-01-01T00:00:00' },
        deliveryControls: { tracked: true, completionSetByContent: true },
      },
      completion: { completedByMeasure: true, minProgressMeasure: 0.8, progressWeight: 0.4 },
      hide_lms_ui: ['continue'],
      data_maps: [{ targetID: 'notes', readSharedData: true, writeSharedData: false }],
    })
    const unit = item('unit', {
      href: null,
      children: [lesson],
      sequencing: {
        rollupRules: {
          rollupProgressCompletion: false,
          objectiveMeasureWeight: 0.5,
          rules: [
            {
              childActivitySet: 'atLeastPercent',
              minimumPercent: 0.75,
              conditionCombination: 'any',
              conditions: [{ condition: 'activityProgressKnown' }, { condition: 'satisfied', operator: 'not' }],
              action: 'incomplete',
            },
          ],
        },
        rollupConsiderations: { requiredForCompleted: 'ifNotSuspended', measureSatisfactionIfActive: false },
        randomizationControls: { randomizationTiming: 'once', selectCount: 1, reorderChildren: true, selectionTiming: 'onEachNewAttempt' },
        constrainedChoiceConsiderations: { constrainChoice: true },
        objectives: { primary: { objectiveID: null, satisfiedByMeasure: true, minNormalizedMeasure: 0.6, mapInfo: [] }, objectives: [] },
      },
    })
    const tree = activityTreeOf({ organization, title: 'Course', items: [unit] })
    expect(tree.sequencingControls.flow).toBe(true)
    const u = tree.children[0]!
    expect(u.sequencingControls).toEqual({
      choice: true,
      choiceExit: true,
      flow: false,
      forwardOnly: false,
      useCurrentAttemptObjectiveInfo: true,
      useCurrentAttemptProgressInfo: true,
      constrainChoice: true,
      rollupProgressCompletion: false,
      objectiveMeasureWeight: 0.5,
      selectionTiming: 'onEachNewAttempt',
      selectCount: 1,
      randomizationTiming: 'once',
      randomizeChildren: true,
    })
    // The engine takes percentages; an objective without an ID is not given to it.
    expect(u.rollupRules).toEqual({
      rules: [
        {
          action: 'incomplete',
          consideration: 'atLeastPercent',
          minimumPercent: 75,
          conditionCombination: 'any',
          conditions: [{ condition: 'progressKnown' }, { condition: 'satisfied', operator: 'not' }],
        },
      ],
    })
    expect(u.rollupConsiderations).toEqual({ requiredForCompleted: 'ifNotSuspended', measureSatisfactionIfActive: false })
    expect(u.primaryObjective).toBeUndefined()
    const l = u.children[0]!
    expect(l).toMatchObject({
      id: 'lesson',
      isVisible: false,
      attemptLimit: 2,
      attemptAbsoluteDurationLimit: 'PT30M',
      endTimeLimit: '2030-01-01T00:00:00',
      deliveryControls: { tracked: true, completionSetByContent: true },
      completionThreshold: { completedByMeasure: true, minProgressMeasure: 0.8, progressWeight: 0.4 },
      hideLmsUi: ['continue'],
      sharedDataMaps: [{ targetID: 'notes', readSharedData: true, writeSharedData: false }],
    })
    expect(l.sequencingControls).toMatchObject({ forwardOnly: true, choiceExit: false, flow: false })
    expect(l.sequencingRules).toEqual({
      preConditionRules: [
        {
          action: 'disabled',
          conditionCombination: 'any',
          conditions: [
            { condition: 'satisfied', operator: 'not', referencedObjective: 'before' },
            { condition: 'objectiveStatusKnown', operator: 'not', referencedObjective: 'before' },
          ],
        },
      ],
      exitConditionRules: [{ action: 'exit', conditionCombination: 'all', conditions: [{ condition: 'objectiveMeasureLessThan', parameters: { threshold: -0.25 } }] }],
      postConditionRules: [{ action: 'retry', conditionCombination: 'all', conditions: [{ condition: 'always' }] }],
    })
    expect(l.primaryObjective).toEqual({
      objectiveID: 'main',
      isPrimary: true,
      satisfiedByMeasure: false,
      mapInfo: [map('g.main', { readSatisfiedStatus: true, writeSatisfiedStatus: true })],
    })
    expect(l.objectives).toEqual([{ objectiveID: 'before', isPrimary: false, satisfiedByMeasure: false, mapInfo: [map('g.intro', { readSatisfiedStatus: true })] }])
  })

  it('leaves out an attempt limit of 0 (no limit)', () => {
    const tree = activityTreeOf({ organization, title: 'C', items: [item('a', { sequencing: { limitConditions: { attemptLimit: 0 } } })] })
    expect(tree.children[0]!.attemptLimit).toBeUndefined()
  })
})

describe('prerequisites of a locked item', () => {
  it('are the items writing the global objectives its disabled rules read', () => {
    const items = [
      item('intro', {
        sequencing: { objectives: { primary: { objectiveID: 'intro', satisfiedByMeasure: false, mapInfo: [map('g.intro', { writeSatisfiedStatus: true })] }, objectives: [] } },
      }),
      item('lesson', { sequencing: gated('lesson', 'intro') }),
      item('quiz', { sequencing: gated('quiz', 'lesson') }),
    ]
    expect(prerequisitesOf(items, 'lesson').map((i) => i.identifier)).toEqual(['intro'])
    expect(prerequisitesOf(items, 'quiz').map((i) => i.identifier)).toEqual(['lesson'])
    expect(prerequisitesOf(items, 'intro')).toEqual([])
    expect(prerequisitesOf(items, 'nope')).toEqual([])
  })
})

describe('stored data from before sequencing was kept', () => {
  it('still parses: items, launch answers and commits without the sequencing fields', () => {
    const old = item('a')
    expect(ScormItem.parse(old)).toEqual(old)
    const launch = {
      playerUrl: 'http://localhost:8081/player/',
      url: '/api/content/t/a.html',
      moduleId: 1,
      courseId: 1,
      version: '2004',
      edition: null,
      launchToken: 't',
      contentBase: '/api/content/t/',
      commitUrl: '/api/scorm/commit/t',
      expiresAt: new Date(0).toISOString(),
      title: 'T',
      items: [old],
      startItem: 'a',
      state: {},
      sharedData: {},
      learner: { id: 'u', name: 'U' },
    }
    expect(ScormLaunch.parse(launch).sequencing).toBeUndefined()
    expect(ScormCommit.parse({ itemId: 'a', seq: 1, runtimeData: {} }).sequencing).toBeUndefined()
    expect(ScormCommit.safeParse({ itemId: 'a', seq: 1, runtimeData: {}, sequencing: { state: {}, root: { completionStatus: 'done', successStatus: 'unknown' } } }).success).toBe(
      false,
    )
  })
})
