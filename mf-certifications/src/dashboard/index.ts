// The dashboard feature's public face: the query keys of the cards. The cards themselves are
// exposed as mf_certifications/DashboardCards and mf_certifications/AdminCertificationsTab.
export { dashboardKeys } from './data/apiHooks.ts'
