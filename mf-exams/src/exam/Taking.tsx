import type { StartAttemptResponse } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, errorMessage, type RemoteProps } from '@portal/ui-kit'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { submitExam, type ExamIntro } from './api.ts'
import { initialDrafts, toSubmission, toggleMarked, type Draft } from './answers.ts'
import { LeaveDialog, type LeaveAsk } from './LeaveDialog.tsx'
import { confirmSubmitText, questionStates } from './palette.ts'
import { QuestionPalette } from './QuestionPalette.tsx'
import { QuestionView } from './QuestionView.tsx'
import { ReviewScreen } from './ReviewScreen.tsx'
import { Timer } from './Timer.tsx'
import { secondsLeft } from './timer.ts'
import { useAnswerSaver } from './useAnswerSaver.ts'

const SUBMIT_FAILED = 'Failed to submit exam. Please try again.'

export interface Attempt extends StartAttemptResponse {
  deadlineMs: number
}

/** Marks for review live in this tab, so leaving and resuming keeps them. */
const marksKey = (attemptId: string) => `portal.exam-marks.${attemptId}`
const readMarks = (attemptId: string): number[] => {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(marksKey(attemptId)) ?? '[]')
    return Array.isArray(v) ? v.filter((i): i is number => Number.isInteger(i)) : []
  } catch {
    return []
  }
}

/**
 * A started attempt: one question at a time with the palette beside it, a review before the final
 * submit, and a leave guard that tells the truth on every way out.
 */
