import { EmptyState, Spinner, ensureStyles, type RemoteProps } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Suspense, lazy, useRef, useState, type KeyboardEvent } from 'react'
import { ExamsTab } from './exams/ExamsTab.tsx'
import { ADMIN_TABS, tabAfterKey, tabId, type AdminTab } from './tabs.ts'
import { ensureAdminStyles } from './styles.ts'

ensureStyles()
ensureAdminStyles()

// The first screen is the Exams tab: the others load when opened (the admin's first load stays small).
const CoursesTab = lazy(() => import(/* webpackChunkName: "courses-tab" */ './courses/CoursesTab.tsx').then((m) => ({ default: m.CoursesTab })))
const UsersTab = lazy(() => import(/* webpackChunkName: "users-tab" */ './users/UsersTab.tsx').then((m) => ({ default: m.UsersTab })))
const GroupsTab = lazy(() => import(/* webpackChunkName: "groups-tab" */ './groups/GroupsTab.tsx').then((m) => ({ default: m.GroupsTab })))

const NotYet = ({ what }: { what: string }) => <EmptyState>{what} is not available yet.</EmptyState>

const Panel = ({ tab, user }: { tab: AdminTab; user: RemoteProps['user'] }) => {
  switch (tab) {
    case 'Users':
      return <UsersTab currentUserId={user.id} />
    case 'Groups':
      return <GroupsTab />
    case 'Email Settings':
      return (
        <div className="pk-stack">
          <h2>Email Settings</h2>
          <NotYet what="Managing global admin emails" />
          <p className="pk-muted">Group-specific emails are configured in the Groups tab.</p>
        </div>
      )
    case 'Exams':
      return <ExamsTab />
    case 'Courses':
      return <CoursesTab />
    case 'Certifications':
      return <NotYet what="Certification management" />
  }
}

const Dashboard = ({ user }: RemoteProps) => {
  const [tab, setTab] = useState<AdminTab>('Exams')
  const tabRefs = useRef(new Map<AdminTab, HTMLButtonElement>())
  const onKeyDown = (e: KeyboardEvent) => {
    const next = tabAfterKey(tab, e.key)
    if (!next) return
    e.preventDefault()
    setTab(next)
    tabRefs.current.get(next)?.focus()
  }
  return (
    <div className="pk-stack">
      <h1>Admin Dashboard</h1>
      <div role="tablist" aria-label="Admin sections" className="pk-tabs" onKeyDown={onKeyDown}>
        {ADMIN_TABS.map((t) => (
          <button
            key={t}
            ref={(el) => {
              if (el) tabRefs.current.set(t, el)
            }}
            type="button"
            role="tab"
            id={tabId(t)}
            className="pk-tab"
            aria-selected={tab === t}
            aria-controls={`${tabId(t)}-panel`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => setTab(t)}
          >
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${tabId(tab)}-panel`} aria-labelledby={tabId(tab)} className="pk-card" tabIndex={0}>
        <Suspense fallback={<Spinner label={`Loading ${tab}...`} />}>
          <Panel tab={tab} user={user} />
        </Suspense>
      </div>
    </div>
  )
}

/** mf_admin/AdminDashboard: the admin tabs (this slice: Users and Groups work). */
const AdminDashboard = (props: RemoteProps) => {
  // One cache per mount: signing out unmounts it, so no data leaks to the next user.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1 } } }))
  return (
    <QueryClientProvider client={client}>
      <Dashboard {...props} />
    </QueryClientProvider>
  )
}

export default AdminDashboard
