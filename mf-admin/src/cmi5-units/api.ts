import { Cmi5Status, type Cmi5WaiveBody } from '@portal/contracts'
import { api } from '@portal/ui-kit'

const modulePath = (moduleId: number) => `/cmi5/${encodeURIComponent(String(moduleId))}`

/** GET /cmi5/{moduleId}/status?user_id=: one learner's AU statuses (admins). */
export const fetchLearnerCmi5Status = (moduleId: number, userId: string) => api.get(`${modulePath(moduleId)}/status?user_id=${encodeURIComponent(userId)}`, Cmi5Status)

/** POST /cmi5/{moduleId}/waive: the AU counts as done for the learner; the answer is their statuses after. */
export const waiveCmi5Au = (moduleId: number, body: Cmi5WaiveBody) => api.post(`${modulePath(moduleId)}/waive`, body, Cmi5Status)
