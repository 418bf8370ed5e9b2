import { Alert, Button, Spinner, type RemoteProps } from '@portal/ui-kit'
import { useQuery } from '@tanstack/react-query'
import { ProgressBar } from '../shared/ProgressBar.tsx'
import { exposed } from '../shared/exposed.tsx'
import { tierLabel } from '@portal/contracts'
import { fetchSummary, dashboardKeys } from './api.ts'
import { myCertificationsLine, trackingFigures } from './cards.ts'
import { Figures, RouteLink } from './Figures.tsx'
import { dashboardLoadError } from './load-error.ts'

export const LOCKED_TEXT = 'Certification tracking starts once you choose your branch and department.'

/**
 * The user dashboard's certification cards (learner §2): Certification Tracking with the figures of
 * GET /technician/summary, My Certifications (to /technician/profile) and, for admins, Team
 * Management (to /manager/dashboard). Hosted by mf-learner through ui-kit's RemoteSlot.
 */
export const DashboardCardsView = ({ user, navigate }: Pick<RemoteProps, 'user' | 'navigate'>) => {
  const locked = !user.is_admin && (user.branch === null || user.department === null)
  const summary = useQuery({ queryKey: dashboardKeys.summary(user.id), queryFn: () => fetchSummary(user.id), enabled: !locked })
  const s = summary.data
  return (
    <>
      <section className="pk-card pk-stack" aria-labelledby="cert-tracking-title">
        <h2 id="cert-tracking-title">Certification Tracking</h2>
        {locked ? (
          <p className="pk-muted" style={{ margin: 0 }}>
            {LOCKED_TEXT}
          </p>
        ) : summary.isPending ? (
          <Spinner label="Loading certifications..." />
        ) : summary.isError ? (
          <div className="pk-stack" style={{ alignItems: 'flex-start' }}>
            <Alert>{dashboardLoadError(summary.error)}</Alert>
            <Button size="small" onClick={() => void summary.refetch()}>
              Try Again
            </Button>
          </div>
        ) : (
          <>
            <Figures figures={trackingFigures(summary.data)} />
            {summary.data.next_tier_progress ? (
              <div className="pk-stack" style={{ gap: '.375rem' }}>
                <ProgressBar
                  percent={summary.data.next_tier_progress.percent}
                  label={`Progress to ${tierLabel(summary.data.next_tier_progress.tier_level)}`}
                />
                <span className="pk-muted">
                  Progress to {tierLabel(summary.data.next_tier_progress.tier_level)}: {summary.data.next_tier_progress.required_met} of{' '}
                  {summary.data.next_tier_progress.required_total} required ({summary.data.next_tier_progress.percent}%)
                </span>
              </div>
            ) : null}
          </>
        )}
      </section>
      <div className="pk-grid">
        <section className="pk-card pk-stack" aria-labelledby="my-certs-title">
          <h2 id="my-certs-title">My Certifications</h2>
          <p className="pk-muted" style={{ margin: 0 }}>
            {locked ? LOCKED_TEXT : s ? myCertificationsLine(s) : 'Your certifications, proofs and tier progress.'}
          </p>
          {locked ? null : (
            <p style={{ margin: 0 }}>
              <RouteLink to="/technician/profile" navigate={navigate} className="pk-btn">
                View My Certifications
              </RouteLink>
            </p>
          )}
        </section>
        {user.is_admin ? (
          <section className="pk-card pk-stack" aria-labelledby="team-mgmt-title">
            <h2 id="team-mgmt-title">Team Management</h2>
            <p className="pk-muted" style={{ margin: 0 }}>
              Your teams' certification compliance.
            </p>
            <p style={{ margin: 0 }}>
              <RouteLink to="/manager/dashboard" navigate={navigate} className="pk-btn">
                Open Team Dashboard
              </RouteLink>
            </p>
          </section>
        ) : null}
      </div>
    </>
  )
}

/** mf_certifications/DashboardCards. */
export default exposed(DashboardCardsView)
