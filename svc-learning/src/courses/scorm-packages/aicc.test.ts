import { describe, expect, it } from 'vitest'
import { parseAicc, parseAiccCsv } from './aicc.ts'
import { PackageError } from './package-info.ts'
import { aiccCourse } from './zips.test-support.ts'

describe('parseAiccCsv', () => {
  it('reads quoted fields with commas, doubled quotes and empty values', () => {
    expect(parseAiccCsv('"a","b, c","say ""hi""",,plain \r\n\r\n"x"\n')).toEqual([['a', 'b, c', 'say "hi"', '', 'plain'], ['x']])
  })
})

describe('parseAicc', () => {
  it('makes one item per AU, grouped by the course structure blocks', () => {
    const info = parseAicc(aiccCourse)
    expect(info).toMatchObject({ version: 'AICC', edition: 'AICC', title: 'Golf, the Basics', scoCount: 2 })
    expect(info.items.map((i) => [i.identifier, i.title, i.href, i.children.map((c) => c.identifier)])).toEqual([
      ['B1', 'Part one', null, ['A1']],
      ['A2', 'Final quiz', 'quiz/start.html?attempt=1', []],
    ])
    expect(info.items[0].children[0]).toEqual({
      identifier: 'A1',
      title: 'Rules, etiquette and scoring',
      href: 'lesson1/index.html?lang=en',
      isvisible: true,
      launch_data: null,
      mastery_score: 80,
      prerequisites: null,
      completion_threshold: null,
      scaled_passing_score: null,
      max_time_allowed: '00:30:00',
      time_limit_action: 'exit,message',
      children: [],
    })
    expect(info.items[1]).toMatchObject({ launch_data: 'mode="final"', mastery_score: null, max_time_allowed: null })
  })

  it('lists the AUs in file order when there is no structure file, titled by their ids without a descriptor file', () => {
    const info = parseAicc({ au: aiccCourse.au })
    expect(info.items.map((i) => [i.identifier, i.title])).toEqual([
      ['A1', 'A1'],
      ['A2', 'A2'],
    ])
    expect(info.title).toBe('A1')
  })

  it('rejects a course without a launchable AU', () => {
    expect(() => parseAicc({ au: '"System_ID","File_Name"\r\n"A1",""' })).toThrow(PackageError)
  })
})
