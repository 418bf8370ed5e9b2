import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { objectiveMapTo } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { appendParameters, decodeXmlText, parseManifest } from './manifest.ts'
import { walkItems } from '@portal/contracts'
import { PackageError } from './package-info.ts'
import { fixturePath, readFixtureManifest } from './zips.test-support.ts'

const shape = (items: ReturnType<typeof parseManifest>['items']): unknown[] =>
  items.map((i) => (i.children.length ? { id: i.identifier, href: i.href, children: shape(i.children) } : { id: i.identifier, href: i.href }))

const rejection = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(PackageError)
    return err as PackageError
  }
  throw new Error('expected a PackageError')
}

describe('parseManifest on the real packages', () => {
  it('finds the fixtures in the shared folder', () => {
    // shared/ sits beside the repository (as in CI's clone): <repo>/../shared/fixtures/scorm
    const repo = fileURLToPath(new URL('../../../../', import.meta.url))
    expect(fixturePath('x.zip')).toBe(resolve(repo, '..', 'shared', 'fixtures', 'scorm', 'x.zip'))
    expect(existsSync(fixturePath('golf-scorm12-RuntimeBasicCalls.zip'))).toBe(true)
  })

  it('reads a single-SCO SCORM 1.2 package', async () => {
    const info = parseManifest(await readFixtureManifest('golf-scorm12-RuntimeBasicCalls.zip'))
    expect(info).toMatchObject({ version: '1.2', edition: '1.2', title: 'Golf Explained - Run-time Basic Calls', scoCount: 1 })
    expect(info.items).toEqual([
      {
        identifier: 'item_1',
        title: 'Golf Explained',
        href: 'shared/launchpage.html',
        isvisible: true,
        launch_data: null,
        mastery_score: null,
        prerequisites: null,
        completion_threshold: null,
        scaled_passing_score: null,
        max_time_allowed: null,
        time_limit_action: null,
        children: [],
      },
    ])
  })

  it('keeps the cluster tree of a SCORM 1.2 package with 18 SCOs and appends item parameters', async () => {
    const info = parseManifest(await readFixtureManifest('golf-scorm12-RuntimeMinimumCalls.zip'))
    expect(info).toMatchObject({ version: '1.2', edition: '1.2', title: 'Golf Explained - Minimum Run-time Calls', scoCount: 18 })
    expect(info.items.map((i) => [i.identifier, i.href, i.children.length])).toEqual([
      ['playing_item', null, 6],
      ['etiquette_item', null, 4],
      ['handicapping_item', null, 5],
      ['havingfun_item', null, 3],
    ])
    expect(shape(info.items)[0]).toEqual({
      id: 'playing_item',
      href: null,
      children: [
        { id: 'playing_playing_item', href: 'Playing/Playing.html' },
        { id: 'playing_par_item', href: 'Playing/Par.html' },
        { id: 'playing_scoring_item', href: 'Playing/Scoring.html' },
        { id: 'playing_otherscoring_item', href: 'Playing/OtherScoring.html' },
        { id: 'playing_rules_item', href: 'Playing/RulesOfGolf.html' },
        { id: 'playing_quiz_item', href: 'shared/assessmenttemplate.html?questions=Playing' },
      ],
    })
    expect(info.items[3].children.map((c) => c.href)).toEqual(['HavingFun/HowToHaveFun.html', 'HavingFun/MakeFriends.html', 'shared/assessmenttemplate.html?questions=HavingFun'])
  })

  it('reads a SCORM 2004 3rd edition single-SCO package', async () => {
    for (const name of ['golf-scorm2004-3rd-RuntimeBasicCalls.zip', 'golf-scorm2004-3rd-RunTimeAdvancedCalls.zip']) {
      const info = parseManifest(await readFixtureManifest(name))
      expect(info.version).toBe('2004')
      expect(info.edition).toBe('2004 3rd Edition')
      expect(info.scoCount).toBe(1)
      expect(shape(info.items)).toEqual([{ id: 'item_1', href: 'shared/launchpage.html' }])
    }
    const advanced = parseManifest(await readFixtureManifest('golf-scorm2004-3rd-RunTimeAdvancedCalls.zip'))
    expect(advanced.title).toBe('Golf Explained - Run-time Advanced Calls')
    // The objectives its sequencing declares: the content expects them in cmi.objectives from the start.
    expect(advanced.items[0]!.objective_ids).toEqual(['PRIMARYOBJ', 'obj_etiquette', 'obj_handicapping', 'obj_havingfun', 'obj_playing'])
    const basic = parseManifest(await readFixtureManifest('golf-scorm2004-3rd-RuntimeBasicCalls.zip'))
    expect(basic.items[0]!.objective_ids).toBeUndefined()
  })

  it('keeps the query string of launch hrefs in a SCORM 2004 sequencing package', async () => {
    const info = parseManifest(await readFixtureManifest('golf-scorm2004-3rd-SequencingForcedSequential.zip'))
    expect(info).toMatchObject({ version: '2004', edition: '2004 3rd Edition', title: 'Golf Explained - Sequencing Forced Order', scoCount: 5 })
    expect(shape(info.items)).toEqual([
      { id: 'playing_item', href: 'shared/launchpage.html?content=playing' },
      { id: 'etuqiette_item', href: 'shared/launchpage.html?content=etiquette' },
      { id: 'handicapping_item', href: 'shared/launchpage.html?content=handicapping' },
      { id: 'havingfun_item', href: 'shared/launchpage.html?content=havingfun' },
      { id: 'assessment_item', href: 'shared/launchpage.html?content=assessment' },
    ])
    expect(info.items.map((i) => i.title)).toEqual(['Playing the Game', 'Etiquette', 'Handicapping', 'Having Fun', 'Quiz'])
    expect(info.items.every((i) => i.scaled_passing_score === null && i.completion_threshold === null)).toBe(true)
  })

  it('recognises SCORM 2004 4th edition', async () => {
    const info = parseManifest(await readFixtureManifest('golf-scorm2004-4th-SequencingPostTestRollup4thEd.zip'))
    expect(info).toMatchObject({ version: '2004', edition: '2004 4th Edition', title: 'Golf Explained - 4th Edition Features', scoCount: 5 })
    expect(info.items.map((i) => i.href)).toEqual([
      'shared/launchpage.html?content=playing',
      'shared/launchpage.html?content=etiquette',
      'shared/launchpage.html?content=handicapping',
      'shared/launchpage.html?content=havingfun',
      'shared/launchpage.html?content=assessment',
    ])
    // completionThreshold with only a progressWeight sets no threshold.
    expect(info.items.map((i) => i.completion_threshold)).toEqual([null, null, null, null, null])
    // adlcp:data maps name the shared data store (adl.data) every SCO reads and writes.
    const notes = { targetID: 'com.scorm.golfsamples.sequencing.forcedsequential.notesStorage', readSharedData: true, writeSharedData: true }
    expect(info.items.filter((i) => i.data_maps).map((i) => i.data_maps)).toContainEqual([notes])
  })

  it('falls back to the first organization and keeps nesting, prerequisites and invisible items (debugger package)', async () => {
    const info = parseManifest(await readFixtureManifest('jleyva-scorm-debugger-scorm12.zip'))
    expect(info).toMatchObject({ version: '1.2', edition: '1.2', title: 'The organization' })
    const id = (s: string) => `mm-ITEM-SCORMDEbugger555f231e21b982c25s${s}`
    expect(shape(info.items)).toEqual([
      { id: id('01'), href: 'index.html' },
      { id: id('02'), href: 'index.html' },
      { id: id('03'), href: 'index.html' },
      { id: id('04'), href: 'index.html', children: [{ id: id('05'), href: 'index.html', children: [{ id: id('06'), href: 'index.html' }] }] },
      { id: id('07'), href: 'index.html' },
      { id: id('08'), href: 'index.html' },
    ])
    expect(info.scoCount).toBe(8)
    const all = [...walkItems(info.items)]
    expect(all.filter((i) => !i.isvisible).map((i) => i.title)).toEqual(['SCO not visible'])
    expect(all.find((i) => i.identifier === id('08'))?.prerequisites).toBe(`${id('01')} & ${id('02')}`)
    // adlcp:scormtype="asset": done once launched (issue 17 item 6)
    expect(all.filter((i) => i.asset).map((i) => i.title)).toEqual(['Third content (this is an asset)'])
  })
})

