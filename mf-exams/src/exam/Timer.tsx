import { useEffect, useRef, useState } from 'react'
import { announcementBetween, formatClock, spokenTimeLeft } from './timer.ts'

/**
 * The countdown: visible every second; screen readers can read it when they ask (role=timer, not
 * live) and are told, politely, at 10, 5 and 1 minutes left.
 */
export const Timer = ({ seconds }: { seconds: number }) => {
  const [spoken, setSpoken] = useState('')
  const previous = useRef<number | null>(null)
  useEffect(() => {
    const due = announcementBetween(previous.current, seconds)
    previous.current = seconds
    if (due !== null) setSpoken(spokenTimeLeft(due))
  }, [seconds])
  const low = seconds <= 60
  return (
    <div className={`pk-exam-timer${low ? ' pk-exam-timer--low' : ''}`}>
      <span className="pk-muted pk-fs-13 pk-fw-semibold">Time Remaining</span>
      <span aria-hidden="true" className="pk-exam-clock">
        {formatClock(seconds)}
      </span>
      <span className="pk-visually-hidden" role="timer" aria-live="off">
        {formatClock(seconds)}
      </span>
      <span className="pk-visually-hidden" role="status" aria-live="polite">
        {spoken}
      </span>
    </div>
  )
}
