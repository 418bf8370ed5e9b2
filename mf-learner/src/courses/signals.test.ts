import { describe, expect, it } from 'vitest'
import { runtimeStatus } from '../test-support/index.ts'
import { completionUrl, contentSignal, finishWithoutCompletionProgress, scormCompletion, scormScorePercent, urlSlideProgress, type ScormStatusLike } from './signals.ts'

describe('completion URL keywords', () => {
  it('recognises completion pages by the keywords in the html file name', () => {
    for (const url of [
      '/api/content/tok/goodbye.html',
      '/api/content/tok/Goodby.htm',
      '/api/content/tok/completion.html',
      '/api/content/tok/finished.html',
      'http://host/api/content/tok/course_complete.html?x=1',
      '/api/content/tok/final.html#top',
      '/api/content/tok/the-end.html',
      '/api/content/tok/end.html',
    ])
      expect(completionUrl(url), url).toBe(true)
  })

  it('ignores other pages, keywords inside longer words, the launch token and non-html files', () => {
    for (const url of [
      '/api/content/tok/shared/launchpage.html?content=playing',
      '/api/content/tok/legend.html',
      '/api/content/tok/incomplete.html',
      '/api/content/endtoken-final/lesson.html',
      '/api/content/tok/goodbye.pdf',
      '/api/content/tok/goodbye',
      'about:blank',
    ])
      expect(completionUrl(url), url).toBe(false)
  })
})

describe('slide and page numbers in URLs', () => {
  it('maps 15 slides to 90 percent and 10 pages to 90 percent, capped at 90', () => {
    expect(urlSlideProgress('/c/slide1.html')).toBe(6)
    expect(urlSlideProgress('/c/slides/slide_15.html')).toBe(90)
    expect(urlSlideProgress('/c/slide40.html')).toBe(90)
    expect(urlSlideProgress('/c/index.html#/slide/5')).toBe(30)
    expect(urlSlideProgress('/c/page-5.html')).toBe(45)
    expect(urlSlideProgress('/c/book.html?page=10')).toBe(90)
  })

  it('finds no number in ordinary URLs', () => {
    expect(urlSlideProgress('/c/shared/launchpage.html?content=playing')).toBeNull()
    expect(urlSlideProgress('/c/index.html')).toBeNull()
    expect(urlSlideProgress('/c/homepage2.html')).toBeNull()
  })
})

describe('content messages', () => {
  it('treats the module-completed messages as completion, as strings or as objects', () => {
    expect(contentSignal('scorm-module-completed')).toEqual({ kind: 'complete' })
    expect(contentSignal('module-completed')).toEqual({ kind: 'complete' })
    expect(contentSignal({ type: 'scorm-module-completed' })).toEqual({ kind: 'complete' })
    expect(contentSignal({ event: 'module-completed' })).toEqual({ kind: 'complete' })
    expect(contentSignal('{"type":"module-completed"}')).toEqual({ kind: 'complete' })
  })

  it('treats a completed or passed status as completion', () => {
    expect(contentSignal({ status: 'completed' })).toEqual({ kind: 'complete' })
    expect(contentSignal({ lessonStatus: 'passed' })).toEqual({ kind: 'complete' })
    expect(contentSignal({ status: 'incomplete' })).toBeNull()
  })

  it('treats progress of 100 or more as completion and lower progress as progress', () => {
    expect(contentSignal({ progress: 100 })).toEqual({ kind: 'complete' })
    expect(contentSignal({ type: 'progress', progress: '120' })).toEqual({ kind: 'complete' })
    expect(contentSignal({ type: 'progress', progress: 42 })).toEqual({ kind: 'progress', progress: 42 })
    expect(contentSignal({ progress: 0 })).toBeNull()
  })

  it('treats the final slide as completion and an earlier slide as progress', () => {
    expect(contentSignal({ slide: 12, totalSlides: 12 })).toEqual({ kind: 'complete' })
    expect(contentSignal({ isFinalSlide: true })).toEqual({ kind: 'complete' })
    expect(contentSignal({ currentSlide: 3, totalSlides: 12 })).toEqual({ kind: 'progress', progress: 25 })
  })

  it('treats a goodbye text as completion', () => {
    expect(contentSignal('Goodbye!')).toEqual({ kind: 'complete' })
    expect(contentSignal({ message: 'Thank you for completing this course' })).toEqual({ kind: 'complete' })
    expect(contentSignal({ text: 'End of the module' })).toEqual({ kind: 'complete' })
    expect(contentSignal({ text: 'Welcome to the course' })).toBeNull()
  })

  it('reads real user activity', () => {
    expect(contentSignal('real-user-activity')).toEqual({ kind: 'activity' })
    expect(contentSignal({ type: 'user-activity' })).toEqual({ kind: 'activity' })
  })

  it('ignores unrelated messages', () => {
    for (const data of [null, undefined, 42, [], 'hello', '{not json', { source: 'react-devtools', payload: {} }, { type: 'resize', height: 300 }])
      expect(contentSignal(data)).toBeNull()
  })
})

describe('SCORM status signals', () => {
  const status = (over: Partial<ScormStatusLike>): ScormStatusLike => runtimeStatus(over)

  it('completes on a completed or passed lesson, completion or success status', () => {
    expect(scormCompletion(status({ lessonStatus: 'completed' }))).toBe('scorm-status')
    expect(scormCompletion(status({ lessonStatus: 'passed' }))).toBe('scorm-status')
    expect(scormCompletion(status({ completionStatus: 'completed' }))).toBe('scorm-status')
    expect(scormCompletion(status({ completionStatus: 'incomplete', successStatus: 'passed' }))).toBe('scorm-status')
  })

  it('completes on a score of 100 or more', () => {
    expect(scormCompletion(status({ lessonStatus: 'incomplete', scoreRaw: 100 }))).toBe('scorm-score')
    expect(scormCompletion(status({ scoreRaw: 99 }))).toBeNull()
  })

  it('does not complete on other statuses', () => {
    for (const s of ['not attempted', 'incomplete', 'browsed', 'failed', 'unknown']) expect(scormCompletion(status({ lessonStatus: s, completionStatus: s }))).toBeNull()
  })

  it('sets progress to the greater of the score and 95 after a finish without completion', () => {
    expect(finishWithoutCompletionProgress(status({}))).toBe(95)
    expect(finishWithoutCompletionProgress(status({ scoreRaw: 40 }))).toBe(95)
    expect(finishWithoutCompletionProgress(status({ scoreRaw: 97 }))).toBe(97)
    expect(finishWithoutCompletionProgress(status({ scoreScaled: 0.98 }))).toBe(98)
    expect(scormScorePercent(status({ scoreScaled: 0.5 }))).toBe(50)
  })
})
