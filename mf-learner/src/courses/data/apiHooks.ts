import { useQuery } from '@tanstack/react-query'
import { DASHBOARD_KEY } from '../../dashboard-keys.ts'
import { fetchCourseModules, fetchCoursesWithProgress } from '../api.ts'

/** Query keys of My Courses and the viewer; under the dashboard's, so returning to the page refreshes them (`refreshDashboard`). */
export const courseKeys = {
  all: [...DASHBOARD_KEY, 'courses'] as const,
  list: () => [...courseKeys.all, 'with-progress'] as const,
  modules: (courseId: number) => [...courseKeys.all, 'modules', courseId] as const,
}

/** The learner's courses with their progress (My Courses, Continue where you left off). */
export const useCoursesWithProgress = () => useQuery({ queryKey: courseKeys.list(), queryFn: fetchCoursesWithProgress, refetchOnWindowFocus: false })

/** A course's modules with the learner's progress (the viewer). */
export const useCourseModules = (courseId: number) =>
  useQuery({
    queryKey: courseKeys.modules(courseId),
    queryFn: () => fetchCourseModules(courseId),
    enabled: Number.isInteger(courseId) && courseId > 0,
    refetchOnWindowFocus: false,
  })
