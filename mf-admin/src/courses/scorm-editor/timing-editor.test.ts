import { describe, expect, it } from 'vitest'
import { SCORM_EDITOR_MESSAGES as M, type ScormVideoSlide } from '@portal/contracts'
import { canSave, isNameOnly, slideLabel, successMessage, timingProblem } from './timing-editor.ts'

const slide = (over: Partial<ScormVideoSlide> = {}): ScormVideoSlide => ({
  id: 'Slide1003',
  title: 'Lockout procedure',
  name: 'Lockout procedure',
  durationInSeconds: 45,
  durationInFrames: 1350,
  durationFormatted: '00:00:45',
  video: 'assets/videos/lockout.mp4',
  ...over,
})

describe('SCORM Timing Editor rules (admin §5)', () => {
  it('Save is disabled unless a slide is selected and a duration or name is given', () => {
    expect(canSave({ slideId: '', duration: '01:00', name: 'x' })).toBe(false)
    expect(canSave({ slideId: 'Slide1003', duration: '', name: '  ' })).toBe(false)
    expect(canSave({ slideId: 'Slide1003', duration: '01:00', name: '' })).toBe(true)
    expect(canSave({ slideId: 'Slide1003', duration: '', name: 'Lockout' })).toBe(true)
  })

  it('a name alone is a name-only update; anything else needs a duration of a video slide', () => {
    expect(isNameOnly({ slideId: 'a', duration: '', name: 'x' }, false)).toBe(true)
    expect(isNameOnly({ slideId: 'a', duration: '', name: 'x' }, true)).toBe(false)
    expect(timingProblem({ slideId: '', duration: '01:00', name: '' }, undefined, false)).toBe(M.selectSlide)
    expect(timingProblem({ slideId: 'Slide1003', duration: '', name: 'New' }, slide(), false)).toBeNull()
    expect(timingProblem({ slideId: 'Slide1003', duration: '', name: 'New' }, slide(), true)).toBeNull()
    expect(timingProblem({ slideId: 'Slide1003', duration: '', name: '' }, slide(), false)).toBe(M.enterDuration)
    expect(timingProblem({ slideId: 'Slide1003', duration: '01:00', name: '' }, slide({ video: null }), false)).toBe(M.noVideo)
    expect(timingProblem({ slideId: 'Slide1003', duration: '1 minute', name: '' }, slide(), false)).toBe('Enter the duration as MM:SS or HH:MM:SS')
    expect(timingProblem({ slideId: 'Slide1003', duration: '01:00', name: '' }, slide(), false)).toBeNull()
    expect(timingProblem({ slideId: 'Slide1003', duration: '00:01:00', name: '' }, slide(), false)).toBeNull()
  })

  it('says the time difference on success and flags slides over 1,800 s', () => {
    expect(successMessage({ message: '', backupId: 1, changes: { timeDifference: { frames: 450, seconds: 15, formatted: '+00:00:15' } } })).toBe(
      'Successfully updated timing! Time difference: +00:00:15',
    )
    expect(successMessage({ message: '', backupId: 1, changes: {} })).toBe(M.saved)
    expect(slideLabel(slide(), 30)).toBe('Lockout procedure (00:00:45)')
    expect(slideLabel(slide({ durationInFrames: 57600, durationFormatted: '00:32:00', name: 'Walk' }), 30)).toBe('Walk (00:32:00) – Likely Problem Slide')
  })
})
