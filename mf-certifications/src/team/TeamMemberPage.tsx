import { REMOTES, TEAM_MESSAGES, todayIso, type TeamMemberDetail } from '@portal/contracts'
import { ApiError, errorMessage, Spinner, useAnnouncement, usePageHeading, type RemoteProps } from '@portal/ui-kit'
import { RouteLink, exposed, Notice, LoadFailure } from '../shared/index.ts'
import { ProfileBody } from '../profile/index.ts'
import { useTeamMember } from './data/apiHooks.ts'
import { ManagerControls } from './ManagerControls.tsx'
import { MemberAssignments } from './MemberAssignments.tsx'
import { RevenueOverview } from './RevenueOverview.tsx'

/** The text of a member detail that could not be loaded (learner §8). */
export const memberLoadError = (error: unknown): string =>
  error instanceof ApiError && error.status === 404 ? errorMessage(error, TEAM_MESSAGES.memberNotFound) : errorMessage(error, TEAM_MESSAGES.loadMember)

/** Manager Controls, then the technician's profile as a manager sees it, their assignments (issue 24), then the revenue overview. */
export const TeamMemberBody = ({ detail, today = detail.profile.as_of ?? todayIso() }: { detail: TeamMemberDetail; today?: string }) => {
  const [notice, announce] = useAnnouncement()
  return (
    <>
      <Notice notice={notice} />
      <ManagerControls detail={detail} announce={announce} />
      <ProfileBody profile={detail.profile} isOwn={false} today={today} />
      <MemberAssignments name={detail.profile.user.name} assignments={detail.assignments} />
      <RevenueOverview detail={detail} thisMonth={today.slice(0, 7)} />
    </>
  )
}

/** mf_certifications/TeamMember: /manager/technician/{userId} (learner §2 Team member detail). */
const TeamMemberPage = ({ params, navigate }: RemoteProps) => {
  const userId = params.userId ?? ''
  const detail = useTeamMember(userId)
  const headingRef = usePageHeading(detail.data ? `Team Member: ${detail.data.profile.user.name}` : 'Team Member')
  return (
    <div className="pk-stack">
      <p className="pk-m0">
        <RouteLink to="/manager/dashboard" navigate={navigate}>
          Back to Team Dashboard
        </RouteLink>
      </p>
      <h1 ref={headingRef} tabIndex={-1}>
        {detail.data ? `Team Member: ${detail.data.profile.user.name}` : 'Team Member'}
      </h1>
      {detail.isPending ? (
        <Spinner label="Loading team member..." />
      ) : detail.isError ? (
        <LoadFailure error={detail.error} text={memberLoadError(detail.error)} onRetry={() => void detail.refetch()} />
      ) : (
        <TeamMemberBody detail={detail.data} />
      )}
    </div>
  )
}

export default exposed(TeamMemberPage)

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_certifications.version
