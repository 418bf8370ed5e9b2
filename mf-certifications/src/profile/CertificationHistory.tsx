import { CERT_MESSAGES, type CertificationPeriod, type PeriodEndReason } from '@portal/contracts'
import { Alert, Button, errorMessage, formatDate } from '@portal/ui-kit'
import { useEffect, useId, useRef, useState } from 'react'
import { formatSize, saveBlob } from '../shared/index.ts'
import { fetchProof } from './api.ts'

/** How a period ended, as the history says it. */
export const PERIOD_END_LABELS: Record<PeriodEndReason, string> = {
  renewed: 'Renewed',
  replaced: 'Proof replaced',
  deleted: 'Deleted',
}

/**
 * The id of a certification type's history on a profile: the audit trail links to
 * `/admin/technician/{userId}#certification-history-{certificationId}`, which opens it.
 */
export const historyAnchor = (certificationId: number) => `certification-history-${certificationId}`

/** "Renewed on Nov 2, 2026 by Pat Portland". */
export const periodEnd = (p: CertificationPeriod): string => `${PERIOD_END_LABELS[p.reason]} on ${formatDate(p.ended_at)} by ${p.ended_by.name}`

const Period = ({ period, certificationName }: { period: CertificationPeriod; certificationName: string }) => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const download = async () => {
    if (!period.file_path || busy) return
    setBusy(true)
    setError(null)
    try {
      saveBlob(await fetchProof(period.file_path, true), period.file_name ?? 'proof')
    } catch (err) {
      setError(errorMessage(err, 'Failed to download the proof'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <li className="ct-period">
      <p className="pk-m0 pk-fw-semibold">{periodEnd(period)}</p>
      <dl className="ct-facts">
        <div>
          <dt>Obtained</dt>
          <dd>{formatDate(period.obtained_date)}</dd>
        </div>
        <div>
          <dt>Expiry</dt>
          <dd>{period.obtained_date || period.expiration_date ? formatDate(period.expiration_date, 'Never (lifetime)') : '—'}</dd>
        </div>
        <div>
          <dt>Certification Number</dt>
          <dd>{period.certification_number ?? '—'}</dd>
        </div>
        <div>
          <dt>Proof</dt>
          <dd>{period.file_name ? `${period.file_name}${period.file_size ? `, ${formatSize(period.file_size)}` : ''}` : 'None'}</dd>
        </div>
      </dl>
      {period.file_path && period.file_name ? (
        <div className="ct-actions">
          <Button
            size="small"
            variant="secondary"
            aria-label={`Download ${period.file_name}, the proof of ${certificationName} obtained ${formatDate(period.obtained_date)}`}
            aria-disabled={busy || undefined}
            onClick={() => void download()}
          >
            {busy ? 'Downloading…' : 'Download'}
          </Button>
        </div>
      ) : null}
      {error ? <Alert>{error}</Alert> : null}
    </li>
  )
}

/**
 * A certification's earlier periods (issue 23: history, not overwrite), newest first, behind a
 * History disclosure: obtained and expiry dates, number, proof (downloadable), and who ended each
 * period, when and why. Opens by itself when the page's address names it (the audit trail's link).
 */
export const CertificationHistory = ({
  history,
  certificationId,
  certificationName,
  describedBy,
}: {
  history: readonly CertificationPeriod[]
  /** The certification type (the history is the technician's for that type). */
  certificationId: number
  certificationName: string
  /** The id of the card's heading: which certification the button is for. */
  describedBy: string
}) => {
  const anchor = historyAnchor(certificationId)
  const [open, setOpen] = useState(() => typeof window !== 'undefined' && window.location.hash === `#${anchor}`)
  const listId = useId()
  const toggle = useRef<HTMLButtonElement>(null)
  // Reached through the audit trail's link: shown and focused once the profile has loaded (on arrival only).
  const arrived = useRef(open)
  useEffect(() => {
    if (!arrived.current) return
    arrived.current = false
    toggle.current?.scrollIntoView?.({ block: 'center' })
    toggle.current?.focus()
  }, [])
  return (
    <div className="ct-history" id={anchor}>
      <button
        ref={toggle}
        type="button"
        className="ct-history-toggle"
        aria-expanded={open}
        aria-controls={listId}
        aria-describedby={describedBy}
        onClick={() => setOpen((o) => !o)}
      >
        History <span className="pk-muted">({history.length === 1 ? '1 earlier period' : `${history.length} earlier periods`})</span>
      </button>
      <div id={listId} hidden={!open}>
        {history.length === 0 ? (
          <p className="pk-muted pk-mt-m">{CERT_MESSAGES.noEarlierPeriods}</p>
        ) : (
          <ol className="ct-periods">
            {history.map((p) => (
              <Period key={p.id} period={p} certificationName={certificationName} />
            ))}
          </ol>
        )}
      </div>
    </div>
  )
}
