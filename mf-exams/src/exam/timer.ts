/** Whole seconds left until `deadlineMs`, never below 0 (rounded up so 00:00 means time is up). */
export const secondsLeft = (deadlineMs: number, nowMs: number): number =>
  Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000))

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

/** Whether the screen-reader announcement of the time left is due: each 5 minutes, each minute in the last 5, then 30 s and 10 s. */
export const isAnnouncement = (seconds: number): boolean => {
  if (seconds <= 0) return false
  if (seconds === 30 || seconds === 10) return true
  if (seconds % 60 !== 0) return false
  return seconds <= 300 || seconds % 300 === 0
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
