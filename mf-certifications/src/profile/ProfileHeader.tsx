import { CERT_MESSAGES, tierLabel, type TechnicianProfile } from '@portal/contracts'
import { Alert, errorMessage, formatDate, Switch } from '@portal/ui-kit'
import { useId, type ReactNode } from 'react'
import { Badge } from '../shared/index.ts'
import { useToggleNotifications } from './data/apiHooks.ts'
import { notificationsChanged, notificationsText } from './profile-view.ts'

/** Notifications on/paused (learner §2, §4): pausing lasts 30 days; used again, it resumes. Own profile only. */
const NotificationsSwitch = ({ profile, onChanged }: { profile: TechnicianProfile; onChanged: (text: string) => void }) => {
  const labelId = useId()
  const stateId = useId()
  const paused = profile.tier.notifications_paused
  const toggle = useToggleNotifications(profile, (nowPaused, until) => onChanged(notificationsChanged(nowPaused, until)))
  return (
    <div className="pk-stack pk-gap-s">
      <div className="pk-row">
        <span id={labelId} className="pk-fw-semibold">
          Expiration notifications
        </span>
        <Switch checked={!paused} text={paused ? 'Paused' : 'On'} aria-labelledby={labelId} aria-describedby={stateId} busy={toggle.isPending} onToggle={() => toggle.mutate()} />
      </div>
      <span id={stateId} className="pk-muted">
        {notificationsText(profile.tier)}
        {paused ? '' : '. Switch off to pause them for 30 days.'}
      </span>
      {toggle.isError ? <Alert>{errorMessage(toggle.error, CERT_MESSAGES.notificationSettings)}</Alert> : null}
    </div>
  )
}

/** Name, e-mail, employee id, branch, department, hire date, tier; the notifications switch on one's own profile. */
export const ProfileHeader = ({
  profile,
  canToggleNotifications,
  onNotificationsChanged,
}: {
  profile: TechnicianProfile
  canToggleNotifications: boolean
  onNotificationsChanged: (text: string) => void
}) => {
  const u = profile.user
  const at = u.email.lastIndexOf('@')
  const facts: [string, ReactNode][] = [
    // Where the column is narrow the address wraps before the @, not in the middle of a word.
    [
      'Email',
      <>
        {u.email.slice(0, at)}
        <wbr />
        {u.email.slice(at)}
      </>,
    ],
    ['Employee ID', u.employee_id ?? 'Not set'],
    ['Branch', u.branch ?? 'Not set'],
    ['Department', u.department ?? 'Not set'],
    ['Hire Date', formatDate(u.hire_date, 'Not set')],
  ]
  return (
    <section className="pk-card pk-stack" aria-labelledby="profile-name">
      <div className="pk-row pk-between">
        <h2 id="profile-name" className="pk-m0">
          {u.name}
        </h2>
        <Badge tone="blue">{`Current tier: ${tierLabel(profile.tier.current_tier)}`}</Badge>
      </div>
      <dl className="ct-facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {canToggleNotifications ? (
        <NotificationsSwitch profile={profile} onChanged={onNotificationsChanged} />
      ) : (
        <p className="pk-muted pk-m0">Expiration notifications: {notificationsText(profile.tier)}</p>
      )}
    </section>
  )
}
