/** What other features use of the projection of learning's assignments (issue 24). */
export { createAssignmentHandler, subscribeAssignments, ASSIGNMENTS_CONSUMER } from './assignment.consumer.ts'
export { assignmentRepository, type AssignmentRow } from './assignment.repository.ts'
export { personAssignments, toPersonAssignment } from './person-assignment.ts'
