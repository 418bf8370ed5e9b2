import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import {
  CAPTIVATE_FILES,
  CAPTIVATE_MESSAGES,
  CaptivateError,
  editCaptivateProject,
  formatDifference,
  formatHms,
  isLikelyProblemSlide,
  mp4DurationSeconds,
  parseCaptivateProject,
  parseDuration,
  type CaptivateFiles,
} from './captivate.ts'
import { captivateFixture } from './test-support/captivate-fixture.ts'

const zip = unzipSync(captivateFixture())
const files: CaptivateFiles = { projectTxt: strFromU8(zip[CAPTIVATE_FILES.projectTxt]!), projectJs: strFromU8(zip[CAPTIVATE_FILES.projectJs]!) }

/** Every frame range of both files, as the player reads them. */
function ranges(f: CaptivateFiles) {
  const txt = JSON.parse(f.projectTxt!) as {
    metadata: { durationInFrames: number }
    contentStructure: { slides: { id: string; name: string; title: string; from: number; to: number; durationInFrames: number }[] }
    eventVideos: { id: string; from: number; to: number; durationInFrames: number }[]
    tableOfContents: { slideId: string; title: string; duration: string }[]
  }
  const cp = {} as { D: Record<string, { from?: number; to?: number; lb?: string; du?: number; slides?: string }>; CPProjInit(): void; model?: unknown }
  new Function('window', 'cp', `${f.projectJs!.replace(/^if \(!window\.cp\)[\s\S]*?};\n/, '')}; cp.CPProjInit()`)({ cp }, cp)
  const items = Object.fromEntries(
    Object.entries(cp.D)
      .filter(([, v]) => typeof v.from === 'number')
      .map(([k, v]) => [k, { from: v.from, to: v.to, ...(v.lb !== undefined && { lb: v.lb }), ...(v.du !== undefined && { du: v.du }) }]),
  )
  return { txt, items }
}

const SECOND = 30

describe('parseCaptivateProject on the fixture', () => {
  it('reads the six slides, their frames and videos', () => {
    const p = parseCaptivateProject(files)
    expect(p.frameRate).toBe(30)
    expect(p.durationInFrames).toBe(60840)
    expect(p.slides.map((s) => [s.id, s.name, s.from, s.to, s.durationInFrames / SECOND, s.video?.src ?? null])).toEqual([
      ['Slide1001', 'Welcome', 1, 150, 5, null],
      ['Slide1002', 'Pump overview', 151, 1050, 30, 'assets/videos/pump-overview.mp4'],
      ['Slide1003', 'Lockout procedure', 1051, 2400, 45, 'assets/videos/lockout.mp4'],
      ['Slide1004', 'Field walk-through (long)', 2401, 60000, 1920, 'assets/videos/walkthrough.mp4'],
      ['Slide1005', 'Knowledge check', 60001, 60600, 20, null],
      ['Slide1006', 'Summary', 60601, 60840, 8, null],
    ])
    expect(p.slides.filter((s) => isLikelyProblemSlide(s)).map((s) => s.id)).toEqual(['Slide1004'])
  })

  it('reads either file alone', () => {
    expect(parseCaptivateProject({ projectTxt: null, projectJs: files.projectJs }).slides.map((s) => s.to)).toEqual([150, 1050, 2400, 60000, 60600, 60840])
    expect(parseCaptivateProject({ projectTxt: files.projectTxt, projectJs: null }).slides).toHaveLength(6)
  })

  it.each([
    ['no files', { projectTxt: null, projectJs: null }],
    ['a truncated project.js', { ...files, projectJs: files.projectJs!.slice(0, 2000) }],
    ['a project.js without cp.D', { ...files, projectJs: 'var x = 1;' }],
    ['a project.txt that is not JSON', { ...files, projectTxt: '{"metadata": ' }],
    ['files naming different slides', { ...files, projectJs: files.projectJs!.replace("Slide1005,Slide1006'", "Slide1006,Slide1005'") }],
    ['a slide without frames', { ...files, projectTxt: files.projectTxt!.replace('"from":151,', '') }],
  ])('refuses %s with the spec message', (_what, f) => {
    expect(() => parseCaptivateProject(f)).toThrow(CAPTIVATE_MESSAGES.unreadable)
  })

  it('tolerates comments, double quotes and trailing commas in project.js', () => {
    const js = files.projectJs!.replace("lb: 'Welcome',", '/* title */ lb: "Welcome", // shown\n').replace("questions: ''\n", "questions: '',\n")
    expect(parseCaptivateProject({ projectTxt: null, projectJs: js }).slides[0]!.name).toBe('Welcome')
  })
})

