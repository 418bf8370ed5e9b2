import { Alert, Button } from '@portal/ui-kit'
import { useEffect, useRef, useState } from 'react'
import type { ExamIntro } from './api.ts'
import { formatClock, secondsLeft } from './timer.ts'

/** The intro card: what the exam is, Start Exam (or Resume Exam with the time left) and Cancel. */
export const Intro = ({
  exam,
  receivedAt,
  starting,
  error,
  onStart,
  onCancel,
  onAttemptOver,
}: {
  exam: ExamIntro
  /** When the exam's data arrived (the open attempt's time left is counted from then). */
  receivedAt: number
  starting: boolean
  error: string | null
  onStart: () => void
  onCancel: () => void
  /** The open attempt's time ran out while the intro was shown. */
  onAttemptOver: () => void
}) => {
  const open = exam.open_attempt ?? null
  const headingRef = useRef<HTMLHeadingElement>(null)
  // The page opens on its heading, so a screen reader starts here rather than at <body>.
  useEffect(() => headingRef.current?.focus(), [])
  return (
    <section className="pk-card pk-stack pk-max-w640 pk-mx-auto pk-w-full" aria-labelledby="exam-title">
      <h1 id="exam-title" ref={headingRef} tabIndex={-1}>
        {exam.name}
      </h1>
      <dl className="pk-exam-facts">
        <div>
          <dt>Questions</dt>
          <dd>{exam.total_questions}</dd>
        </div>
        <div>
          <dt>Time Limit</dt>
          <dd>{exam.time_limit} minutes</dd>
        </div>
        <div>
          <dt>Pass Score</dt>
          <dd>{exam.pass_score}%</dd>
        </div>
        {exam.exam_type === 'final' && exam.max_attempts !== null ? (
          <div>
            <dt>Attempts Allowed</dt>
            <dd>{exam.max_attempts}</dd>
          </div>
        ) : null}
      </dl>
      {open ? (
        <OpenAttemptNote open={open} receivedAt={receivedAt} onOver={onAttemptOver} />
      ) : (
        <p className="pk-muted pk-m0">
          The timer starts when you press Start Exam and does not stop, even if you leave this page. Your answers are saved as you go; when the time is up, they are submitted
          automatically.
        </p>
      )}
      {error ? <Alert>{error}</Alert> : null}
      <div className="pk-row">
        <Button onClick={onStart} aria-disabled={starting || undefined}>
          {open ? (starting ? 'Resuming...' : 'Resume Exam') : starting ? 'Starting...' : 'Start Exam'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={starting}>
          Cancel
        </Button>
      </div>
    </section>
  )
}

/** The attempt under way: its clock kept running while the learner was away. */
const OpenAttemptNote = ({ open, receivedAt, onOver }: { open: NonNullable<ExamIntro['open_attempt']>; receivedAt: number; onOver: () => void }) => {
  const deadlineMs = receivedAt + open.seconds_left * 1000
  const [seconds, setSeconds] = useState(() => secondsLeft(deadlineMs, Date.now()))
  useEffect(() => {
    const t = setInterval(() => setSeconds(secondsLeft(deadlineMs, Date.now())), 500)
    return () => clearInterval(t)
  }, [deadlineMs])
  useEffect(() => {
    if (seconds <= 0) onOver()
  }, [seconds, onOver])
  return (
    <div className="pk-alert pk-alert--info pk-stack pk-gap-m">
      <p className="pk-m0">
        <strong>Attempt {open.attempt_number} is under way.</strong> Its clock kept running while you were away: resume it to go on where you left off ({open.answered} of{' '}
        {open.questions} questions answered).
      </p>
      <p className="pk-m0">
        Time left: <strong className="pk-exam-clock-inline">{formatClock(seconds)}</strong>
        <span className="pk-muted"> (minutes:seconds)</span>
      </p>
    </div>
  )
}
