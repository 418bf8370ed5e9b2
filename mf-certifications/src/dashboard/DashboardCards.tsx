import { Alert, Button, CardGrid, Spinner, type RemoteProps } from '@portal/ui-kit'
import { ProgressBar, exposed, RouteLink } from '../shared/index.ts'
import { REMOTES, tierLabel } from '@portal/contracts'
import { useCertificationSummary } from './data/apiHooks.ts'
import { myCertificationsLine, trackingFigures } from './cards.ts'
import { Figures } from './Figures.tsx'
import { dashboardLoadError } from './load-error.ts'

/** A dashboard card that leads to a page: its title, a line and the link. */
const LinkCard = (p: { id: string; title: string; text: string; link: { to: string; label: string } | null; navigate: (to: string) => void }) => (
  <section className="pk-card pk-stack" aria-labelledby={p.id}>
    <h2 id={p.id}>{p.title}</h2>
    <p className="pk-muted pk-m0">{p.text}</p>
    {p.link ? (
      <p className="pk-m0">
        <RouteLink to={p.link.to} navigate={p.navigate} className="pk-btn">
          {p.link.label}
        </RouteLink>
      </p>
    ) : null}
  </section>
)

export const LOCKED_TEXT = 'Certification tracking starts once you choose your branch and department.'

/**
 * The user dashboard's certification cards (learner §2): Certification Tracking with the figures of
 * GET /technician/summary, My Certifications (to /technician/profile) and, for admins and managers, Team
 * Management (to /manager/dashboard). Hosted by mf-learner through ui-kit's RemoteSlot.
 */
export const DashboardCardsView = ({ user, navigate }: Pick<RemoteProps, 'user' | 'navigate'>) => {
  const locked = !user.is_admin && (user.branch === null || user.department === null)
  const summary = useCertificationSummary(user.id, !locked)
  const s = summary.data
  return (
    <>
      <section className="pk-card pk-stack" aria-labelledby="cert-tracking-title">
        <h2 id="cert-tracking-title">Certification Tracking</h2>
        {locked ? (
          <p className="pk-muted pk-m0">{LOCKED_TEXT}</p>
        ) : summary.isPending ? (
          <Spinner label="Loading certifications..." />
        ) : summary.isError ? (
          <div className="pk-stack pk-items-start">
            <Alert>{dashboardLoadError(summary.error)}</Alert>
            <Button size="small" onClick={() => void summary.refetch()}>
              Try Again
            </Button>
          </div>
        ) : (
          <>
            <Figures figures={trackingFigures(summary.data)} />
            {summary.data.next_tier_progress ? (
              <div className="pk-stack pk-gap-s">
                <ProgressBar percent={summary.data.next_tier_progress.percent} label={`Progress to ${tierLabel(summary.data.next_tier_progress.tier_level)}`} />
                <span className="pk-muted">
                  Progress to {tierLabel(summary.data.next_tier_progress.tier_level)}: {summary.data.next_tier_progress.required_met} of{' '}
                  {summary.data.next_tier_progress.required_total} required ({summary.data.next_tier_progress.percent}%)
                </span>
              </div>
            ) : null}
          </>
        )}
      </section>
      <CardGrid>
        <LinkCard
          id="my-certs-title"
          title="My Certifications"
          text={locked ? LOCKED_TEXT : s ? myCertificationsLine(s) : 'Your certifications, proofs and tier progress.'}
          link={locked ? null : { to: '/technician/profile', label: 'View My Certifications' }}
          navigate={navigate}
        />
        {user.is_admin || user.is_manager ? (
          <LinkCard
            id="team-mgmt-title"
            title="Team Management"
            text="Your teams' certification compliance."
            link={{ to: '/manager/dashboard', label: 'Open Team Dashboard' }}
            navigate={navigate}
          />
        ) : null}
      </CardGrid>
    </>
  )
}

/** mf_certifications/DashboardCards. */
export default exposed(DashboardCardsView)

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_certifications.version
