import { todayIso, type TechnicianProfile } from '@portal/contracts'
import { useAnnouncement } from '@portal/ui-kit'
import { Notice } from '../shared/index.ts'
import { CertificationsSection } from './CertificationsSection.tsx'
import { ProfileHeader } from './ProfileHeader.tsx'
import { RevenueCards, TierProgressPanel, UpcomingExpirations } from './ProfileOverview.tsx'

/** The profile's sections; what the viewer may change comes from the answer's `permissions`. */
export const ProfileBody = ({ profile, isOwn, today = profile.as_of ?? todayIso() }: { profile: TechnicianProfile; isOwn: boolean; today?: string }) => {
  const [notice, announce] = useAnnouncement()
  const locked = isOwn && (profile.user.branch === null || profile.user.department === null)
  return (
    <>
      <Notice notice={notice} />
      <ProfileHeader profile={profile} canToggleNotifications={isOwn && profile.permissions.can_toggle_notifications} onNotificationsChanged={announce} />
      <RevenueCards data={profile.revenue_data} />
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
