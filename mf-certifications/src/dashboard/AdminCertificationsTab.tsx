import { REMOTES, CERT_MESSAGES } from '@portal/contracts'
import { errorMessage, Spinner, type RemoteProps } from '@portal/ui-kit'
import { exposed, RouteLink, LoadFailure } from '../shared/index.ts'
import { useCertificationsOverview } from './data/apiHooks.ts'
import { adminCards } from './cards.ts'
import { Figures } from './Figures.tsx'

/**
 * The admin dashboard's Certifications tab (admin §2): Team Management, Certification Admin,
 * Notification Settings and Revenue Entry, with the figures of GET /admin/certifications/overview.
 * Hosted by mf-admin through ui-kit's RemoteSlot.
 */
export const AdminCertificationsTabView = ({ navigate }: Pick<RemoteProps, 'navigate'>) => {
  const overview = useCertificationsOverview()
  return (
    <div className="pk-stack">
      <h2>Certifications</h2>
      {overview.isError ? (
        <LoadFailure error={overview.error} text={errorMessage(overview.error, CERT_MESSAGES.loadTypes)} onRetry={() => void overview.refetch()} size="small" />
      ) : null}
      <ul className="ct-cards">
        {adminCards(overview.data).map((card) => (
          <li key={card.key} className="ct-card">
            <h3 id={`admin-card-${card.key}`} className="pk-m0 pk-fs-18">
              {card.title}
            </h3>
            <p className="pk-muted pk-m0">{card.text}</p>
            {overview.isPending && card.key !== 'revenue' ? <Spinner label="Loading figures..." /> : card.figures.length > 0 ? <Figures figures={card.figures} /> : null}
            <p className="pk-m0 pk-mt-auto">
              <RouteLink to={card.action.to} navigate={navigate} className="pk-btn">
                {card.action.label}
              </RouteLink>
            </p>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** mf_certifications/AdminCertificationsTab. */
export default exposed(AdminCertificationsTabView)

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_certifications.version
