import { todayIso, type TechnicianProfile } from '@portal/contracts'
import { Spinner, useAnnouncement } from '@portal/ui-kit'
import { lazy, Suspense } from 'react'
import { Notice } from '../shared/index.ts'
import { CertificationsSection } from './CertificationsSection.tsx'
import { ProfileHeader } from './ProfileHeader.tsx'
import { RevenueCards, TierProgressPanel, UpcomingExpirations } from './ProfileOverview.tsx'

// One's own trend and leaderboard (learner §1) load after the profile, in a chunk of their own.
const MyRevenue = lazy(() => import('./MyRevenue.tsx'))

/** The profile's sections; what the viewer may change comes from the answer's `permissions`. */
export const ProfileBody = ({ profile, isOwn, today = profile.as_of ?? todayIso() }: { profile: TechnicianProfile; isOwn: boolean; today?: string }) => {
  const [notice, announce] = useAnnouncement()
  const locked = isOwn && (profile.user.branch === null || profile.user.department === null)
  return (
    <>
      <Notice notice={notice} />
      <ProfileHeader profile={profile} canToggleNotifications={isOwn && profile.permissions.can_toggle_notifications} onNotificationsChanged={announce} />
      <RevenueCards data={profile.revenue_data} />
      {isOwn ? (
        <Suspense fallback={<Spinner label="Loading your revenue trend and leaderboard..." />}>
          <MyRevenue name={profile.user.name} />
        </Suspense>
      ) : null}
      <UpcomingExpirations profile={profile} today={today} />
      <TierProgressPanel profile={profile} />
      <CertificationsSection
        profile={profile}
        forOther={!isOwn}
        locked={locked}
        permissions={{ canEdit: profile.permissions.can_edit, canDeleteFiles: profile.permissions.can_delete_files }}
        announce={announce}
        today={today}
      />
    </>
  )
}
