import { useQuery } from '@tanstack/react-query'
import { DASHBOARD_KEY } from '../../dashboard-keys.ts'
import { fetchCourseModules, fetchCoursesWithProgress } from '../api.ts'
import { CMI5_STATUS_POLL_MS, fetchCmi5Status } from '../cmi5.ts'

/** Query keys of My Courses and the viewer; under the dashboard's, so returning to the page refreshes them (`refreshDashboard`). */
export const courseKeys = {
  all: [...DASHBOARD_KEY, 'courses'] as const,
  list: () => [...courseKeys.all, 'with-progress'] as const,
  modules: (courseId: number) => [...courseKeys.all, 'modules', courseId] as const,
  /** A cmi5 module's AU statuses (the viewer's unit list). */
  cmi5Status: (moduleId: number) => [...courseKeys.all, 'cmi5-status', moduleId] as const,
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

/**
 * A cmi5 module's AU statuses: asked again on window focus (the learner coming back from an AU's
 * window), and every `CMI5_STATUS_POLL_MS` while an AU is open (`polling`).
 */
export const useCmi5Status = (moduleId: number, polling: boolean) =>
  useQuery({
    queryKey: courseKeys.cmi5Status(moduleId),
    queryFn: () => fetchCmi5Status(moduleId),
    refetchInterval: polling ? CMI5_STATUS_POLL_MS : false,
    refetchOnWindowFocus: 'always',
  })