const manifest12 = (items: string, resources: string, extra = '') => `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2" ${extra}>
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>T</title>${items}</organization></organizations>
  <resources>${resources}</resources>
</manifest>`

describe('parseManifest', () => {
  it('reads the SCORM 1.2 item extensions', () => {
    const info = parseManifest(
      manifest12(
        `<item identifier="i1" identifierref="r1" isvisible="true">
           <title>Quiz &amp; test</title>
           <adlcp:masteryscore>80</adlcp:masteryscore>
           <adlcp:datafromlms>mode=exam&amp;x=1</adlcp:datafromlms>
           <adlcp:maxtimeallowed>00:30:00</adlcp:maxtimeallowed>
           <adlcp:timelimitaction>exit,message</adlcp:timelimitaction>
         </item>`,
        `<resource identifier="r1" type="webcontent" adlcp:scormtype="sco" href="quiz.html"/>`,
      ),
    )
    expect(info.items[0]).toMatchObject({
      title: 'Quiz & test',
      mastery_score: 80,
      launch_data: 'mode=exam&x=1',
      max_time_allowed: '00:30:00',
      time_limit_action: 'exit,message',
    })
  })

  it('reads the SCORM 2004 item extensions, also from a referenced sequencing collection', () => {
    const xml = `<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
      <metadata><schemaversion>CAM 1.3</schemaversion></metadata>
      <organizations default="b">
        <organization identifier="a"><title>Not this one</title><item identifier="x" identifierref="r1"><title>X</title></item></organization>
        <organization identifier="b"><title>Course</title>
          <item identifier="i1" identifierref="r1">
            <title>One</title>
            <adlcp:dataFromLMS>hello</adlcp:dataFromLMS>
            <adlcp:timeLimitAction>continue,no message</adlcp:timeLimitAction>
            <adlcp:completionThreshold completedByMeasure="true" minProgressMeasure="0.75"/>
            <imsss:sequencing>
              <imsss:limitConditions attemptAbsoluteDurationLimit="PT1H"/>
              <imsss:objectives><imsss:primaryObjective objectiveID="p" satisfiedByMeasure="true"><imsss:minNormalizedMeasure>0.6</imsss:minNormalizedMeasure></imsss:primaryObjective></imsss:objectives>
            </imsss:sequencing>
          </item>
          <item identifier="i2" identifierref="r1" parameters="page=2">
            <title>Two</title>
            <adlcp:completionThreshold>0.5</adlcp:completionThreshold>
            <imsss:sequencing IDRef="shared"/>
          </item>
        </organization>
      </organizations>
      <resources xml:base="content/"><resource identifier="r1" adlcp:scormType="sco" xml:base="sco1" href="./start.html"/></resources>
      <imsss:sequencingCollection><imsss:sequencing ID="shared">
        <imsss:objectives><imsss:primaryObjective satisfiedByMeasure="true"/></imsss:objectives>
      </imsss:sequencing></imsss:sequencingCollection>
    </manifest>`
    const info = parseManifest(xml)
    expect(info).toMatchObject({ version: '2004', edition: '2004 2nd Edition', title: 'Course', scoCount: 2 })
    expect(info.items[0]).toMatchObject({
      identifier: 'i1',
      href: 'content/sco1/start.html',
      launch_data: 'hello',
      time_limit_action: 'continue,no message',
      completion_threshold: 0.75,
      scaled_passing_score: 0.6,
      max_time_allowed: 'PT1H',
    })
    expect(info.items[1]).toMatchObject({ href: 'content/sco1/start.html?page=2', completion_threshold: 0.5, scaled_passing_score: 1 })
  })

  it('detects the version from namespaces when there is no schemaversion', () => {
    const res = `<resource identifier="r1" href="a.html"/>`
    const item = `<item identifier="i" identifierref="r1"><title>A</title></item>`
    const noMeta = (ns: string) =>
      `<manifest xmlns:adlcp="${ns}"><organizations><organization><title>T</title>${item}</organization></organizations><resources>${res}</resources></manifest>`
    expect(parseManifest(noMeta('http://www.adlnet.org/xsd/adlcp_v1p3'))).toMatchObject({ version: '2004', edition: null })
    expect(parseManifest(noMeta('http://www.adlnet.org/xsd/adlcp_rootv1p2'))).toMatchObject({ version: '1.2', edition: '1.2' })
  })

  it('turns every item of a resource package without organizations into a SCO', () => {
    const xml = `<manifest><resources>
      <resource identifier="a" adlcp:scormtype="sco" href="a.html" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"/>
      <resource identifier="b" adlcp:scormtype="asset" href="b.css" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"/>
    </resources></manifest>`
    expect(parseManifest(xml)).toMatchObject({ scoCount: 1, items: [{ identifier: 'a', href: 'a.html' }] })
  })

  it('rejects XML that is not well formed, naming the problem', () => {
    const err = rejection(() => parseManifest('<manifest><organizations></manifest>'))
    expect(err.code).toBe('manifest_invalid_xml')
    expect(err.message).toMatch(/^imsmanifest\.xml is not valid XML: .*organizations/)
  })

  it('rejects a manifest without a launchable item', () => {
    const err = rejection(() => parseManifest(manifest12('<item identifier="c"><title>Empty cluster</title></item>', '')))
    expect(err.message).toBe('The package has no launchable item')
  })

  it('does not expand entities declared in a DTD', () => {
    const doctype = '<!DOCTYPE manifest [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    const bomb = manifest12('<item identifier="i" identifierref="r"><title>&b;</title></item>', '<resource identifier="r" href="a.html"/>').replace('?>', `?>${doctype}`)
    expect(parseManifest(bomb).items[0].title).toBe('&b;')
  })
})

