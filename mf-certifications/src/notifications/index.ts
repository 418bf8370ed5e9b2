// The notifications feature's public face: the query keys of Certification Notification
// Management. The page itself is exposed as mf_certifications/CertificationNotifications.
export { notificationKeys } from './data/apiHooks.ts'
