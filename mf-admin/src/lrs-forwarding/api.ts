import { LrsForwarding, LrsTestResult, type LrsForwardingInput } from '@portal/contracts'
import { api } from '@portal/ui-kit'

export const fetchLrsForwarding = () => api.get('/admin/lrs-forwarding', LrsForwarding)
export const saveLrsForwarding = (input: LrsForwardingInput) => api.put('/admin/lrs-forwarding', input, LrsForwarding)
export const testLrsForwarding = () => api.post('/admin/lrs-forwarding/test', undefined, LrsTestResult)