describe('launch URL rules', () => {
  it('appends parameters as the SCORM content aggregation model says', () => {
    expect(appendParameters('a.html', '?x=1')).toBe('a.html?x=1')
    expect(appendParameters('a.html', 'x=1')).toBe('a.html?x=1')
    expect(appendParameters('a.html?y=2', '?x=1')).toBe('a.html?y=2&x=1')
    expect(appendParameters('a.html?y=2', '&x=1')).toBe('a.html?y=2&x=1')
    expect(appendParameters('a.html', '#part2')).toBe('a.html#part2')
    expect(appendParameters('a.html#p1', '#part2')).toBe('a.html#p1')
    expect(appendParameters('a.html#p1', 'x=1')).toBe('a.html?x=1#p1')
    expect(appendParameters('a.html', null)).toBe('a.html')
  })

  it('decodes predefined entities and character references only', () => {
    expect(decodeXmlText('a &amp; b &lt;c&gt; &#233;&#x41; &custom;')).toBe('a & b <c> éA &custom;')
  })
})

const GOLF = 'com.scorm.golfsamples.sequencing.forcedsequential.'
const mapTo = objectiveMapTo
const IMSSS_READ = { readSatisfiedStatus: true, readNormalizedMeasure: true }
const ADLSEQ_READ = { readCompletionStatus: true, readProgressMeasure: true, readRawScore: true, readMinScore: true, readMaxScore: true }

