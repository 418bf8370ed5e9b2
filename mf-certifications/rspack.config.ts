import { remoteConfig } from '@portal/build-kit'

export default remoteConfig({
  dir: import.meta.dirname,
  name: 'mf_certifications',
  exposes: {
    './TechnicianProfile': './src/profile/TechnicianProfilePage.tsx',
    './CertificationManagement': './src/admin/CertificationManagementPage.tsx',
    './DashboardCards': './src/dashboard/DashboardCards.tsx',
    './AdminCertificationsTab': './src/dashboard/AdminCertificationsTab.tsx',
    './TeamDashboard': './src/team/TeamDashboardPage.tsx',
    './TeamMember': './src/team/TeamMemberPage.tsx',
    './RevenueEntry': './src/revenue/RevenueEntryPage.tsx',
    './CertificationNotifications': './src/notifications/NotificationManagementPage.tsx',
  },
})
