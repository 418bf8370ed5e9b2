import { remoteConfig } from '@portal/build-kit'

export default remoteConfig({
  dir: import.meta.dirname,
  name: 'mf_certifications',
  exposes: {
    './TechnicianProfile': './src/profile/TechnicianProfilePage.tsx',
    './CertificationManagement': './src/admin/CertificationManagementPage.tsx',
    './DashboardCards': './src/dashboard/DashboardCards.tsx',
    './AdminCertificationsTab': './src/dashboard/AdminCertificationsTab.tsx',
    './CertificationNotifications': './src/notifications/NotificationManagementPage.tsx',
  },
})
