import { DASHBOARD_SECTIONS } from '@portal/contracts'
import { Button, CardGrid, EmptyState, Spinner } from '@portal/ui-kit'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, type CSSProperties, type ReactNode } from 'react'
import { ItemDue } from '../assignments/index.ts'
import { refreshDashboard } from '../dashboard-keys.ts'
import { NotLoaded } from '../LoadFailure.tsx'
import { useAvailableExams, useUserStats } from './data/apiHooks.ts'
import { attemptsText, attemptsUsedUp, openAttemptText, statText } from './exam-cards.ts'

/** The dashboard refreshes when the window regains focus and when the page becomes visible (learner §2). */
export const useRefreshOnReturn = () => {
  const queryClient = useQueryClient()
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'visible') void refreshDashboard(queryClient)
    }
    window.addEventListener('focus', refresh)
    document.addEventListener('visibilitychange', refresh)
    return () => {
      window.removeEventListener('focus', refresh)
      document.removeEventListener('visibilitychange', refresh)
    }
  }, [queryClient])
}

/** Available Exams: what the learner may take, with its due date and state when an assignment rule gives it one (issue 24), and Start Exam. */
export const AvailableExamsCard = ({ navigate }: { navigate: (to: string) => void }) => {
  const exams = useAvailableExams()
  return (
    <section className="pk-card pk-stack" aria-labelledby="exams-title" id={DASHBOARD_SECTIONS.exams}>
      <h2 id="exams-title">Available Exams</h2>
      {exams.isPending ? (
        <Spinner label="Loading exams..." />
      ) : exams.isError ? (
        <NotLoaded />
      ) : exams.data.length === 0 ? (
        <EmptyState>No exams assigned yet</EmptyState>
      ) : (
        <CardGrid as="ul">
          {exams.data.map((exam) => {
            const attempts = attemptsText(exam)
            const usedUp = attemptsUsedUp(exam)
            const underWay = openAttemptText(exam)
            const nameId = `exam-${exam.id}-name`
            return (
              <li key={exam.id} className="pk-stack pk-gap-m pk-border pk-rounded pk-pad">
                <h3 id={nameId} className="pk-fs-17 pk-m0">
                  {exam.name}
                  {exam.exam_type === 'final' ? <span className="pk-badge">Final</span> : <span className="pk-badge">Practice</span>}
                </h3>
                <p className="pk-muted pk-m0">
                  {exam.time_limit} minutes · {exam.total_questions} questions · pass {exam.pass_score}%
                </p>
                <ItemDue kind="exam" id={exam.id} />
                {attempts ? <p className="pk-m0">{attempts}</p> : null}
                {underWay ? <p className="pk-m0 pk-fw-semibold">{underWay}</p> : null}
                <div>
                  <Button aria-describedby={nameId} disabled={usedUp} onClick={() => navigate(`/exam/${exam.id}`)}>
                    {underWay ? 'Resume Exam' : 'Start Exam'}
                  </Button>
                  {usedUp ? <p className="pk-muted pk-mt-xs">No attempts left</p> : null}
                </div>
              </li>
            )
          })}
        </CardGrid>
      )}
    </section>
  )
}

/** One figure; null is a figure there is no data for yet, shown as "—" (and read as "No data yet"). */
const Stat = ({ label, value }: { label: string; value: string | number | null }) => (
  <div className="pk-border pk-rounded-sm pk-pad-xs">
    <dt className="pk-muted pk-fs-13 pk-fw-semibold">{label}</dt>
    <dd className="pk-m0 pk-fs-20 pk-fw-bold">
      {value === null ? (
        <>
          <span aria-hidden="true">—</span>
          <span className="pk-visually-hidden">No data yet</span>
        </>
      ) : (
        value
      )}
    </dd>
  </div>
)

/** A card's figures, in rows that end together (see styles.ts). */
const Tiles = ({ children }: { children: ReactNode[] }) => (
  <dl className="pk-stat-tiles" data-tiles={children.length} style={{ '--pk-tiles': children.length } as CSSProperties}>
    {children}
  </dl>
)

/** Exam Statistics and Course Statistics from GET /users/{me}/stats: two cards of the dashboard's grid. */
export const StatisticsCards = ({ userId }: { userId: string }) => {
  const stats = useUserStats(userId)
  const body = (render: (s: NonNullable<typeof stats.data>) => ReactNode) =>
    stats.isPending ? <Spinner label="Loading statistics..." /> : stats.isError ? <NotLoaded /> : render(stats.data)
  return (
    <>
      <section className="pk-card pk-stack pk-stat-card" aria-labelledby="exam-stats-title">
        <h2 id="exam-stats-title">Exam Statistics</h2>
        {body((s) => (
          <Tiles>
            {[
              <Stat key="taken" label="Exams Taken" value={s.examsTaken} />,
              <Stat key="average" label="Average Score" value={statText(s.averageScore, s.examsTaken)} />,
              <Stat key="highest" label="Highest Score" value={statText(s.highestScore, s.examsTaken)} />,
              <Stat key="lowest" label="Lowest Score" value={statText(s.lowestScore, s.examsTaken)} />,
            ]}
          </Tiles>
        ))}
      </section>
      <section className="pk-card pk-stack pk-stat-card" aria-labelledby="course-stats-title">
        <h2 id="course-stats-title">Course Statistics</h2>
        {body((s) => (
          <Tiles>
            {[
              <Stat key="started" label="Courses Started" value={s.coursesStarted} />,
              <Stat key="completed" label="Courses Completed" value={s.coursesCompleted} />,
              <Stat key="progress" label="Average Progress" value={statText(s.averageCourseProgress, s.coursesStarted)} />,
            ]}
          </Tiles>
        ))}
      </section>
    </>
  )
}