describe('SCORM 2004 sequencing in the manifest', () => {
  it('reads the forced sequential package: the organization, the shared collection and each item’s own rules and objectives', async () => {
    const info = parseManifest(await readFixtureManifest('golf-scorm2004-3rd-SequencingForcedSequential.zip'))
    expect(info.organization).toEqual({
      identifier: 'golf_sample_default_org',
      declaresSequencing: true,
      objectivesGlobalToSystem: false,
      sequencing: { controlMode: { choice: true, flow: true } },
    })
    const [playing, etiquette] = info.items
    // Playing the Game: the collection's rollup weight and delivery controls, its own primary objective writing a global.
    expect(playing!.sequencing).toEqual({
      rollupRules: { objectiveMeasureWeight: 0, rules: [] },
      deliveryControls: { completionSetByContent: true, objectiveSetByContent: true },
      objectives: {
        primary: {
          objectiveID: 'playing_satisfied',
          satisfiedByMeasure: false,
          mapInfo: [mapTo(`${GOLF}playing_satisfied`, { ...IMSSS_READ, writeSatisfiedStatus: true })],
        },
        objectives: [],
      },
    })
    // Etiquette: disabled until the objective read from Playing's global one is known and satisfied.
    expect(etiquette!.sequencing?.sequencingRules).toEqual({
      preConditionRules: [
        {
          conditionCombination: 'any',
          conditions: [
            { condition: 'satisfied', operator: 'not', referencedObjective: 'previous_sco_satisfied' },
            { condition: 'objectiveStatusKnown', operator: 'not', referencedObjective: 'previous_sco_satisfied' },
          ],
          action: 'disabled',
        },
      ],
    })
    expect(etiquette!.sequencing?.objectives?.objectives).toEqual([
      { objectiveID: 'previous_sco_satisfied', satisfiedByMeasure: false, mapInfo: [mapTo(`${GOLF}playing_satisfied`, IMSSS_READ)] },
    ])
    expect(etiquette!.sequencing?.deliveryControls).toEqual({ completionSetByContent: true, objectiveSetByContent: true })
    expect(info.items.every((i) => i.completion === undefined && i.hide_lms_ui === undefined)).toBe(true)
  })

  it('reads the 4th edition post-test package: completion shared through adlseq maps, progress weights, the quiz’s own rollup and hiding rules', async () => {
    const info = parseManifest(await readFixtureManifest('golf-scorm2004-4th-SequencingPostTestRollup4thEd.zip'))
    expect(info.organization).toMatchObject({ identifier: 'golf_sample_default_org', objectivesGlobalToSystem: false, sequencing: { controlMode: { choice: true, flow: true } } })
    const [playing, etiquette, , , quiz] = info.items
    expect(info.items.map((i) => i.completion?.progressWeight)).toEqual([0.5, 0.3, 0.4, 0.3, 0.1])
    expect(playing!.completion).toEqual({ completedByMeasure: false, minProgressMeasure: 1, progressWeight: 0.5 })
    // adlseq:mapInfo joins the imsss objective of the same ID: completion is shared, satisfaction is not.
    expect(playing!.sequencing?.objectives?.primary).toEqual({
      objectiveID: 'playing_completed',
      satisfiedByMeasure: false,
      mapInfo: [mapTo(`${GOLF}playing_completed`, { ...ADLSEQ_READ, writeCompletionStatus: true })],
    })
    expect(playing!.sequencing?.rollupRules).toEqual({ rollupObjectiveSatisfied: false, rollupProgressCompletion: false, objectiveMeasureWeight: 0, rules: [] })
    expect(etiquette!.sequencing?.objectives?.objectives).toEqual([
      { objectiveID: 'previous_sco_completed', satisfiedByMeasure: false, mapInfo: [mapTo(`${GOLF}playing_completed`, ADLSEQ_READ)] },
    ])
    expect(etiquette!.sequencing?.sequencingRules?.preConditionRules?.[0]?.conditions.map((c) => c.condition)).toEqual(['completed', 'activityProgressKnown'])
    // The quiz has its own sequencing (no collection): it alone counts in the rollup.
    expect(quiz!.sequencing?.rollupRules).toEqual({ rollupObjectiveSatisfied: true, rollupProgressCompletion: true, objectiveMeasureWeight: 1, rules: [] })
    expect(quiz!.sequencing?.sequencingRules?.preConditionRules?.map((r) => [r.conditionCombination, r.action])).toEqual([
      ['all', 'hiddenFromChoice'],
      ['all', 'hiddenFromChoice'],
    ])
    expect(quiz!.sequencing?.sequencingRules?.preConditionRules?.[0]?.conditions[1]).toEqual({ condition: 'attempted', operator: 'not' })
    // A primary objective without an ID is kept (it has no map to share).
    expect(quiz!.sequencing?.objectives?.primary).toEqual({ objectiveID: null, satisfiedByMeasure: false, mapInfo: [] })
  })

  const manifest2004 = (org: string, extra = '') => `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss" xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3" xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3">
  <metadata><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org">${org}</organizations>
  <resources><resource identifier="r" adlcp:scormType="sco" href="sco.html"/></resources>
  ${extra}
</manifest>`

  it('reads every sequencing element of a hand-written manifest; the item’s own elements override its collection’s', () => {
    const info = parseManifest(
      manifest2004(
        `<organization identifier="course">
          <title>Course</title>
          <item identifier="unit" isvisible="false">
            <title>Unit</title>
            <item identifier="lesson" identifierref="r">
              <title>Lesson</title>
              <adlnav:presentation><adlnav:navigationInterface>
                <adlnav:hideLMSUI>continue</adlnav:hideLMSUI><adlnav:hideLMSUI>previous</adlnav:hideLMSUI><adlnav:hideLMSUI>continue</adlnav:hideLMSUI><adlnav:hideLMSUI>menu</adlnav:hideLMSUI>
              </adlnav:navigationInterface></adlnav:presentation>
              <imsss:sequencing IDRef="common">
                <imsss:controlMode choiceExit="false" forwardOnly="true" useCurrentAttemptObjectiveInfo="false" useCurrentAttemptProgressInfo="0"/>
                <imsss:sequencingRules>
                  <imsss:preConditionRule>
                    <imsss:ruleConditions><imsss:ruleCondition condition="objectiveMeasureGreaterThan" measureThreshold="0.5" referencedObjective="pre"/></imsss:ruleConditions>
                    <imsss:ruleAction action="skip"/>
                  </imsss:preConditionRule>
                  <imsss:preConditionRule>
                    <imsss:ruleConditions><imsss:ruleCondition condition="noSuchCondition"/></imsss:ruleConditions>
                    <imsss:ruleAction action="disabled"/>
                  </imsss:preConditionRule>
                  <imsss:exitConditionRule>
                    <imsss:ruleConditions conditionCombination="any"><imsss:ruleCondition condition="timeLimitExceeded"/><imsss:ruleCondition condition="attemptLimitExceeded" operator="noOp"/></imsss:ruleConditions>
                    <imsss:ruleAction action="exit"/>
                  </imsss:exitConditionRule>
                  <imsss:postConditionRule>
                    <imsss:ruleConditions><imsss:ruleCondition condition="satisfied"/></imsss:ruleConditions>
                    <imsss:ruleAction action="continue"/>
                  </imsss:postConditionRule>
                  <imsss:postConditionRule>
                    <imsss:ruleConditions><imsss:ruleCondition condition="always"/></imsss:ruleConditions>
                    <imsss:ruleAction action="skip"/>
                  </imsss:postConditionRule>
                </imsss:sequencingRules>
                <imsss:limitConditions attemptLimit="3" attemptAbsoluteDurationLimit="PT1H" activityAbsoluteDurationLimit="PT2H"/>
                <imsss:objectives>
                  <imsss:primaryObjective objectiveID="main" satisfiedByMeasure="true">
                    <imsss:minNormalizedMeasure>0.7</imsss:minNormalizedMeasure>
                    <imsss:mapInfo targetObjectiveID="g.main" readSatisfiedStatus="false" writeSatisfiedStatus="true" writeNormalizedMeasure="true"/>
                  </imsss:primaryObjective>
                  <imsss:objective objectiveID="pre"><imsss:mapInfo targetObjectiveID="g.pre"/></imsss:objective>
                </imsss:objectives>
                <imsss:randomizationControls randomizationTiming="onEachNewAttempt" selectCount="2" reorderChildren="true" selectionTiming="once"/>
                <adlseq:constrainedChoiceConsiderations preventActivation="true" constrainChoice="true"/>
                <adlseq:objectives>
                  <adlseq:objective objectiveID="pre"><adlseq:mapInfo targetObjectiveID="g.pre" readRawScore="false" writeProgressMeasure="true"/></adlseq:objective>
                  <adlseq:objective objectiveID="stray"><adlseq:mapInfo targetObjectiveID="g.stray"/></adlseq:objective>
                </adlseq:objectives>
              </imsss:sequencing>
            </item>
            <imsss:sequencing>
              <imsss:rollupRules rollupObjectiveSatisfied="false" objectiveMeasureWeight="0.5">
                <imsss:rollupRule childActivitySet="atLeastPercent" minimumPercent="0.75">
                  <imsss:rollupConditions conditionCombination="all"><imsss:rollupCondition condition="completed"/><imsss:rollupCondition operator="not" condition="attempted"/></imsss:rollupConditions>
                  <imsss:rollupAction action="completed"/>
                </imsss:rollupRule>
                <imsss:rollupRule childActivitySet="atLeastCount" minimumCount="2">
                  <imsss:rollupConditions><imsss:rollupCondition condition="satisfied"/></imsss:rollupConditions>
                  <imsss:rollupAction action="satisfied"/>
                </imsss:rollupRule>
              </imsss:rollupRules>
              <adlseq:rollupConsiderations requiredForSatisfied="ifAttempted" requiredForIncomplete="ifNotSkipped" measureSatisfactionIfActive="false"/>
            </imsss:sequencing>
          </item>
          <imsss:sequencing><imsss:controlMode flow="true" choice="false"/></imsss:sequencing>
        </organization>`,
        `<imsss:sequencingCollection>
          <imsss:sequencing ID="common">
            <imsss:controlMode flow="true"/>
            <imsss:sequencingRules>
              <imsss:preConditionRule><imsss:ruleConditions><imsss:ruleCondition condition="always"/></imsss:ruleConditions><imsss:ruleAction action="disabled"/></imsss:preConditionRule>
            </imsss:sequencingRules>
            <imsss:deliveryControls tracked="false" completionSetByContent="true"/>
          </imsss:sequencing>
        </imsss:sequencingCollection>`,
      ),
    )
    expect(info.organization).toEqual({
      identifier: 'course',
      declaresSequencing: true,
      objectivesGlobalToSystem: true,
      sequencing: { controlMode: { choice: false, flow: true } },
    })
    const unit = info.items[0]!
    expect(unit.sequencing).toEqual({
      rollupRules: {
        rollupObjectiveSatisfied: false,
        objectiveMeasureWeight: 0.5,
        rules: [
          {
            childActivitySet: 'atLeastPercent',
            minimumPercent: 0.75,
            conditionCombination: 'all',
            conditions: [{ condition: 'completed' }, { condition: 'attempted', operator: 'not' }],
            action: 'completed',
          },
          { childActivitySet: 'atLeastCount', minimumCount: 2, conditionCombination: 'any', conditions: [{ condition: 'satisfied' }], action: 'satisfied' },
        ],
      },
      rollupConsiderations: { requiredForSatisfied: 'ifAttempted', requiredForIncomplete: 'ifNotSkipped', measureSatisfactionIfActive: false },
    })
    const lesson = unit.children[0]!
    expect(lesson.hide_lms_ui).toEqual(['continue', 'previous'])
    expect(lesson.sequencing).toEqual({
      // Its own controlMode replaces the collection's (flow stays the default).
      controlMode: { choiceExit: false, forwardOnly: true, useCurrentAttemptObjectiveInfo: false, useCurrentAttemptProgressInfo: false },
      // Its own rules replace the collection's disabling one; the rule with an unknown condition and the post rule with a precondition action are left out.
      sequencingRules: {
        preConditionRules: [
          { conditionCombination: 'all', conditions: [{ condition: 'objectiveMeasureGreaterThan', referencedObjective: 'pre', measureThreshold: 0.5 }], action: 'skip' },
        ],
        exitConditionRules: [{ conditionCombination: 'any', conditions: [{ condition: 'timeLimitExceeded' }, { condition: 'attemptLimitExceeded' }], action: 'exit' }],
        postConditionRules: [{ conditionCombination: 'all', conditions: [{ condition: 'satisfied' }], action: 'continue' }],
      },
      limitConditions: { attemptLimit: 3, attemptAbsoluteDurationLimit: 'PT1H', activityAbsoluteDurationLimit: 'PT2H' },
      objectives: {
        primary: {
          objectiveID: 'main',
          satisfiedByMeasure: true,
          minNormalizedMeasure: 0.7,
          mapInfo: [mapTo('g.main', { readNormalizedMeasure: true, writeSatisfiedStatus: true, writeNormalizedMeasure: true })],
        },
        // The adlseq map of 'pre' joins its imsss map; the adlseq objective without an imsss one is dropped.
        objectives: [
          {
            objectiveID: 'pre',
            satisfiedByMeasure: false,
            mapInfo: [mapTo('g.pre', { ...IMSSS_READ, ...ADLSEQ_READ, readRawScore: false, writeProgressMeasure: true })],
          },
        ],
      },
      randomizationControls: { randomizationTiming: 'onEachNewAttempt', selectCount: 2, reorderChildren: true, selectionTiming: 'once' },
      // Not declared by the item itself: from the collection.
      deliveryControls: { tracked: false, completionSetByContent: true },
      constrainedChoiceConsiderations: { preventActivation: true, constrainChoice: true },
    })
    // The runtime objectives and passing score still come from the same elements.
    expect(lesson).toMatchObject({ objective_ids: ['main', 'pre'], scaled_passing_score: 0.7, max_time_allowed: 'PT1H', isvisible: true })
    expect(unit.isvisible).toBe(false)
  })

  it('says when a SCORM 2004 package declares no sequencing, and reads none from a SCORM 1.2 manifest', () => {
    const plain = parseManifest(
      manifest2004(
        `<organization identifier="o"><title>T</title><item identifier="a" identifierref="r"><title>A</title></item><item identifier="b" identifierref="r"><title>B</title></item></organization>`,
      ),
    )
    expect(plain.organization).toEqual({ identifier: 'o', declaresSequencing: false, objectivesGlobalToSystem: true })
    expect(plain.items.map((i) => i.sequencing)).toEqual([undefined, undefined])
    // An organization without an identifier gets one no item has.
    const anonymous = parseManifest(manifest2004(`<organization><title>T</title><item identifier="organization" identifierref="r"><title>A</title></item></organization>`))
    expect(anonymous.organization?.identifier).toBe('organization_')
    const v12 = parseManifest(
      manifest12(
        `<item identifier="i" identifierref="r"><title>A</title><imsss:sequencing><imsss:controlMode flow="true"/></imsss:sequencing></item>`,
        `<resource identifier="r" adlcp:scormtype="sco" href="a.html"/>`,
        'xmlns:imsss="http://www.imsglobal.org/xsd/imsss"',
      ),
    )
    expect(v12.version).toBe('1.2')
    expect(v12.organization).toBeUndefined()
    expect(v12.items[0]!.sequencing).toBeUndefined()
  })
})
