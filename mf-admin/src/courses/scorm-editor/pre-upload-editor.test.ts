import { describe, expect, it } from 'vitest'
import { parseCaptivateProject } from '@portal/contracts/captivate'
import { strFromU8, unzipSync } from 'fflate'
import { captivateFixture } from '@portal/contracts/test-support/captivate-fixture'
import { DURATION_FORMAT_MESSAGE, NAME_REQUIRED_MESSAGE, draftEdits, draftErrors, draftsFrom } from './pre-upload-editor.ts'

const zip = unzipSync(captivateFixture())
const project = parseCaptivateProject({ projectTxt: strFromU8(zip['project.txt']!), projectJs: strFromU8(zip['assets/js/project.js']!) })

describe('pre-upload editor drafts', () => {
  it('lists the video slides with HH:MM:SS durations and flags slides over 1,800 s', () => {
    expect(draftsFrom(project).map((d) => [d.name, d.duration, d.likelyProblem])).toEqual([
      ['Pump overview', '00:00:30', false],
      ['Lockout procedure', '00:00:45', false],
      ['Field walk-through (long)', '00:32:00', true],
    ])
  })

  it('turns typed values into edits at 30 fps, only for what changed', () => {
    const drafts = draftsFrom(project)
    expect(draftEdits(project, drafts)).toEqual([])
    drafts[2] = { ...drafts[2]!, duration: '00:00:03', name: ' Walk-through ' }
    expect(draftEdits(project, drafts)).toEqual([{ slideId: 'Slide1004', name: 'Walk-through', durationInFrames: 90 }])
  })

  it('requires HH:MM:SS and a name', () => {
    const drafts = draftsFrom(project)
    drafts[0] = { ...drafts[0]!, duration: '0:30' }
    drafts[1] = { ...drafts[1]!, name: '  ' }
    expect(draftErrors(drafts)).toEqual({ Slide1002: DURATION_FORMAT_MESSAGE, Slide1003: NAME_REQUIRED_MESSAGE })
  })
})
