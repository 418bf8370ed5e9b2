import {
  AvailableCertificationsResponse,
  NOTIFICATION_PAUSE_DAYS,
  NotificationsStateResponse,
  TechnicianProfile,
  UserCertificationResponse,
  type AddCertificationBody,
} from '@portal/contracts'
import { api } from '@portal/ui-kit'
import { apiPath, downloadPath } from '../shared/index.ts'

const enc = encodeURIComponent

export const fetchProfile = (userId: string) => api.get(`/technician/profile/${enc(userId)}`, TechnicianProfile)
export const fetchAvailable = (userId: string) => api.get(`/technician/certifications/available/${enc(userId)}`, AvailableCertificationsResponse).then((r) => r.certifications)
export const addCertification = (body: AddCertificationBody) => api.post('/technician/certifications/add', body, UserCertificationResponse)
export const deleteCertification = (id: number) => api.delete(`/technician/certifications/${id}`)
export const deleteProof = (id: number) => api.delete(`/technician/certifications/${id}/file`)

/** The end of a pause that starts now (learner §4: 30 days). */
export const pauseEnd = (now: Date): string => new Date(now.getTime() + NOTIFICATION_PAUSE_DAYS * 86_400_000).toISOString()
export const pauseNotifications = (userId: string, now = new Date()) =>
  api.post('/technician/pause-notifications', { userId, pauseUntil: pauseEnd(now) }, NotificationsStateResponse)
export const resumeNotifications = (userId: string) => api.post('/technician/resume-notifications', { userId }, NotificationsStateResponse)

/** The proof file, to show inline or (`download`) to save under its original name. */
export const fetchProof = (filePath: string, download = false) => api.getFile(download ? downloadPath(filePath) : apiPath(filePath))
