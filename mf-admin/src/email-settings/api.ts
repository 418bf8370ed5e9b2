import { AdminEmail, AdminEmailsResponse, MessageResponse, type AdminEmailInput } from '@portal/contracts'
import { api } from '@portal/ui-kit'

const path = (id: number) => `/admin/emails/${id}`

export const fetchAdminEmails = () => api.get('/admin/emails', AdminEmailsResponse)
export const addAdminEmail = (input: AdminEmailInput) => api.post('/admin/emails', input, AdminEmail)
export const updateAdminEmail = (id: number, input: AdminEmailInput) => api.put(path(id), input, AdminEmail)
export const toggleAdminEmail = (id: number) => api.patch(`${path(id)}/toggle`, undefined, AdminEmail)
export const deleteAdminEmail = (id: number) => api.delete(path(id), MessageResponse)
