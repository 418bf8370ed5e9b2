import { MyAssignments } from '@portal/contracts'
import { api } from '@portal/ui-kit'

/** GET /assignments/mine: the learner's assignments with their state on the company's today (issue 24). */
export const fetchMyAssignments = () => api.get('/assignments/mine', MyAssignments)
