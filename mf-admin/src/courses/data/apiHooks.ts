import type { Course } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createCourse, deleteCourse, fetchAdminCourses, updateCourse, type UploadControls } from '../api.ts'
import { anyProcessing, anyUnchecked } from '../course-table.ts'

/** Query keys of the admin courses feature. */
export const courseKeys = {
  all: ['admin-courses'] as const,
  list: () => [...courseKeys.all, 'list'] as const,
}

/** While a SCORM package is being processed the Courses tab's list is fetched again this often. */
const PROCESSING_POLL_MS = 3_000
/** While a stored package is still to be checked for a Captivate project (stored before the check), this often. */
const CHECK_POLL_MS = 10_000

/** Every course (the courses a group's report may track). */
export const useAdminCourses = () => useQuery({ queryKey: courseKeys.list(), queryFn: fetchAdminCourses })

/**
 * Every course, for the Courses tab: a package being processed turns ready (or failed) by itself,
 * and one stored before the Captivate check is checked in the background, so it polls until none is left.
 */
export const useCoursesTabList = () =>
  useQuery({
    queryKey: courseKeys.list(),
    queryFn: fetchAdminCourses,
    refetchInterval: (query) => (anyProcessing(query.state.data) ? PROCESSING_POLL_MS : anyUnchecked(query.state.data) ? CHECK_POLL_MS : false),
  })

/** Fetches the courses again (after a save, a delete or an assignment). */
export const useRefreshCourses = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: courseKeys.all })
}

/** Puts a course just saved in the list at once (replacing it, or added when new), then fetches the courses again. */
export const useShowSavedCourse = () => {
  const queryClient = useQueryClient()
  return (saved: Course, updated: boolean) => {
    queryClient.setQueryData<Course[]>(courseKeys.list(), (list) => (list ? (updated ? list.map((c) => (c.id === saved.id ? saved : c)) : [...list, saved]) : list))
    return queryClient.invalidateQueries({ queryKey: courseKeys.all })
  }
}

/**
 * Uploads the course form: updates `course`, or creates one when it is null. Each upload first asks
 * for its `controls` (progress and Cancel Upload), then for the `form` to send.
 */
export const useSaveCourse = (
  course: Course | null,
  on: { controls: () => UploadControls; form: () => FormData; onSuccess: (saved: Course) => void; onError: () => void; onSettled: () => void },
) =>
  useMutation({
    mutationFn: () => {
      const controls = on.controls()
      return course ? updateCourse(course.id, on.form(), controls) : createCourse(on.form(), controls)
    },
    onSuccess: on.onSuccess,
    onError: on.onError,
    onSettled: on.onSettled,
  })

/** Deletes a course; `onDeleted` runs before the courses are fetched again. */
export const useDeleteCourse = (onDeleted: (id: number) => void) => {
  const refresh = useRefreshCourses()
  return useMutation({
    mutationFn: deleteCourse,
    onSuccess: async (_, id) => {
      onDeleted(id)
      await refresh()
    },
  })
}
