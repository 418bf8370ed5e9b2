import type { User } from '@portal/contracts'
import { Alert, Button, DataTable, EmptyState, errorMessage, formatDate, Modal, Spinner } from '@portal/ui-kit'
import { Cmi5UnitsSection } from '../../cmi5-units/index.ts'
import { useRefreshUserStats, useUserStats } from '../data/apiHooks.ts'
import { courseProgressBadge, percentOf, scoreBadge, type Tone } from './user-stats-view.ts'

const Badge = ({ tone, children }: { tone: Tone; children: string }) => <span className={`pk-tone pk-tone--${tone}`}>{children}</span>

/** One figure; null is a figure there is no data for yet, shown as "—" and read as "No data yet" (the dashboard's wording). */
const Figure = ({ label, value }: { label: string; value: string | null }) => (
  <div className="pk-figure">
    <dt>{label}</dt>
    <dd>
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

/** The user statistics dialog (admin §2, §3): totals, score range, exam and course history with badges (§4). */
export const UserStatsDialog = ({ user, onClose }: { user: User; onClose: () => void }) => {
  const stats = useUserStats(user.id)
  const s = stats.data
  const refreshStats = useRefreshUserStats(user.id)
  return (
    <Modal open title={`User Statistics: ${user.name}`} onClose={onClose}>
      <div className="pk-stack pk-wide">
        {stats.isPending ? <Spinner label="Loading statistics..." /> : null}
        {stats.isError ? <Alert>{errorMessage(stats.error, 'Failed to fetch user statistics')}</Alert> : null}
        {s ? (
          <>
            <dl className="pk-figures" aria-label="Summary">
              <Figure label="Exams Taken" value={String(s.examsTaken)} />
              <Figure label="Average Score" value={percentOf(s.averageScore, s.examsTaken)} />
              <Figure label="Highest Score" value={percentOf(s.highestScore, s.examsTaken)} />
              <Figure label="Lowest Score" value={percentOf(s.lowestScore, s.examsTaken)} />
              <Figure label="Courses Started" value={String(s.coursesStarted)} />
              <Figure label="Courses Completed" value={String(s.coursesCompleted)} />
              <Figure label="Average Course Progress" value={percentOf(s.averageCourseProgress, s.coursesStarted)} />
            </dl>
            <h3>Exam History</h3>
            {s.examHistory.length === 0 ? (
              <EmptyState>No exams taken yet</EmptyState>
            ) : (
              <DataTable>
                <caption className="pk-visually-hidden">Exam history</caption>
                <thead>
                  <tr>
                    <th scope="col">Exam</th>
                    <th scope="col">Score</th>
                    <th scope="col">Completed</th>
                  </tr>
                </thead>
                <tbody>
                  {s.examHistory.map((e, i) => {
                    const badge = scoreBadge(e.score)
                    return (
                      <tr key={`${e.examId}-${i}`}>
                        <td>{e.examName}</td>
                        <td>
                          <Badge tone={badge.tone}>{badge.label}</Badge> {e.passed ? 'Passed' : 'Failed'}
                        </td>
                        <td>{formatDate(e.completedAt)}</td>
                      </tr>
                    )
                  })}
                </tbody>
              </DataTable>
            )}
            <h3>Course History</h3>
            {s.courseHistory.length === 0 ? (
              <EmptyState>No courses yet</EmptyState>
            ) : (
              <DataTable>
                <caption className="pk-visually-hidden">Course history</caption>
                <thead>
                  <tr>
                    <th scope="col">Course</th>
                    <th scope="col">Progress</th>
                    <th scope="col">Completed</th>
                    <th scope="col">Last Accessed</th>
                  </tr>
                </thead>
                <tbody>
                  {s.courseHistory.map((c) => {
                    const badge = courseProgressBadge(c)
                    return (
                      <tr key={c.courseId}>
                        <td>{c.courseName}</td>
                        <td>
                          <Badge tone={badge.tone}>{badge.label}</Badge>
                        </td>
                        <td>{formatDate(c.completedAt)}</td>
                        <td>{formatDate(c.lastAccessed)}</td>
                      </tr>
                    )
                  })}
                </tbody>
              </DataTable>
            )}
          </>
        ) : null}
        {/* A waiver may complete a module or the course: the figures above are fetched again. */}
        <Cmi5UnitsSection learner={user} onWaived={() => void refreshStats()} />
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    </Modal>
  )
}