export const Taking = ({
  exam,
  attempt,
  examId,
  registerLeaveGuard,
  onExit,
  onSubmitted,
}: {
  exam: ExamIntro
  attempt: Attempt
  examId: string
  registerLeaveGuard: RemoteProps['registerLeaveGuard']
  onExit: () => void
  onSubmitted: (result: unknown) => void
}) => {
  const questions = attempt.questions
  const questionIds = useMemo(() => questions.map((q) => q.id), [questions])
  const [drafts, setDrafts] = useState<Draft[]>(() => initialDrafts(questions, attempt.answers))
  const [current, setCurrent] = useState(0)
  const [view, setView] = useState<'question' | 'review'>('question')
  // Focus goes to the question on screen after each move, and after Start Exam.
  const [focusKey, setFocusKey] = useState(1)
  const [marked, setMarked] = useState<number[]>(() => readMarks(attempt.attemptId))
  const [seconds, setSeconds] = useState(() => secondsLeft(attempt.deadlineMs, Date.now()))
  const [submitting, setSubmitting] = useState(false)
  const [submitError, setSubmitError] = useState<string | null>(null)
  const [confirmSubmit, setConfirmSubmit] = useState(false)
  const [leaving, setLeaving] = useState<{ ask: LeaveAsk; answer: (ok: boolean) => void } | null>(null)
  const saver = useAnswerSaver(attempt.attemptId, questionIds, drafts)
  const released = useRef(false)
  const withdrawGuard = useRef<(() => void) | null>(null)
  const autoSubmitted = useRef(false)

  /** From here on the page may be left without asking (submitted, or the learner chose to leave). */
  const release = useCallback(() => {
    released.current = true
    withdrawGuard.current?.()
  }, [])

  // The clock: recomputed from the deadline each tick, so a sleeping tab catches up.
  useEffect(() => {
    const tick = () => setSeconds(secondsLeft(attempt.deadlineMs, Date.now()))
    const t = setInterval(tick, 250)
    return () => clearInterval(t)
  }, [attempt.deadlineMs])

  useEffect(() => {
    try {
      sessionStorage.setItem(marksKey(attempt.attemptId), JSON.stringify(marked))
    } catch {
      // Storage blocked or full: the marks stay in this page's state only.
    }
  }, [marked, attempt.attemptId])

  // Links, browser Back and Logout: the shell asks this guard first.
  useEffect(() => {
    if (!registerLeaveGuard) return undefined
    const withdraw = registerLeaveGuard(
      (intent) =>
        new Promise<boolean>((answer) => {
          if (released.current) answer(true)
          else setLeaving({ ask: intent, answer })
        }),
    )
    withdrawGuard.current = withdraw
    return withdraw
  }, [registerLeaveGuard])

  // Reload, tab close, a typed address: the browser's own warning (it shows its own words).
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (released.current) return
      e.preventDefault()
      e.returnValue = ''
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [])

  const submit = useCallback(
    async (answers = toSubmission(drafts)) => {
      setConfirmSubmit(false)
      setSubmitting(true)
      setSubmitError(null)
      try {
        const result = await submitExam(examId, attempt.attemptId, answers, questionIds)
        saver.stop()
        release()
        try {
          sessionStorage.removeItem(marksKey(attempt.attemptId))
        } catch {
          // Storage blocked: no marks were kept to remove.
        }
        onSubmitted(result)
      } catch (err) {
        setSubmitError(errorMessage(err, SUBMIT_FAILED))
        setSubmitting(false)
      }
    },
    [drafts, examId, attempt.attemptId, questionIds, onSubmitted, release, saver],
  )

  // Time is up: submit what there is, once, whatever dialog is open.
  useEffect(() => {
    if (seconds > 0 || autoSubmitted.current || released.current) return
    autoSubmitted.current = true
    leaving?.answer(false)
    setLeaving(null)
    void submit()
  }, [seconds, submit, leaving])

  const goTo = (index: number) => {
    setCurrent(index)
    setView('question')
    setFocusKey((k) => k + 1)
  }
  const setDraft = (d: Draft) => {
    saver.changed()
    setDrafts((all) => all.map((x, i) => (i === current ? d : x)))
  }
  const stay = () => {
    leaving?.answer(false)
    setLeaving(null)
  }
  const leave = async () => {
    if (!leaving) return
    const { ask, answer } = leaving
    // What was answered in the last moment goes to the server before the page is left.
    await saver.flush()
    saver.stop()
    release()
    setLeaving(null)
    if (ask.kind === 'exit') onExit()
    else answer(true)
  }

  const states = questionStates(drafts, marked)
  const question = questions[current]!
  const last = current === questions.length - 1
  const answeredCount = states.filter((s) => s.answered).length
  const timeUp = seconds <= 0
  const finalAttempts = exam.exam_type === 'final' ? exam.max_attempts : null

  return (
    <div className="pk-stack pk-exam">
      <header className="pk-card pk-row pk-exam-bar">
        <div className="pk-grow-192 pk-min-w0">
          <h1 className="pk-m0 pk-fs-20">{exam.name}</h1>
          <p className="pk-muted pk-m0 pk-fs-14">
            {answeredCount} of {questions.length} answered
            {saver.state === 'offline' ? ' · not saved yet (connection problem), your answers are kept here' : ''}
          </p>
        </div>
        <Timer seconds={seconds} />
        <Button variant="secondary" onClick={() => setLeaving({ ask: { kind: 'exit' }, answer: () => {} })} disabled={submitting}>
          Exit
        </Button>
      </header>

      <div className="pk-exam-layout">
        {view === 'review' ? (
          <ReviewScreen
            states={states}
            submitting={submitting}
            error={submitError}
            onJump={goTo}
            onBack={() => goTo(current)}
            onSubmit={() => {
              if (!submitting) setConfirmSubmit(true)
            }}
          />
        ) : (
          <section className="pk-card pk-stack" aria-label="Current question">
            <QuestionView question={question} index={current} total={questions.length} draft={drafts[current] ?? null} onChange={setDraft} focusKey={focusKey} />
            <div className="pk-row pk-between">
              <Button variant="secondary" onClick={() => goTo(current - 1)} disabled={current === 0 || submitting}>
                Previous
              </Button>
              <Button variant="secondary" aria-pressed={marked.includes(current)} onClick={() => setMarked((m) => toggleMarked(m, current))} disabled={submitting}>
                Mark for Review
              </Button>
              {last ? (
                <Button onClick={() => setView('review')} disabled={submitting}>
                  Review and Submit
                </Button>
              ) : (
                <Button onClick={() => goTo(current + 1)} disabled={submitting}>
                  Next
                </Button>
              )}
            </div>
            {timeUp && submitting ? <Alert tone="info">Time is up. Submitting your answers...</Alert> : null}
            {submitError ? (
              <div className="pk-stack pk-gap-m">
                <Alert>{submitError}</Alert>
                <div>
                  <Button onClick={() => void submit()} disabled={submitting}>
                    Submit Exam
                  </Button>
                </div>
              </div>
            ) : null}
          </section>
        )}
        <QuestionPalette states={states} current={view === 'question' ? current : null} onJump={goTo} onReview={() => setView('review')} disabled={submitting} />
      </div>

      <ConfirmDialog
        open={confirmSubmit}
        title="Submit Exam?"
        confirmLabel="Submit Exam"
        cancelLabel="Keep Reviewing"
        busy={submitting}
        onCancel={() => setConfirmSubmit(false)}
        onConfirm={() => void submit()}
      >
        <div className="pk-stack pk-gap-m">
          {confirmSubmitText(states, { final: exam.exam_type === 'final', number: attempt.countedNumber ?? attempt.attemptNumber, allowed: exam.max_attempts }).map((line) => (
            <p key={line} className="pk-m0">
              {line}
            </p>
          ))}
        </div>
      </ConfirmDialog>
      <LeaveDialog
        ask={leaving?.ask ?? null}
        deadlineMs={attempt.deadlineMs}
        secondsLeft={seconds}
        unsaved={saver.state === 'offline'}
        attemptsAllowed={finalAttempts}
        onStay={stay}
        onLeave={() => void leave()}
      />
    </div>
  )
}
