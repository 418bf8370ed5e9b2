// Training that is due (issue 24, decision 0051): admins' assignment rules over learning's users
// projection, each person's current cycle (migration 0013), the completions that close it, and the
// learner's own list; recurring training retaken when its next cycle opens (migration 0014).
export { adminAssignmentRuleRoutes, myAssignmentRoutes } from './assignment.routes.ts'
export { createAssignmentService, type AssignmentService } from './assignment.service.ts'
export { recordItemCompletion, deleteRulesOfItem, type ItemCompletion } from './completion.ts'
export { applyRulesToUser, removeDeletedUser, usersKeptByRules, keepAccessOfRules, type Calendar } from './materialize.ts'
export { audienceLabel, audienceMatches } from './audience.ts'
export { rollForwardOpenedCycles, openRetakes, type RetakeResult, type RetakeScope } from './retake.ts'
