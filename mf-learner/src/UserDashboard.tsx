import type { User } from '@portal/contracts'
import { Button, EmptyState, ensureStyles, type RemoteProps } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { AvailableExamsCard, StatisticsCards, useRefreshOnReturn } from './exams/ExamCards.tsx'
import { CompleteProfileModal } from './profile/CompleteProfileModal.tsx'
import { needsProfile } from './profile/profile-form.ts'

ensureStyles()

const Dashboard = ({ user, onUserUpdated, navigate }: RemoteProps) => {
  const [dismissed, setDismissed] = useState(false)
  useRefreshOnReturn()
  const missingProfile = needsProfile(user)
  return (
    <div className="pk-stack">
      <h1>Welcome, {user.name}</h1>
      {missingProfile ? (
        <div className="pk-alert pk-alert--info pk-row" style={{ justifyContent: 'space-between' }}>
          <span>Certification features are locked until you choose your branch and department.</span>
          <Button size="small" onClick={() => setDismissed(false)}>
            Complete Profile
          </Button>
        </div>
      ) : null}
      <AvailableExamsCard navigate={navigate} />
      <StatisticsCards userId={user.id} />
      <section className="pk-card pk-stack" aria-labelledby="courses-title">
        <h2 id="courses-title">My Courses</h2>
        <EmptyState>No courses assigned yet</EmptyState>
      </section>
      <section className="pk-card pk-stack" aria-labelledby="certs-title">
        <h2 id="certs-title">Certification Tracking</h2>
        <EmptyState>Certification tracking is not available yet</EmptyState>
      </section>
      <CompleteProfileModal
        open={missingProfile && !dismissed}
        user={user}
        onSaved={(saved: User) => onUserUpdated(saved)}
        onDismiss={() => setDismissed(true)}
      />
    </div>
  )
}

/** mf_learner/UserDashboard: the learner's start page (this slice: welcome, profile, empty cards). */
const UserDashboard = (props: RemoteProps) => {
  // One cache per mount: signing out unmounts it, so no data leaks to the next user.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1 } } }))
  return (
    <QueryClientProvider client={client}>
      <Dashboard {...props} />
    </QueryClientProvider>
  )
}

export default UserDashboard
