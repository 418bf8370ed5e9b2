import { describe, expect, it } from 'vitest'
import { announcementBetween, durationText, formatClock, isAnnouncement, localDeadline, secondsLeft, spokenTimeLeft } from './timer.ts'

describe('exam timer', () => {
  it('formats the time left as mm:ss, minutes past 59 included', () => {
    expect(formatClock(3600)).toBe('60:00')
    expect(formatClock(10_800)).toBe('180:00')
    expect(formatClock(65)).toBe('01:05')
    expect(formatClock(9)).toBe('00:09')
    expect(formatClock(-4)).toBe('00:00')
  })

  it('counts down from the deadline and stops at zero (expiry)', () => {
    const deadline = Date.parse('2026-01-01T10:00:00Z')
    expect(secondsLeft(deadline, deadline - 60_000)).toBe(60)
    expect(secondsLeft(deadline, deadline - 500)).toBe(1)
    expect(secondsLeft(deadline, deadline)).toBe(0)
    expect(secondsLeft(deadline, deadline + 5000)).toBe(0)
  })

  it('corrects a fresh attempt for the browser clock being off, not a resumed one', () => {
    const started = '2026-01-01T10:00:00.000Z'
    const deadline = '2026-01-01T11:00:00.000Z'
    const browserAhead = Date.parse(started) + 120_000
    expect(localDeadline(deadline, started, browserAhead, false) - browserAhead).toBe(3600_000)
    expect(localDeadline(deadline, started, browserAhead, true)).toBe(Date.parse(deadline))
  })

  it('announces 10, 5 and 1 minutes before the end, not every second', () => {
    const announced = Array.from({ length: 3601 }, (_, s) => s).filter(isAnnouncement)
    expect(announced).toEqual([60, 300, 600])
    expect(spokenTimeLeft(600)).toBe('10 minutes remaining')
    expect(spokenTimeLeft(300)).toBe('5 minutes remaining')
    expect(spokenTimeLeft(60)).toBe('1 minute remaining')
    expect(spokenTimeLeft(30)).toBe('30 seconds remaining')
  })
  it('announces a moment the clock jumped over (a sleeping tab), once, and none on the first reading', () => {
    expect(announcementBetween(null, 600)).toBeNull()
    expect(announcementBetween(601, 600)).toBe(600)
    expect(announcementBetween(640, 590)).toBe(600)
    expect(announcementBetween(600, 599)).toBeNull()
    expect(announcementBetween(61, 0)).toBeNull()
  })
  it('says a time left in words, rounded up to whole minutes', () => {
    expect(durationText(42 * 60 - 20)).toBe('42 minutes')
    expect(durationText(61)).toBe('2 minutes')
    expect(durationText(60)).toBe('1 minute')
    expect(durationText(30)).toBe('30 seconds')
  })
})
