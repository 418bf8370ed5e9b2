import { describe, expect, it } from 'vitest'
import { CMI5_MESSAGES, Cmi5Course, cmi5Aus, MAX_CMI5_AUS } from '@portal/contracts'
import { PackageError } from '../scorm-packages/package-info.ts'
import { cmi5Items, isIri, parseCmi5Xml } from './index.ts'
import { cmi5Structure } from './cmi5.test-support.ts'

const NS = 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd'
const files = (...paths: string[]) => ({ packageFiles: new Set(paths) })

/** A course structure as the spec's complex example is laid out: objectives, nested blocks, AUs in between. */
const complex = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="${NS}">
  <course id="https://example.com/course/geology">
    <title><langstring lang="de-DE">Geologie</langstring><langstring lang="en-US">Geology &amp; rocks</langstring></title>
    <description><langstring lang="en-US">  Rocks and how they form  </langstring></description>
  </course>
  <objectives>
    <objective id="https://example.com/objective/minerals">
      <title><langstring lang="en-US">Minerals</langstring></title>
      <description><langstring lang="en-US">Name the minerals</langstring></description>
    </objective>
    <objective id="urn:example:objective:plates">
      <title><langstring lang="fr-FR">Plaques</langstring></title>
    </objective>
  </objectives>
  <au id="https://example.com/au/intro">
    <title><langstring lang="en-US">Introduction</langstring></title>
    <description><langstring lang="en-US">Start here</langstring></description>
    <url>intro/index.html</url>
  </au>
  <block id="https://example.com/block/1">
    <title><langstring lang="en-US">Part one</langstring></title>
    <description><langstring lang="en-US">The first part</langstring></description>
    <objectives><objective idref="https://example.com/objective/minerals"/></objectives>
    <au id="https://example.com/au/quiz" launchMethod="OwnWindow" moveOn="CompletedAndPassed" masteryScore="0.85" activityType="http://adlnet.gov/expapi/activities/assessment">
      <title><langstring lang="en-US">Quiz</langstring></title>
      <description><langstring lang="en-US">Ten questions</langstring></description>
      <objectives>
        <objective idref="https://example.com/objective/minerals"/>
        <objective idref="urn:example:objective:plates"/>
      </objectives>
      <url> quiz/start.html?mode=final&amp;lang=en </url>
      <launchParameters>Start=1,QuizMode=1</launchParameters>
      <entitlementKey> xyz-123-9999 </entitlementKey>
    </au>
    <block id="https://example.com/block/1.1">
      <title><langstring lang="en-US">Nested</langstring></title>
      <description><langstring lang="en-US">Inside part one</langstring></description>
      <au id="https://example.com/au/video" moveOn="Completed" launchMethod="AnyWindow" masteryScore="1">
        <title><langstring>Video</langstring></title>
        <description><langstring>A film</langstring></description>
        <url>https://cdn.example.com/video.html</url>
      </au>
    </block>
  </block>
  <au id="https://example.com/au/outro" moveOn="Passed" masteryScore="0">
    <title><langstring lang="en-US">Outro</langstring></title>
    <description><langstring lang="en-US">The end</langstring></description>
    <url>./outro/../outro/end.html#top</url>
  </au>
</courseStructure>`

const packageFiles = files('intro/index.html', 'quiz/start.html', 'outro/end.html')

async function refusal(xml: string, opts: Parameters<typeof parseCmi5Xml>[1] = packageFiles): Promise<PackageError> {
  let caught: unknown = null
  try {
    parseCmi5Xml(xml, opts)
  } catch (err) {
    caught = err
  }
  expect(caught).toBeInstanceOf(PackageError)
  return caught as PackageError
}

/** A structure with the given AU elements (and optional extra course-level XML) around them. */
const withAus = (aus: string, before = '') => `<courseStructure xmlns="${NS}">
  <course id="https://example.com/c"><title><langstring lang="en-US">C</langstring></title><description><langstring lang="en-US">D</langstring></description></course>
  ${before}${aus}
