/** Whole seconds left until `deadlineMs`, never below 0 (rounded up so 00:00 means time is up). */
export const secondsLeft = (deadlineMs: number, nowMs: number): number => Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000))

/** mm:ss (minutes keep counting past 59: a 180-minute exam starts at 180:00). */
export const formatClock = (seconds: number): string => {
  const s = Math.max(0, Math.floor(seconds))
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

/** The deadline on this browser's clock: a fresh attempt corrects for the clock's skew from the server's. */
export const localDeadline = (deadline: string, startedAt: string, receivedAtMs: number, resumed: boolean): number => {
  const deadlineMs = Date.parse(deadline)
  if (resumed) return deadlineMs
  const skew = Date.parse(startedAt) - receivedAtMs
  // Only trust the estimate when it is plausible (a fresh attempt starts "now" on the server).
  return Number.isFinite(skew) && Math.abs(skew) < 24 * 3600_000 ? deadlineMs - skew : deadlineMs
}

/** The moments the time left is announced to screen readers: 10, 5 and 1 minutes before the end (not every second). */
export const ANNOUNCED_SECONDS = [600, 300, 60] as const

/** Whether the screen-reader announcement of the time left is due at `seconds` left. */
export const isAnnouncement = (seconds: number): boolean => (ANNOUNCED_SECONDS as readonly number[]).includes(seconds)

/** The announcement moment passed between two readings of the clock (a sleeping tab skips seconds), or null. */
export const announcementBetween = (previous: number | null, current: number): number | null =>
  previous === null ? null : (ANNOUNCED_SECONDS.find((t) => previous > t && current <= t && current > 0) ?? null)

/** A span of time in words, rounded up to whole minutes past one minute: "42 minutes", "1 minute", "30 seconds". */
export const durationText = (seconds: number): string => {
  const s = Math.max(0, Math.ceil(seconds))
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`
  const m = Math.ceil(s / 60)
  return `${m} minute${m === 1 ? '' : 's'}`
}

/** Words for the announcement, e.g. "5 minutes remaining", "30 seconds remaining". */
export const spokenTimeLeft = (seconds: number): string => {
  if (seconds >= 60 && seconds % 60 === 0) {
    const m = seconds / 60
    return `${m} ${m === 1 ? 'minute' : 'minutes'} remaining`
  }
  const m = Math.floor(seconds / 60)
  const s = seconds % 60
  const parts = [m ? `${m} ${m === 1 ? 'minute' : 'minutes'}` : '', s ? `${s} ${s === 1 ? 'second' : 'seconds'}` : '']
  return `${parts.filter(Boolean).join(' ')} remaining`
}