describe('editCaptivateProject', () => {
  it('a duration change moves the slide end, its items, every later range and the length, in both files', () => {
    const before = ranges(files)
    const delta = 15 * SECOND // Lockout procedure: 45 s → 60 s
    const out = editCaptivateProject(files, { slideId: 'Slide1003', durationInFrames: 60 * SECOND })
    expect(out.deltaFrames).toBe(delta)
    expect(out.filesUpdated).toEqual({ projectJs: true, projectTxt: true })
    const after = ranges(out.files)

    // project.js: expected item by item (absolute frames).
    const moved = (r: { from?: number; to?: number }) => ({ ...r, from: r.from! + delta, to: r.to! + delta })
    const expectedItems = Object.fromEntries(
      Object.entries(before.items).map(([k, r]) => {
        if (['Title_1', 'Text_Caption_1', 'EventVideo_2', 'Title_2', 'Slide1001', 'Slide1002', 'project_main'].includes(k))
          return [k, k === 'project_main' ? { ...r, to: r.to! + delta } : r]
        if (k === 'Slide1003' || k === 'Title_3' || k === 'Highlight_1') return [k, { ...r, to: r.to! + delta }]
        if (k === 'EventVideo_3') return [k, { ...r, to: r.to! + delta, du: r.du! + delta }]
        return [k, moved(r)]
      }),
    )
    expect(after.items).toEqual(expectedItems)
    expect(after.items.project_main!.to).toBe(60840 + delta)

    // project.txt
    expect(after.txt.metadata.durationInFrames).toBe(60840 + delta)
    expect(after.txt.contentStructure.slides.map((s) => [s.from, s.to, s.durationInFrames])).toEqual([
      [1, 150, 150],
      [151, 1050, 900],
      [1051, 2400 + delta, 1350 + delta],
      [2401 + delta, 60000 + delta, 57600],
      [60001 + delta, 60600 + delta, 600],
      [60601 + delta, 60840 + delta, 240],
    ])
    expect(after.txt.eventVideos.map((v) => [v.id, v.from, v.to, v.durationInFrames])).toEqual([
      ['EventVideo_2', 151, 1050, 900],
      ['EventVideo_3', 1051, 2400 + delta, 1350 + delta],
      ['EventVideo_4', 2401 + delta, 60000 + delta, 57600],
    ])
    expect(after.txt.tableOfContents.map((t) => t.duration)).toEqual(['00:00:05', '00:00:30', '00:01:00', '00:32:00', '00:00:20', '00:00:08'])
    // Slides stay contiguous.
    const slides = after.txt.contentStructure.slides
    slides.slice(1).forEach((s, i) => expect(s.from).toBe(slides[i]!.to + 1))
  })

  it('changes nothing else: the rewrite differs from the original only in the numbers that moved', () => {
    const out = editCaptivateProject(files, { slideId: 'Slide1004', durationInFrames: 3 * SECOND })
    const delta = 3 * SECOND - 57600
    // Putting the moved numbers back gives the original bytes.
    const back = editCaptivateProject(out.files, { slideId: 'Slide1004', durationInFrames: 57600 })
    expect(back.deltaFrames).toBe(-delta)
    expect(back.files).toEqual(files)
    expect(out.files.projectJs!.length).toBeLessThan(files.projectJs!.length)
    expect(out.project.slides[3]!.durationInFrames).toBe(90)
  })

  it('shortening moves earlier too, and the last slide can change', () => {
    const out = editCaptivateProject(files, { slideId: 'Slide1006', durationInFrames: 2 * SECOND })
    const after = ranges(out.files)
    expect(after.items.Slide1006).toEqual({ from: 60601, to: 60660, lb: 'Summary' })
    expect(after.items.Title_4).toEqual({ from: 60631, to: 60660 })
    expect(after.items.project_main!.to).toBe(60660)
    expect(after.txt.metadata.durationInFrames).toBe(60660)
  })

  it('a name-only change touches only the names', () => {
    const out = editCaptivateProject(files, { slideId: 'Slide1002', name: "Pump 'overview' \\ 2" })
    expect(out.deltaFrames).toBe(0)
    expect(out.slide.name).toBe("Pump 'overview' \\ 2")
    const after = ranges(out.files)
    expect(after.items.Slide1002!.lb).toBe("Pump 'overview' \\ 2")
    expect(after.txt.contentStructure.slides[1]!.name).toBe("Pump 'overview' \\ 2")
    expect(after.txt.contentStructure.slides[1]!.title).toBe('Pump overview')
    expect(out.files.projectTxt!.replace('"name":"Pump \'overview\' \\\\ 2"', '"name":"Pump overview"')).toBe(files.projectTxt)
    expect(out.files.projectJs!.replace("lb: 'Pump \\'overview\\' \\\\ 2'", "lb: 'Pump overview'")).toBe(files.projectJs)
    expect(out.slideFoundAtLine).toBe(files.projectJs!.split('\n').findIndex((l) => l.includes('Slide1002: {')) + 1)
    expect(out.totalLines).toBe(files.projectJs!.split('\n').length)
  })

  it('name and duration together', () => {
    const out = editCaptivateProject(files, { slideId: 'Slide1001', name: 'Hello', durationInFrames: 10 * SECOND })
    expect(out.project.slides.map((s) => [s.name, s.from])).toEqual([
      ['Hello', 1],
      ['Pump overview', 301],
      ['Lockout procedure', 1201],
      ['Field walk-through (long)', 2551],
      ['Knowledge check', 60151],
      ['Summary', 60751],
    ])
  })

  it.each([
    [{ slideId: 'Slide9999', durationInFrames: 30 }, 'unknown_slide'],
    [{ slideId: 'Slide1002', durationInFrames: 0 }, 'bad_duration'],
    [{ slideId: 'Slide1002', durationInFrames: 1.5 }, 'bad_duration'],
    [{ slideId: 'Slide1002', name: '   ' }, 'empty_name'],
    [{ slideId: 'Slide1002' }, 'nothing_to_change'],
    // Title_2 starts 1 s into the slide: the slide cannot end before it.
    [{ slideId: 'Slide1002', durationInFrames: 15 }, 'too_short'],
  ])('refuses %j (%s)', (edit, code) => {
    let caught: unknown
    try {
      editCaptivateProject(files, edit)
    } catch (err) {
      caught = err
    }
    expect(caught).toBeInstanceOf(CaptivateError)
    expect((caught as CaptivateError).code).toBe(code)
  })

  it('refuses a corrupt project.js instead of writing it', () => {
    expect(() => editCaptivateProject({ ...files, projectJs: files.projectJs!.replace('to: 2400,', 'to: ,') }, { slideId: 'Slide1002', name: 'x' })).toThrow(
      CAPTIVATE_MESSAGES.unreadable,
    )
  })
})