</courseStructure>`
const au = (attrs: string, url = '<url>a.html</url>', id = 'https://example.com/a') => `<au id="${id}" ${attrs}><title><langstring>A</langstring></title>${url}</au>`

describe('parseCmi5Xml', () => {
  it('reads the course, its objectives, nested blocks and AUs in document order with every attribute', () => {
    const course = parseCmi5Xml(complex, packageFiles)
    expect(Cmi5Course.parse(course)).toEqual(course)
    expect(course.id).toBe('https://example.com/course/geology')
    // The English langstring, not the first one; entities decoded; whitespace trimmed.
    expect(course.title).toBe('Geology & rocks')
    expect(course.description).toBe('Rocks and how they form')
    expect(course.objectives).toEqual([
      { id: 'https://example.com/objective/minerals', title: 'Minerals', description: 'Name the minerals' },
      // No English langstring: the first one; no description: null.
      { id: 'urn:example:objective:plates', title: 'Plaques', description: null },
    ])
    expect(course.children.map((c) => [c.kind, c.id])).toEqual([
      ['au', 'https://example.com/au/intro'],
      ['block', 'https://example.com/block/1'],
      ['au', 'https://example.com/au/outro'],
    ])
    const block = course.children[1]!
    expect(block).toMatchObject({ kind: 'block', title: 'Part one', description: 'The first part', objectives: ['https://example.com/objective/minerals'] })
    expect(block.kind === 'block' && block.children.map((c) => c.id)).toEqual(['https://example.com/au/quiz', 'https://example.com/block/1.1'])
    const aus = cmi5Aus(course.children)
    expect(aus.map((a) => a.id)).toEqual(['https://example.com/au/intro', 'https://example.com/au/quiz', 'https://example.com/au/video', 'https://example.com/au/outro'])
    expect(aus[1]).toEqual({
      kind: 'au',
      id: 'https://example.com/au/quiz',
      title: 'Quiz',
      description: 'Ten questions',
      url: 'quiz/start.html?mode=final&lang=en',
      launchMethod: 'OwnWindow',
      moveOn: 'CompletedAndPassed',
      masteryScore: 0.85,
      launchParameters: 'Start=1,QuizMode=1',
      entitlementKey: 'xyz-123-9999',
      activityType: 'http://adlnet.gov/expapi/activities/assessment',
      objectives: ['https://example.com/objective/minerals', 'urn:example:objective:plates'],
    })
    expect(aus[2]).toMatchObject({ title: 'Video', url: 'https://cdn.example.com/video.html', moveOn: 'Completed', launchMethod: 'AnyWindow', masteryScore: 1 })
    expect(aus[3]).toMatchObject({ moveOn: 'Passed', masteryScore: 0, url: './outro/../outro/end.html#top' })
  })

  it('gives an AU the spec defaults: AnyWindow, NotApplicable, no mastery score, parameters, key, type or objectives', () => {
    const [only] = cmi5Aus(parseCmi5Xml(withAus(au('')), files('a.html')).children)
    expect(only).toEqual({
      kind: 'au',
      id: 'https://example.com/a',
      title: 'A',
      description: null,
      url: 'a.html',
      launchMethod: 'AnyWindow',
      moveOn: 'NotApplicable',
      masteryScore: null,
      launchParameters: null,
      entitlementKey: null,
      activityType: null,
      objectives: [],
    })
  })

  it('reads namespace prefixes, a byte order mark and a bare <course> root; titles fall back to the id', () => {
    const prefixed = `\uFEFF<?xml version="1.0"?><cmi5:courseStructure xmlns:cmi5="${NS}"><cmi5:course id="https://example.com/c"/><cmi5:au id="https://example.com/a"><cmi5:url>a.html</cmi5:url></cmi5:au></cmi5:courseStructure>`
    const course = parseCmi5Xml(prefixed, files('a.html'))
    expect(course.title).toBe('https://example.com/c')
    expect(cmi5Aus(course.children)[0]).toMatchObject({ title: 'https://example.com/a', url: 'a.html' })
  })

  it('accepts only absolute http(s) urls when cmi5.xml comes alone', () => {
    const xml = withAus(au('', '<url>https://aus.example.com/a.html?x=1</url>'))
    expect(cmi5Aus(parseCmi5Xml(xml, { packageFiles: null }).children)[0]!.url).toBe('https://aus.example.com/a.html?x=1')
  })

  it('parses 1,000 AUs well under a second, and the item tree mirrors the structure', () => {
    const xml = cmi5Structure({ aus: MAX_CMI5_AUS, perBlock: 10 })
    const started = performance.now()
    const course = parseCmi5Xml(xml, { packageFiles: null })
    const ms = performance.now() - started
    expect(cmi5Aus(course.children)).toHaveLength(MAX_CMI5_AUS)
    expect(ms).toBeLessThan(500)
    const items = cmi5Items(course.children)
    expect(items).toHaveLength(MAX_CMI5_AUS / 10)
    expect(items[0]).toMatchObject({ identifier: 'https://example.com/course/big/block/0', href: null, isvisible: true })
    expect(items[0]!.children[0]).toMatchObject({ identifier: 'https://example.com/course/big/au/0', href: 'https://aus.example.com/0.html', children: [] })
  })
})

describe('parseCmi5Xml refuses', () => {
  it('XML that is not well-formed', async () => {
    expect((await refusal('<courseStructure><course id="x:y"></courseStructure>')).message).toBe(CMI5_MESSAGES.notXml)
    expect((await refusal('not xml at all')).message).toBe(CMI5_MESSAGES.notXml)
  })

  it('a structure without a course', async () => {
    expect((await refusal(`<courseStructure xmlns="${NS}">${au('')}</courseStructure>`)).message).toBe(CMI5_MESSAGES.noCourse)
    expect((await refusal('<manifest identifier="m"/>')).message).toBe(CMI5_MESSAGES.noCourse)
  })

  it('a course without AUs (blocks alone do not count)', async () => {
    expect((await refusal(withAus(''))).message).toBe(CMI5_MESSAGES.noAus)
    expect((await refusal(withAus('<block id="https://example.com/b"><title><langstring>B</langstring></title></block>'))).message).toBe(CMI5_MESSAGES.noAus)
  })

  it(`more than ${MAX_CMI5_AUS} AUs`, async () => {
    expect((await refusal(cmi5Structure({ aus: MAX_CMI5_AUS + 1, perBlock: 0 }), { packageFiles: null })).message).toBe(CMI5_MESSAGES.tooManyAus)
  })

  it('an id used twice, across course, blocks, AUs and objectives', async () => {
    const twice = 'https://example.com/a'
    expect((await refusal(withAus(au('') + au('')), files('a.html'))).message).toBe(CMI5_MESSAGES.duplicateId(twice))
    expect((await refusal(withAus(`<block id="${twice}">${au('', '<url>a.html</url>', 'https://example.com/other')}</block>${au('')}`), files('a.html'))).message).toBe(
      CMI5_MESSAGES.duplicateId(twice),
    )
    expect((await refusal(withAus(au('', '<url>a.html</url>', 'https://example.com/c')), files('a.html'))).message).toBe(CMI5_MESSAGES.duplicateId('https://example.com/c'))
    const objective = `<objectives><objective id="${twice}"><title><langstring>O</langstring></title></objective></objectives>`
    expect((await refusal(withAus(au(''), objective), files('a.html'))).message).toBe(CMI5_MESSAGES.duplicateId(twice))
  })

  it('ids that are not IRIs, or missing', async () => {
    expect((await refusal(withAus(au('', '<url>a.html</url>', 'lesson1')), files('a.html'))).message).toBe(CMI5_MESSAGES.notIri('lesson1'))
    expect((await refusal(withAus(au('', '<url>a.html</url>', 'https://example.com/a b')), files('a.html'))).message).toBe(CMI5_MESSAGES.notIri('https://example.com/a b'))
    expect((await refusal(withAus(au('', '<url>a.html</url>', '1st:au')), files('a.html'))).message).toBe(CMI5_MESSAGES.notIri('1st:au'))
    expect((await refusal(`<courseStructure><course/>${au('')}</courseStructure>`, files('a.html'))).message).toBe(CMI5_MESSAGES.notIri(''))
    expect((await refusal(withAus(au(''), '<objectives><objective id="goal"/></objectives>'), files('a.html'))).message).toBe(CMI5_MESSAGES.notIri('goal'))
    expect((await refusal(withAus(`<block id="urn:">${au('')}</block>`), files('a.html'))).message).toBe(CMI5_MESSAGES.notIri('urn:'))
  })

  it('an AU without url, or with an empty one', async () => {
    expect((await refusal(withAus(au('', '')))).message).toBe(CMI5_MESSAGES.missingUrl('https://example.com/a'))
    expect((await refusal(withAus(au('', '<url>  </url>')))).message).toBe(CMI5_MESSAGES.missingUrl('https://example.com/a'))
  })

  it('a relative url that is not in the package, leaves it, or another scheme', async () => {
    expect((await refusal(withAus(au('', '<url>lesson/missing.html?x=1</url>')), files('a.html'))).message).toBe(
      CMI5_MESSAGES.missingFile('https://example.com/a', 'lesson/missing.html?x=1'),
    )
    expect((await refusal(withAus(au('', '<url>../a.html</url>')), files('a.html'))).message).toBe(CMI5_MESSAGES.missingFile('https://example.com/a', '../a.html'))
    expect((await refusal(withAus(au('', '<url>javascript:alert(1)</url>')), files('a.html'))).message).toBe(
      CMI5_MESSAGES.missingFile('https://example.com/a', 'javascript:alert(1)'),
    )
  })

  it('a relative url when cmi5.xml comes alone', async () => {
    expect((await refusal(withAus(au('')), { packageFiles: null })).message).toBe(CMI5_MESSAGES.relativeUrlAlone('https://example.com/a'))
  })

  it('unknown moveOn and launchMethod values (they are case-sensitive)', async () => {
    expect((await refusal(withAus(au('moveOn="completed"')), files('a.html'))).message).toBe(CMI5_MESSAGES.badMoveOn('completed'))
    expect((await refusal(withAus(au('moveOn=""')), files('a.html'))).message).toBe(CMI5_MESSAGES.badMoveOn(''))
    expect((await refusal(withAus(au('launchMethod="NewWindow"')), files('a.html'))).message).toBe(CMI5_MESSAGES.badLaunchMethod('NewWindow'))
  })

  it('a masteryScore that is not a decimal between 0 and 1', async () => {
    for (const bad of ['1.5', '-0.1', '85%', '8e-1', 'abc', '']) {
      expect((await refusal(withAus(au(`masteryScore="${bad}"`)), files('a.html'))).message).toBe(CMI5_MESSAGES.badMasteryScore(bad))
    }
  })
})

describe('isIri', () => {
  it('wants a scheme, a colon and no whitespace', () => {
    expect(['https://example.com/a', 'urn:uuid:1234', 'tag:example.com,2024:x', 'http://例え.jp/ü'].every(isIri)).toBe(true)
    expect(['', 'a', '/path', 'https://a b', 'x:', '-x:y'].some(isIri)).toBe(false)
  })
})
