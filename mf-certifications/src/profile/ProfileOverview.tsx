import type { TechnicianProfile } from '@portal/contracts'
import { EmptyState, formatDate, formatMonth } from '@portal/ui-kit'
import { ExpiryBadge, certView, ProgressBar } from '../shared/index.ts'
import { revenueCards, tierPanel } from './profile-view.ts'

/** Monthly Revenue, Monthly Pay, Rev/Pay Ratio, Yearly Revenue YTD: "No revenue recorded" until there is some. */
export const RevenueCards = ({ data }: { data: TechnicianProfile['revenue_data'] }) => (
  <section className="pk-card pk-stack" aria-labelledby="revenue-title">
    <h2 id="revenue-title">Revenue</h2>
    <dl className="ct-figures">
      {revenueCards(data).map((card) => (
        <div key={card.label}>
          <dt>{card.label}</dt>
          <dd className={card.recorded ? undefined : 'ct-none'}>{card.colour ? <span className={`ct-badge ct-tone--${card.colour}`}>{card.text}</span> : card.text}</dd>
        </div>
      ))}
    </dl>
    {data?.month ? <p className="pk-muted pk-m0">Latest month: {formatMonth(data.month)}</p> : null}
    {data?.tier_pay_rate != null ? <p className="pk-muted pk-m0">Pay rate of the current tier: {data.tier_pay_rate}</p> : null}
  </section>
)

/** Certifications expired or expiring within 60 days, soonest first, each with its badge in words. */
export const UpcomingExpirations = ({ profile, today }: { profile: TechnicianProfile; today: string }) => (
  <section className="pk-card pk-stack" aria-labelledby="expirations-title">
    <h2 id="expirations-title">Upcoming Expirations</h2>
    {profile.upcoming_expirations.length === 0 ? (
      <EmptyState>No certification expires in the next 60 days.</EmptyState>
    ) : (
      <ul className="ct-list">
        {profile.upcoming_expirations.map((c) => (
          <li key={c.id} className="pk-row pk-between">
            <span>
              <strong>{c.certification.name}</strong> <span className="pk-muted">({c.certification.code})</span>
              <br />
              <span className="pk-muted">Expiration date: {formatDate(c.expiration_date)}</span>
            </span>
            <ExpiryBadge view={certView(c, today)} />
          </li>
        ))}
      </ul>
    )}
  </section>
)

/** Current tier and progress to the next, with the next tier's required and optional certifications. */
export const TierProgressPanel = ({ profile }: { profile: TechnicianProfile }) => {
  const panel = tierPanel(profile)
  return (
    <section className="pk-card pk-stack" aria-labelledby="tier-title">
      <h2 id="tier-title">Tier Progress</h2>
      <p className="pk-m0">
        Current tier: <strong>{panel.currentLabel}</strong>
        {panel.atTop ? ' (the highest tier)' : null}
      </p>
      <div className="pk-stack pk-gap-s">
        <h3 className="pk-m0 pk-fs-16">{panel.heading}</h3>
        <ProgressBar percent={panel.percent} label={panel.heading} />
        <span className="pk-muted">{panel.summary}</span>
      </div>
      {panel.requirements.length === 0 ? (
        <EmptyState>No certifications are listed for this tier yet.</EmptyState>
      ) : (
        <ul className="ct-list">
          {panel.requirements.map((r) => (
            <li key={r.id} className="pk-row pk-between">
              <span>
                {r.certification.name} <span className="pk-muted">({r.certification.code})</span>
              </span>
              <span className="pk-row pk-gap-s">
                <span className={`ct-badge ct-tone--${r.is_required ? 'blue' : 'grey'}`}>{r.is_required ? 'Required' : 'Optional'}</span>
                <span className={`ct-badge ct-tone--${r.met ? 'green' : r.is_required ? 'red' : 'grey'}`}>{r.met ? 'Met' : 'Missing'}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
