import type { Answer, StartAttemptResponse } from '@portal/contracts'
import { Alert, ApiError, Button, ConfirmDialog, Spinner, errorMessage, type RemoteProps } from '@portal/ui-kit'
import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { dashboardPath, examKeys, fetchExamIntro, saveAnswers, startAttempt, submitExam, type ExamIntro } from '../api.ts'
import { initialDrafts, isAnswered, toSubmission, toggleMarked, type Draft } from './answers.ts'
import { QuestionView } from './QuestionView.tsx'
import { formatClock, isAnnouncement, localDeadline, secondsLeft, spokenTimeLeft } from './timer.ts'

const LOAD_FAILED = 'Failed to load exam. Please try again.'
const SUBMIT_FAILED = 'Failed to submit exam. Please try again.'
const NO_QUESTIONS = 'Cannot start exam: no questions available'
const SAVE_DELAY_MS = 800

const loadError = (err: unknown) =>
  err instanceof ApiError && err.status === 404 ? errorMessage(err, 'Exam not found') : errorMessage(err, LOAD_FAILED)

interface Attempt extends StartAttemptResponse {
  deadlineMs: number
}

/** The intro card: what the exam is, Start Exam and Cancel. */
const Intro = ({
  exam,
  starting,
  error,
  onStart,
  onCancel,
}: {
  exam: ExamIntro
  starting: boolean
  error: string | null
  onStart: () => void
  onCancel: () => void
}) => (
  <section className="pk-card pk-stack" aria-labelledby="exam-title" style={{ maxWidth: 640, margin: '0 auto', width: '100%' }}>
    <h1 id="exam-title">{exam.name}</h1>
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
    <p className="pk-muted" style={{ margin: 0 }}>
      The timer starts when you press Start Exam and does not stop. When the time is up, your answers are submitted
      automatically.
    </p>
    {error ? <Alert>{error}</Alert> : null}
    <div className="pk-row">
      <Button onClick={onStart} disabled={starting}>
        {starting ? 'Starting...' : 'Start Exam'}
      </Button>
      <Button variant="secondary" onClick={onCancel} disabled={starting}>
        Cancel
      </Button>
    </div>
  </section>
)

/** The countdown: visible every second, announced to screen readers only at intervals. */
const Timer = ({ seconds }: { seconds: number }) => {
  const [spoken, setSpoken] = useState('')
  useEffect(() => {
    if (isAnnouncement(seconds)) setSpoken(spokenTimeLeft(seconds))
  }, [seconds])
  const low = seconds <= 60
  return (
    <div className={`pk-exam-timer${low ? ' pk-exam-timer--low' : ''}`}>
      <span className="pk-muted" style={{ fontSize: '.8125rem', fontWeight: 600 }}>
        Time Remaining
      </span>
      <span aria-hidden="true" className="pk-exam-clock">
        {formatClock(seconds)}
      </span>
      <span className="pk-visually-hidden" role="timer" aria-live="off">
        {formatClock(seconds)}
      </span>
      <span className="pk-visually-hidden" aria-live="polite">
        {spoken}
      </span>
    </div>
  )
}

