import { REMOTES, CERT_MESSAGES } from '@portal/contracts'
import { ApiError, errorMessage, Spinner, usePageHeading, type RemoteProps } from '@portal/ui-kit'
import { exposed, LoadFailure } from '../shared/index.ts'
import { useProfile } from './data/apiHooks.ts'
import { ProfileBody } from './ProfileBody.tsx'

/** The text of a profile that could not be loaded (learner §8). */
export const profileLoadError = (error: unknown): string =>
  error instanceof ApiError && error.status === 404 ? errorMessage(error, CERT_MESSAGES.profileNotFound) : errorMessage(error, CERT_MESSAGES.loadProfile)

/**
 * mf_certifications/TechnicianProfile: /technician/profile (one's own) and /admin/technician/{userId}
 * (the shell lets only admins there; the service decides what anyone may read).
 */
const TechnicianProfilePage = ({ user, params }: RemoteProps) => {
  const userId = params.userId ?? user.id
  const isOwn = userId === user.id
  const profile = useProfile(userId)
  const title = isOwn ? 'My Technician Profile' : profile.data ? `Technician Profile: ${profile.data.user.name}` : 'Technician Profile'
  const headingRef = usePageHeading(title)
  return (
    <div className="pk-stack">
      <h1 ref={headingRef} tabIndex={-1}>
        {isOwn ? 'My Technician Profile' : 'Technician Profile'}
      </h1>
      {profile.isPending ? (
        <Spinner label="Loading profile..." />
      ) : profile.isError ? (
        <LoadFailure error={profile.error} text={profileLoadError(profile.error)} onRetry={() => void profile.refetch()} />
      ) : (
        <ProfileBody profile={profile.data} isOwn={isOwn} />
      )}
    </div>
  )
}

export default exposed(TechnicianProfilePage)

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_certifications.version
