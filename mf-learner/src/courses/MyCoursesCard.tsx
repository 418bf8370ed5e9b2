import { DASHBOARD_SECTIONS, type CourseWithProgress } from '@portal/contracts'
import { Button, CardGrid, EmptyState, Spinner } from '@portal/ui-kit'
import { ItemDue } from '../assignments/index.ts'
import { NotLoaded } from '../LoadFailure.tsx'
import { useCoursesWithProgress } from './data/apiHooks.ts'
import { courseStatusLabel, moduleCountText, percent } from './course-view.ts'
import { ProgressBar } from './ProgressBar.tsx'

const BADGE_STYLE: Record<CourseWithProgress['status'], { background: string; color: string }> = {
  completed: { background: 'var(--c-success-bg)', color: 'var(--c-success)' },
  'in-progress': { background: '#fef3c7', color: '#92400e' },
  'not-started': { background: '#e5e7eb', color: '#374151' },
}

/** My Courses (learner §2): one card per assigned course, with its due date and state when an assignment rule gives it one (issue 24); View Course opens the viewer in place. */
export const MyCoursesCard = ({ onView }: { onView: (course: CourseWithProgress) => void }) => {
  const courses = useCoursesWithProgress()
  return (
    <section className="pk-card pk-stack" aria-labelledby="courses-title" id={DASHBOARD_SECTIONS.courses}>
      <h2 id="courses-title">My Courses</h2>
      {courses.isPending ? (
        <Spinner label="Loading courses..." />
      ) : courses.isError ? (
        <NotLoaded />
      ) : courses.data.length === 0 ? (
        <EmptyState>No courses assigned yet</EmptyState>
      ) : (
        <CardGrid as="ul">
          {courses.data.map((course) => {
            const titleId = `course-${course.id}-title`
            const progress = percent(course.progress)
            return (
              <li key={course.id} className="pk-stack pk-gap-m pk-border pk-rounded pk-pad" aria-labelledby={titleId}>
                <h3 id={titleId} className="pk-fs-17 pk-m0">
                  {course.title}
                </h3>
                <div className="pk-row pk-gap-m">
                  <span className="pk-badge" style={{ marginLeft: 0, ...BADGE_STYLE[course.status] }}>
                    {courseStatusLabel(course.status)}
                  </span>
                  <span className="pk-muted">{moduleCountText(course.modules.length)}</span>
                </div>
                <ItemDue kind="course" id={course.id} />
                {progress > 0 ? <ProgressBar value={progress} label={`${course.title} progress`} showText /> : null}
                <div>
                  <Button data-course-id={course.id} aria-describedby={titleId} onClick={() => onView(course)}>
                    View Course
                  </Button>
                </div>
              </li>
            )
          })}
        </CardGrid>
      )}
    </section>
  )
}