/** The question-by-question view of a started attempt. */
const Taking = ({
  exam,
  attempt,
  examId,
  onExit,
  onSubmitted,
}: {
  exam: ExamIntro
  attempt: Attempt
  examId: string
  onExit: () => void
  onSubmitted: (result: unknown) => void
}) => {
  const questions = attempt.questions
  const questionIds = questions.map((q) => q.id)
  const [drafts, setDrafts] = useState<Draft[]>(() => initialDrafts(questions, attempt.answers))
  const [current, setCurrent] = useState(0)
  const [marked, setMarked] = useState<number[]>([])
  const [seconds, setSeconds] = useState(() => secondsLeft(attempt.deadlineMs, Date.now()))
  const [submitting, setSubmitting] = useState(false)
  const [submitError, setSubmitError] = useState<string | null>(null)
  const [confirmExit, setConfirmExit] = useState(false)
  const [saveState, setSaveState] = useState<'idle' | 'saving' | 'saved' | 'offline'>('idle')
  const finished = useRef(false)
  const autoSubmitted = useRef(false)
  const dirty = useRef(false)

  // The clock: recomputed from the deadline each tick, so a sleeping tab catches up.
  useEffect(() => {
    const tick = () => setSeconds(secondsLeft(attempt.deadlineMs, Date.now()))
    const t = setInterval(tick, 250)
    return () => clearInterval(t)
  }, [attempt.deadlineMs])

  // Leaving during the exam (reload, tab close, typed URL) warns that progress will be lost.
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (finished.current) return
      e.preventDefault()
      e.returnValue = ''
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [])

  // Progress is saved shortly after each change; a failed save is retried with the next change or submit.
  useEffect(() => {
    if (!dirty.current || finished.current) return undefined
    const t = setTimeout(() => {
      setSaveState('saving')
      saveAnswers(attempt.attemptId, toSubmission(drafts), questionIds).then(
        () => setSaveState('saved'),
        () => setSaveState('offline'),
      )
    }, SAVE_DELAY_MS)
    return () => clearTimeout(t)
  }, [drafts, attempt.attemptId])

  const submit = useCallback(
    async (answers: Answer[]) => {
      setSubmitting(true)
      setSubmitError(null)
      try {
        const result = await submitExam(examId, attempt.attemptId, answers, questionIds)
        finished.current = true
        onSubmitted(result)
      } catch (err) {
        setSubmitError(errorMessage(err, SUBMIT_FAILED))
        setSubmitting(false)
      }
    },
    [examId, attempt.attemptId, onSubmitted],
  )

  // Time is up: submit what there is, once.
  useEffect(() => {
    if (seconds > 0 || autoSubmitted.current || finished.current) return
    autoSubmitted.current = true
    setConfirmExit(false)
    void submit(toSubmission(drafts))
  }, [seconds, drafts, submit])

  const setDraft = (d: Draft) => {
    dirty.current = true
    setDrafts((all) => all.map((x, i) => (i === current ? d : x)))
  }
  const question = questions[current]!
  const last = current === questions.length - 1
  const answeredCount = drafts.filter(isAnswered).length
  const isMarked = marked.includes(current)
  const timeUp = seconds <= 0

  return (
    <div className="pk-stack" style={{ maxWidth: 820, margin: '0 auto', width: '100%' }}>
      <header className="pk-card pk-row" style={{ justifyContent: 'space-between' }}>
        <div>
          <h1 style={{ margin: 0, fontSize: '1.375rem' }}>{exam.name}</h1>
          <p className="pk-muted" style={{ margin: 0 }} aria-live="off">
            {answeredCount} of {questions.length} answered
            {saveState === 'offline' ? ' · not saved yet (connection problem), your answers are kept here' : ''}
          </p>
        </div>
        <div className="pk-row">
          <Timer seconds={seconds} />
          <Button variant="secondary" onClick={() => setConfirmExit(true)} disabled={submitting}>
            Exit
          </Button>
        </div>
      </header>

      <section className="pk-card pk-stack" aria-label="Current question">
        <QuestionView question={question} index={current} total={questions.length} draft={drafts[current] ?? null} onChange={setDraft} />
        <div className="pk-row" style={{ justifyContent: 'space-between' }}>
          <Button variant="secondary" onClick={() => setCurrent((c) => c - 1)} disabled={current === 0 || submitting}>
            Previous
          </Button>
          <Button
            variant="secondary"
            aria-pressed={isMarked}
            onClick={() => setMarked((m) => toggleMarked(m, current))}
            disabled={submitting}
          >
            Mark for Review
          </Button>
          {last ? (
            <Button onClick={() => void submit(toSubmission(drafts))} disabled={submitting}>
              {submitting ? 'Submitting...' : 'Submit Exam'}
            </Button>
          ) : (
            <Button onClick={() => setCurrent((c) => c + 1)} disabled={submitting}>
              Next
            </Button>
          )}
        </div>
        {timeUp && submitting ? <Alert tone="info">Time is up. Submitting your answers...</Alert> : null}
        {submitError ? (
          <div className="pk-stack" style={{ gap: '.5rem' }}>
            <Alert>{submitError}</Alert>
            {!last ? (
              <div>
                <Button onClick={() => void submit(toSubmission(drafts))} disabled={submitting}>
                  Submit Exam
                </Button>
              </div>
            ) : null}
          </div>
        ) : null}
      </section>

      <nav className="pk-card pk-stack" aria-labelledby="marked-title">
        <h2 id="marked-title" style={{ fontSize: '1rem', margin: 0 }}>
          Marked for Review ({marked.length})
        </h2>
        {marked.length === 0 ? (
          <p className="pk-muted" style={{ margin: 0 }}>
            No questions marked. Use Mark for Review to come back to a question.
          </p>
        ) : (
          <ul className="pk-row" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {marked.map((i) => (
              <li key={i}>
                <Button
                  size="small"
                  variant="secondary"
                  aria-current={i === current ? 'step' : undefined}
                  onClick={() => setCurrent(i)}
                >
                  Question {i + 1}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </nav>

      <ConfirmDialog
        open={confirmExit}
        title="Exit Exam?"
        confirmLabel="Exit Exam"
        cancelLabel="Continue Exam"
        onCancel={() => setConfirmExit(false)}
        onConfirm={() => {
          finished.current = true
          onExit()
        }}
      >
        Your progress in this attempt will be lost and the timer keeps running. Are you sure you want to leave?
      </ConfirmDialog>
    </div>
  )
}

/** The exam screen: load → intro → started → submitted (then the results screen). */
export const ExamScreen = ({ user, navigate, params }: Pick<RemoteProps, 'user' | 'navigate' | 'params'>) => {
  const id = params.id ?? ''
  const home = dashboardPath(user.is_admin)
  const exam = useQuery({ queryKey: examKeys.intro(id), queryFn: () => fetchExamIntro(id), retry: false })
  const [attempt, setAttempt] = useState<Attempt | null>(null)
  const [starting, setStarting] = useState(false)
  const [startError, setStartError] = useState<string | null>(null)

  const start = async () => {
    setStarting(true)
    setStartError(null)
    try {
      const res = await startAttempt(id)
      const receivedAt = Date.now()
      if (res.questions.length === 0) {
        setStartError(NO_QUESTIONS)
        setStarting(false)
        return
      }
      setAttempt({ ...res, deadlineMs: localDeadline(res.deadline, res.startedAt, receivedAt, res.answers !== undefined) })
    } catch (err) {
      setStartError(loadError(err))
      setStarting(false)
    }
  }

  const onSubmitted = useCallback(
    (result: unknown) => navigate('/exam-results', { state: { result } }),
    [navigate],
  )

  if (exam.isPending) return <Spinner label="Loading exam..." />
  if (exam.isError)
    return (
      <section className="pk-card pk-stack" style={{ maxWidth: 640, margin: '0 auto', width: '100%' }}>
        <h1>Exam</h1>
        <Alert>{loadError(exam.error)}</Alert>
        <div className="pk-row">
          <Button onClick={() => void exam.refetch()}>Try Again</Button>
          <Button variant="secondary" onClick={() => navigate(home)}>
            Return to Dashboard
          </Button>
        </div>
      </section>
    )
  if (!attempt)
    return (
      <Intro exam={exam.data} starting={starting} error={startError} onStart={() => void start()} onCancel={() => navigate(home)} />
    )
  return <Taking exam={exam.data} attempt={attempt} examId={id} onExit={() => navigate(home)} onSubmitted={onSubmitted} />
}
