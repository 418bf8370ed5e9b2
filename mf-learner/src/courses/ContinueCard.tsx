import type { CourseWithProgress } from '@portal/contracts'
import { Button } from '@portal/ui-kit'
import { useCoursesWithProgress } from './data/apiHooks.ts'
import { courseToContinue, percent } from './course-view.ts'
import { ProgressBar } from './ProgressBar.tsx'

/**
 * The learner home's lead (issue 15 item 5): the course under way the learner worked on last, one
 * button away. Shows nothing while My Courses (the same query) loads, fails or has none under way.
 */
export const ContinueCard = ({ onView }: { onView: (course: CourseWithProgress) => void }) => {
  const courses = useCoursesWithProgress()
  const course = courses.data ? courseToContinue(courses.data) : null
  if (!course) return null
  const titleId = `continue-${course.id}-title`
  return (
    <section className="pk-card pk-stack pk-gap-l" aria-labelledby="continue-title">
      <h2 id="continue-title">Continue where you left off</h2>
      <p id={titleId} className="pk-m0 pk-fw-semibold pk-fs-17">
        {course.title}
      </p>
      <ProgressBar value={percent(course.progress)} label={`${course.title} progress`} showText />
      <div>
        <Button data-continue-course-id={course.id} aria-describedby={titleId} onClick={() => onView(course)}>
          Continue Course
        </Button>
      </div>
    </section>
  )
}