describe('durations', () => {
  it('parses HH:MM:SS always and MM:SS in the timing editor', () => {
    expect(parseDuration('00:01:30', { allowMinutes: false })).toBe(90)
    expect(parseDuration('1:30', { allowMinutes: false })).toBeNull()
    expect(parseDuration('1:30', { allowMinutes: true })).toBe(90)
    expect(parseDuration('01:02:03', { allowMinutes: true })).toBe(3723)
    for (const bad of ['', 'abc', '1:60', '00:00:00', '1:2:3:4', '-1:00', '1.5:00']) expect(parseDuration(bad, { allowMinutes: true })).toBeNull()
  })

  it('formats HH:MM:SS and signed differences', () => {
    expect(formatHms(1920)).toBe('00:32:00')
    expect(formatHms(3723)).toBe('01:02:03')
    expect(formatDifference(15)).toBe('+00:00:15')
    expect(formatDifference(-1917)).toBe('-00:31:57')
  })

  it('reads an MP4 duration from its mvhd box', () => {
    const seconds = mp4DurationSeconds(zip['assets/videos/lockout.mp4']!)
    expect(seconds).toBeGreaterThan(1)
    expect(seconds).toBeLessThan(5)
    expect(mp4DurationSeconds(new Uint8Array(100))).toBeNull()
  })
})
