import { useQuery } from '@tanstack/react-query'
import { DASHBOARD_KEY } from '../../dashboard-keys.ts'
import { fetchMyAssignments } from '../api.ts'

/** Query keys of the learner's assignments; under the dashboard's, so returning to the page or closing a course refreshes them. */
export const assignmentKeys = {
  mine: () => [...DASHBOARD_KEY, 'assignments', 'mine'] as const,
}

/**
 * The learner's assignments: the dashboard's "Due and overdue" and the due dates on My Courses and
 * Available Exams read the same query (one request).
 */
export const useMyAssignments = () => useQuery({ queryKey: assignmentKeys.mine(), queryFn: fetchMyAssignments, refetchOnWindowFocus: false })
