import type { CompletionTrigger } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { FakeClock } from './fake-clock.ts'
import { activityProgress, ProgressTracker, timeProgress } from './tracker.ts'

const setup = (opts: { edited?: boolean; initialProgress?: number; urls?: string[] } = {}) => {
  const clock = new FakeClock()
  const progress: number[] = []
  const completions: CompletionTrigger[] = []
  const urls = opts.urls ?? []
  const tracker = new ProgressTracker({
    clock,
    edited: opts.edited ?? false,
    initialProgress: opts.initialProgress,
    onProgress: (p) => progress.push(p),
    onComplete: (t) => completions.push(t),
    readUrls: () => urls,
  })
  return { clock, tracker, progress, completions, urls }
}

const MIN = 60_000

describe('progress tracker', () => {
  it('starts 1.5 s after load for an unedited module, at 5 percent', () => {
    const { clock, tracker, progress } = setup()
    tracker.start()
    clock.advance(1_499)
    expect(tracker.started).toBe(false)
    expect(progress).toEqual([])
    clock.advance(1)
    expect(tracker.started).toBe(true)
    expect(progress).toEqual([5])
  })

  it('starts 2 s after load for an edited module', () => {
    const { clock, tracker } = setup({ edited: true })
    tracker.start()
    clock.advance(1_999)
    expect(tracker.started).toBe(false)
    clock.advance(1)
    expect(tracker.started).toBe(true)
  })

  it('never reports less than the stored progress', () => {
    const { clock, tracker, progress } = setup({ initialProgress: 40 })
    tracker.start()
    clock.advance(1_500 + 3 * MIN)
    expect(progress).toEqual([41, 45]) // nothing at or below the stored 40
    expect(tracker.progress).toBe(45)
  })

  it('adds 15 per minute under 5 minutes, capped at 75, checked every 15 s', () => {
    expect(timeProgress(0)).toBe(0)
    expect(timeProgress(MIN)).toBe(15)
    expect(timeProgress(2.5 * MIN)).toBe(37)
    expect(timeProgress(4.99 * MIN)).toBe(74)
    const { clock, tracker, progress } = setup()
    tracker.start()
    clock.advance(1_500)
    clock.advance(15_000)
    expect(tracker.progress).toBe(5) // 15 s is 3.75 %: still below the 5 % start
    clock.advance(15_000)
    expect(tracker.progress).toBe(7)
    clock.advance(30_000)
    expect(tracker.progress).toBe(15)
    expect(progress).toEqual([5, 7, 11, 15])
  })

  it('adds 4 per minute from 75 between 5 and 10 minutes, up to 95, then stays at 95', () => {
    expect(timeProgress(5 * MIN)).toBe(75)
    expect(timeProgress(7 * MIN)).toBe(83)
    expect(timeProgress(9.99 * MIN)).toBe(94)
    expect(timeProgress(10 * MIN)).toBe(95)
    expect(timeProgress(19 * MIN)).toBe(95)
    const { clock, tracker, completions } = setup()
    tracker.start()
    clock.advance(1_500 + 12 * MIN)
    expect(tracker.progress).toBe(95)
    expect(completions).toEqual([])
  })

  it('asks for completion after 20 minutes, once', () => {
    const { clock, tracker, completions } = setup()
    tracker.start()
    clock.advance(1_500 + 20 * MIN - 15_000)
    expect(completions).toEqual([])
    clock.advance(15_000)
    expect(completions).toEqual(['tracker'])
    clock.advance(5 * MIN)
    expect(completions).toEqual(['tracker'])
  })

  it('gives 8 percent per 3 interactions, capped at 85', () => {
    expect(activityProgress(2)).toBe(0)
    expect(activityProgress(3)).toBe(8)
    expect(activityProgress(9)).toBe(24)
    expect(activityProgress(300)).toBe(85)
    const { tracker, progress } = setup()
    for (let i = 0; i < 6; i++) tracker.interaction()
    expect(progress).toEqual([8, 16])
    for (let i = 0; i < 100; i++) tracker.interaction()
    expect(tracker.progress).toBe(85)
  })

  it('completes after three bursts of more than 10 interactions each followed by 30 s idle, once above 50 percent', () => {
    const { clock, tracker, completions } = setup()
    tracker.start()
    clock.advance(1_500)
    const burst = () => {
      for (let i = 0; i < 11; i++) tracker.interaction()
      clock.advance(40_000)
    }
    burst()
    burst()
    expect(completions).toEqual([])
    burst()
    expect(tracker.progress).toBeGreaterThan(50) // 33 interactions: 88 capped at 85
    expect(completions).toEqual(['tracker'])
  })

  it('does not count a burst of exactly 10 interactions or one without 30 s of quiet', () => {
    const { clock, tracker, completions } = setup()
    tracker.start()
    clock.advance(1_500)
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 10; i++) tracker.interaction()
      clock.advance(40_000)
    }
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 11; i++) tracker.interaction()
      clock.advance(20_000)
    }
    expect(completions).toEqual([])
  })

  it('waits for progress above 50 before the activity pattern completes', () => {
    const { clock, tracker, completions } = setup()
    tracker.start()
    clock.advance(1_500)
    // Three patterns of 11 interactions each, counted as soon as they happen, but progress comes only from activity.
    const t = tracker as unknown as { value: number }
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 11; i++) tracker.interaction()
      t.value = 20 // hold progress down to see the threshold work
      clock.advance(30_000)
    }
    expect(completions).toEqual([])
    tracker.raise(51)
    clock.advance(10_000)
    expect(completions).toEqual(['tracker'])
  })

  it('completes when the page is hidden the third time above 60 percent', () => {
    const { tracker, completions } = setup({ initialProgress: 55 })
    tracker.pageHidden()
    tracker.pageHidden()
    tracker.pageHidden()
    expect(completions).toEqual([]) // at 55 nothing counts
    tracker.raise(61)
    tracker.pageHidden()
    tracker.pageHidden()
    expect(completions).toEqual([])
    tracker.pageHidden()
    expect(completions).toEqual(['module-close'])
  })

  it('completes at unload only above 70 percent', () => {
    const low = setup({ initialProgress: 70 })
    expect(low.tracker.unload()).toBe(false)
    expect(low.completions).toEqual([])
    const high = setup({ initialProgress: 71 })
    expect(high.tracker.unload()).toBe(true)
    expect(high.completions).toEqual(['module-close'])
    expect(high.tracker.unload()).toBe(false)
  })

  it('caps progress from messages at 99 and never goes down', () => {
    const { tracker, progress } = setup()
    tracker.messageProgress(40)
    tracker.messageProgress(30)
    tracker.messageProgress(150)
    expect(progress).toEqual([40, 99])
  })

  it('lifts progress below 50 to 60 on real user activity, and leaves higher progress alone', () => {
    const a = setup({ initialProgress: 49 })
    a.tracker.realActivity()
    expect(a.tracker.progress).toBe(60)
    const b = setup({ initialProgress: 55 })
    b.tracker.realActivity()
    expect(b.tracker.progress).toBe(55)
  })

  it('maps slide numbers in the frame URL (15 slides is 90 percent) and page numbers (10 pages is 90 percent)', () => {
    const { clock, tracker, urls } = setup()
    tracker.start()
    clock.advance(1_500)
    urls.push('/api/content/tok/slides/slide5.html')
    clock.advance(3_000)
    expect(tracker.progress).toBe(30)
    urls[0] = '/api/content/tok/page-8.html'
    clock.advance(3_000)
    expect(tracker.progress).toBe(72)
    urls[0] = '/api/content/tok/slide15.html'
    clock.advance(3_000)
    expect(tracker.progress).toBe(90)
  })

  it('asks for completion when the frame shows a completion page', () => {
    const { clock, tracker, urls, completions } = setup()
    tracker.start()
    clock.advance(1_500)
    urls.push('/api/content/tok/lesson1.html')
    clock.advance(3_000)
    expect(completions).toEqual([])
    urls.push('/api/content/tok/goodbye.html')
    clock.advance(3_000)
    clock.advance(3_000)
    expect(completions).toEqual(['completion-url'])
  })

  it('once the content talks to the SCORM runtime, no fallback completes it or raises its progress; the content’s own measure still does (issue 15)', () => {
    const { clock, tracker, progress, completions, urls } = setup({ initialProgress: 80 })
    tracker.start()
    clock.advance(1_500)
    tracker.contentTalks()
    urls.push('https://content.test/course/finished.html?slide=14')
    for (let i = 0; i < 40; i++) tracker.interaction()
    tracker.realActivity()
    for (let i = 0; i < 3; i++) tracker.pageHidden()
    clock.advance(25 * MIN)
    expect(tracker.unload()).toBe(false)
    expect(completions).toEqual([])
    expect(progress).toEqual([])
    tracker.messageProgress(90)
    expect(progress).toEqual([90])
  })

  it('checks nothing before it has started', () => {
    const { clock, tracker, completions, progress } = setup({ urls: ['/x/goodbye.html'] })
    clock.advance(10 * MIN)
    expect(completions).toEqual([])
    expect(progress).toEqual([])
    expect(tracker.started).toBe(false)
  })

  it('stops every timer and ignores signals once completion is recorded', () => {
    const { clock, tracker, progress } = setup()
    tracker.start()
    clock.advance(1_500)
    expect(clock.pending).toBe(3)
    tracker.markCompleted()
    expect(clock.pending).toBe(0)
    expect(tracker.progress).toBe(100)
    tracker.interaction()
    tracker.messageProgress(80)
    expect(progress).toEqual([5])
    expect(tracker.unload()).toBe(false)
  })

  it('cancels a scheduled start when stopped first', () => {
    const { clock, tracker } = setup()
    tracker.start()
    tracker.stop()
    clock.advance(5_000)
    expect(tracker.started).toBe(false)
    expect(clock.pending).toBe(0)
  })
})
