import { REMOTES } from '@portal/contracts'
import { RemoteSlot, Spinner, Tabs, ensureStyles, type RemoteProps } from '@portal/ui-kit'
import { QueryClientProvider } from '@tanstack/react-query'
import { Suspense, lazy, useState } from 'react'
import { ExamsTab } from './exams/index.ts'
import { ADMIN_TABS, tabId, type AdminTab } from './tabs.ts'
import { createAdminQueryClient } from './query-client.ts'
import { ensureAdminStyles } from './styles.ts'

ensureStyles()
ensureAdminStyles()

// The first screen is the Exams tab: the others load when opened (the admin's first load stays small).
const CoursesTab = lazy(() => import(/* webpackChunkName: "courses-tab" */ './courses/CoursesTab.tsx').then((m) => ({ default: m.CoursesTab })))
const UsersTab = lazy(() => import(/* webpackChunkName: "users-tab" */ './users/UsersTab.tsx').then((m) => ({ default: m.UsersTab })))
const EmailSettingsTab = lazy(() => import(/* webpackChunkName: "email-settings-tab" */ './email-settings/EmailSettingsTab.tsx').then((m) => ({ default: m.EmailSettingsTab })))
const AuditTrailTab = lazy(() => import(/* webpackChunkName: "audit-trail-tab" */ './audit/AuditTrailTab.tsx').then((m) => ({ default: m.AuditTrailTab })))
const AssignmentsTab = lazy(() => import(/* webpackChunkName: "assignments-tab" */ './assignments/AssignmentsTab.tsx').then((m) => ({ default: m.AssignmentsTab })))
const SignInTab = lazy(() => import(/* webpackChunkName: "sign-in-tab" */ './sign-in/SignInTab.tsx').then((m) => ({ default: m.SignInTab })))
const GroupsTab = lazy(() => import(/* webpackChunkName: "groups-tab" */ './groups/GroupsTab.tsx').then((m) => ({ default: m.GroupsTab })))

const Panel = ({ tab, remote }: { tab: AdminTab; remote: RemoteProps }) => {
  const { user } = remote
  switch (tab) {
    case 'Users':
      return <UsersTab currentUserId={user.id} />
    case 'Groups':
      return <GroupsTab />
    case 'Email Settings':
      return <EmailSettingsTab />
    case 'Exams':
      return <ExamsTab />
    case 'Courses':
      return <CoursesTab />
    case 'Assignments':
      return <AssignmentsTab />
    case 'Sign-in':
      return <SignInTab />
    case 'Audit Trail':
      return <AuditTrailTab navigate={remote.navigate} />
    case 'Certifications':
      // The certification slice's own tab (admin §2 cards), loaded at run time.
      return <RemoteSlot id="mf_certifications/AdminCertificationsTab" {...remote} loadingLabel="Loading certifications..." />
  }
}

const Dashboard = (remote: RemoteProps) => {
  const [tab, setTab] = useState<AdminTab>('Exams')
  return (
    <div className="pk-stack">
      <h1>Admin Dashboard</h1>
      <Tabs label="Admin sections" tabs={ADMIN_TABS} selected={tab} onSelect={setTab} idOf={tabId} panelClassName="pk-card">
        <Suspense fallback={<Spinner label={`Loading ${tab}...`} />}>
          <Panel tab={tab} remote={remote} />
        </Suspense>
      </Tabs>
    </div>
  )
}

/** mf_admin/AdminDashboard: the admin tabs (this slice: Users and Groups work). */
const AdminDashboard = (props: RemoteProps) => {
  const [client] = useState(createAdminQueryClient)
  return (
    <QueryClientProvider client={client}>
      <Dashboard {...props} />
    </QueryClientProvider>
  )
}

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_admin.version

export default AdminDashboard
