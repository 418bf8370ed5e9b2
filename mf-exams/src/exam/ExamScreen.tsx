import { Alert, ApiError, Button, Spinner, errorMessage, type RemoteProps } from '@portal/ui-kit'
import { useCallback, useEffect, useState } from 'react'
import { dashboardPath } from '../dashboard-path.ts'
import { startAttempt } from './api.ts'
import { useExamIntro } from './data/apiHooks.ts'
import { Intro } from './Intro.tsx'
import { Taking, type Attempt } from './Taking.tsx'
import { localDeadline } from './timer.ts'

const LOAD_FAILED = 'Failed to load exam. Please try again.'
const NO_QUESTIONS = 'Cannot start exam: no questions available'

const loadError = (err: unknown) => (err instanceof ApiError && err.status === 404 ? errorMessage(err, 'Exam not found') : errorMessage(err, LOAD_FAILED))

/** The exam screen: load → intro (Start, or Resume an attempt under way) → started → submitted (then the results screen). */
export const ExamScreen = ({
  user,
  navigate,
  params,
  registerLeaveGuard,
  announcePage,
}: Pick<RemoteProps, 'user' | 'navigate' | 'params' | 'registerLeaveGuard' | 'announcePage'>) => {
  const id = params.id ?? ''
  const home = dashboardPath(user.is_admin)
  const exam = useExamIntro(id)
  const [attempt, setAttempt] = useState<Attempt | null>(null)
  const [starting, setStarting] = useState(false)
  const [startError, setStartError] = useState<string | null>(null)

  const start = async () => {
    if (starting) return
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

  // The intro and the running exam are views of one route: each is announced with the exam's name.
  const name = exam.data?.name
  const started = attempt !== null
  useEffect(() => {
    if (name) announcePage?.(started ? `${name} (in progress)` : name)
  }, [announcePage, name, started])

  const onSubmitted = useCallback((result: unknown) => navigate('/exam-results', { state: { result } }), [navigate])
  // The attempt's time ran out on the intro: the server grades it; the intro offers a new start.
  const onAttemptOver = useCallback(() => void exam.refetch(), [exam.refetch])

  if (exam.isPending) return <Spinner label="Loading exam..." />
  if (exam.isError)
    return (
      <section className="pk-card pk-stack pk-max-w640 pk-mx-auto pk-w-full">
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
      <Intro
        exam={exam.data}
        receivedAt={exam.dataUpdatedAt}
        starting={starting}
        error={startError}
        onStart={() => void start()}
        onCancel={() => navigate(home)}
        onAttemptOver={onAttemptOver}
      />
    )
  return <Taking exam={exam.data} attempt={attempt} examId={id} registerLeaveGuard={registerLeaveGuard} onExit={() => navigate(home)} onSubmitted={onSubmitted} />
}
