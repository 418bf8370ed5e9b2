import { BRANCHES, type DashboardItem } from '@portal/contracts'
import { Alert, Button, DataTable, errorMessage, formatDate, Select, TableHead } from '@portal/ui-kit'
import { useState } from 'react'
import { Badge, relativeDays } from '../shared/index.ts'
import { useSendReminder, useSendReminders } from './data/apiHooks.ts'
import { bulkSummary, expiredOfBranch, itemLabel, REMINDER_FAILED, type BulkOutcome } from './notification-view.ts'

const BRANCH_OPTIONS = BRANCHES.map((b) => ({ value: b, label: b }))

/**
 * Expired Certifications (admin §2) with a branch filter; a reminder to one technician or to the
 * selected ones (the single call repeated; the outcome counts successes and failures).
 */
export const ExpiredTab = ({
  expired,
  total = expired.length,
  loadingAll = false,
  onShowAll,
  announce,
}: {
  expired: readonly DashboardItem[]
  /** Every expired certification's count: more than `expired` holds while the screen shows the first ones. */
  total?: number
  loadingAll?: boolean
  onShowAll?: () => void
  announce: (text: string) => void
}) => {
  const [branch, setBranch] = useState('')
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set())
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null)
  const rows = expiredOfBranch(expired, branch)
  const chosen = rows.filter((r) => selected.has(r.technician_certification_id))
  // A reminder sent shows in the logs, which are fetched again.
  const single = useSendReminder((item) => {
    setOutcome(null)
    announce(`Reminder sent to ${item.user.name} for ${item.certification.name}.`)
  })
  const bulk = useSendReminders((o) => {
    single.reset()
    setOutcome(o)
    setSelected(new Set())
    announce(bulkSummary(o))
  })
  const busy = single.isPending || bulk.isPending
  const toggle = (id: number, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })
  const allChosen = rows.length > 0 && chosen.length === rows.length
  return (
    <div className="pk-stack">
      <div className="pk-row pk-items-end pk-between">
        <Select
          label="Branch"
          placeholder="All Branches"
          options={BRANCH_OPTIONS}
          value={branch}
          onChange={(e) => {
            setBranch(e.target.value)
            setSelected(new Set())
          }}
        />
        <Button aria-disabled={busy || chosen.length === 0 || undefined} onClick={() => !busy && chosen.length > 0 && bulk.mutate(chosen)}>
          {bulk.isPending ? 'Sending Reminders...' : `Send Reminders to Selected (${chosen.length})`}
        </Button>
      </div>
      {total > expired.length ? (
        <div className="pk-row" role="status">
          <p className="pk-muted pk-m0">{`Showing the ${expired.length} longest expired of ${total} expired certifications; the branch filter looks at these.`}</p>
          {onShowAll ? (
            <Button variant="secondary" aria-disabled={loadingAll || undefined} onClick={() => !loadingAll && onShowAll()}>
              {loadingAll ? 'Loading All...' : `Show All ${total}`}
            </Button>
          ) : null}
        </div>
      ) : null}
      {single.isError ? <Alert>{errorMessage(single.error, REMINDER_FAILED)}</Alert> : null}
      {outcome && outcome.failed.length > 0 ? (
        <Alert>
          {bulkSummary(outcome)}
          <ul className="pk-mt-xs">
            {outcome.failed.map((f) => (
              <li key={f.item.technician_certification_id}>
                {itemLabel(f.item)}: {f.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {rows.length === 0 ? (
        <p className="pk-empty">{branch ? `No expired certifications in ${branch}.` : 'No expired certifications.'}</p>
      ) : (
        // Wider than a phone, the table scrolls inside a region the keyboard can reach (its actions stay in view).
        <DataTable region={`Expired certifications${branch ? ` in ${branch}` : ''}`}>
          <caption className="pk-visually-hidden">Expired certifications{branch ? ` in ${branch}` : ''}</caption>
          <TableHead
            columns={[
              <input
                key="all"
                type="checkbox"
                aria-label="Select all expired certifications"
                checked={allChosen}
                onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.technician_certification_id)) : new Set())}
              />,
              'Technician',
              'Branch',
              'Department',
              'Certification',
              'Expired',
              'Actions',
            ]}
          />
          <tbody>
            {rows.map((item) => {
              const id = item.technician_certification_id
              return (
                <tr key={id}>
                  <td>
                    <input type="checkbox" aria-label={`Select ${itemLabel(item)}`} checked={selected.has(id)} onChange={(e) => toggle(id, e.target.checked)} />
                  </td>
                  <td>
                    {item.user.name}
                    <span className="pk-muted pk-block pk-fs-13">{item.user.email}</span>
                    {item.user.notifications_paused ? (
                      <>
                        {' '}
                        <Badge tone="grey">Notifications paused</Badge>
                      </>
                    ) : null}
                  </td>
                  <td>{item.user.branch ?? '—'}</td>
                  <td>{item.user.department ?? '—'}</td>
                  <td>
                    {item.certification.name} ({item.certification.code})
                  </td>
                  <td>
                    {formatDate(item.expiration_date)} ({relativeDays(item.days_until_expiry)})
                  </td>
                  <td>
                    <Button
                      size="small"
                      variant="secondary"
                      aria-label={`Send reminder to ${itemLabel(item)}`}
                      aria-disabled={busy || undefined}
                      onClick={() => !busy && single.mutate(item)}
                    >
                      Send Reminder
                    </Button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </DataTable>
      )}
    </div>
  )
}
