import type { UserCertification } from '@portal/contracts'
import { Alert, Button, errorMessage, formatDate, type FocusTargets } from '@portal/ui-kit'
import { useEffect, useId, useState } from 'react'
import { ExpiryBadge, StatusBadge, type CertView, formatSize, saveBlob } from '../shared/index.ts'
import { fetchProof } from './api.ts'
import { CertificationHistory } from './CertificationHistory.tsx'
import { FOCUS } from './profile-view.ts'

export interface CardPermissions {
  canEdit: boolean
  canDeleteFiles: boolean
}

export interface CardActions {
  upload: (cert: UserCertification) => void
  deleteProof: (cert: UserCertification) => void
  deleteCertification: (cert: UserCertification) => void
}

const isImage = (type: string) => type.startsWith('image/')

/** The proof shown in the page (View is a disclosure: it keeps focus and says whether the proof is open). */
const useInlineProof = (cert: UserCertification) => {
  const [proof, setProof] = useState<{ url: string; type: string } | null>(null)
  const [busy, setBusy] = useState<'view' | 'download' | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => () => (proof ? URL.revokeObjectURL(proof.url) : undefined), [proof])
  // A replaced or deleted proof closes the old one.
  useEffect(() => setProof(null), [cert.file_name, cert.uploaded_at])
  const run = async (kind: 'view' | 'download') => {
    if (!cert.file_path || busy) return
    setBusy(kind)
    setError(null)
    try {
      const blob = await fetchProof(cert.file_path, kind === 'download')
      if (kind === 'download') saveBlob(blob, cert.file_name ?? 'proof')
      else setProof({ url: URL.createObjectURL(blob), type: blob.type || cert.file_type || '' })
    } catch (err) {
      setError(errorMessage(err, kind === 'view' ? 'Failed to open the proof' : 'Failed to download the proof'))
    } finally {
      setBusy(null)
    }
  }
  return { proof, busy, error, view: () => (proof ? setProof(null) : void run('view')), download: () => void run('download') }
}

/** One held certification: status and expiration badges, its facts, what the viewer may do with it, and its earlier periods. */
export const CertificationCard = ({
  cert,
  view,
  permissions,
  actions,
  target,
}: {
  cert: UserCertification
  view: CertView
  permissions: CardPermissions
  actions: CardActions
  target: FocusTargets['target']
}) => {
  const nameId = useId()
  const viewerId = useId()
  const inline = useInlineProof(cert)
  const c = cert.certification
  const hasFile = cert.file_path !== null && cert.file_name !== null
  return (
    <li className="ct-card">
      <div className="pk-row pk-between pk-items-start">
        <h4 id={nameId} ref={target(FOCUS.card(cert.id))} tabIndex={-1}>
          {c.name} <span className="pk-muted pk-fw-medium">({c.code})</span>
        </h4>
        <span className="pk-row pk-gap-s">
          <StatusBadge view={view} />
          <ExpiryBadge view={view} />
        </span>
      </div>
      <dl className="ct-facts">
        <div>
          <dt>Certification Number</dt>
          <dd>{cert.certification_number ?? '—'}</dd>
        </div>
        <div>
          <dt>Obtained</dt>
          <dd>{formatDate(cert.obtained_date)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{cert.expiration_date ? formatDate(cert.expiration_date) : 'Never (lifetime)'}</dd>
        </div>
        <div>
          <dt>Proof</dt>
          <dd>{hasFile ? `${cert.file_name}${cert.file_size ? `, ${formatSize(cert.file_size)}` : ''}` : c.upload_required ? 'Not uploaded (required)' : 'Not uploaded'}</dd>
        </div>
      </dl>
      {cert.notes ? <p className="pk-m0">Notes: {cert.notes}</p> : null}
      {c.training_link ? (
        <p className="pk-m0">
          <a href={c.training_link} target="_blank" rel="noopener noreferrer" aria-describedby={nameId}>
            Training (opens in a new tab)
          </a>
        </p>
      ) : null}
      <div className="ct-actions">
        {permissions.canEdit ? (
          // One button for Upload and Replace: it keeps focus when the proof arrives.
          <Button size="small" ref={target(FOCUS.upload(cert.id))} aria-describedby={nameId} onClick={() => actions.upload(cert)}>
            {hasFile ? 'Replace' : 'Upload'}
          </Button>
        ) : null}
        {hasFile ? (
          <>
            <Button
              size="small"
              variant="secondary"
              ref={target(FOCUS.view(cert.id))}
              aria-describedby={nameId}
              aria-expanded={inline.proof !== null}
              aria-controls={viewerId}
              aria-disabled={inline.busy === 'view' || undefined}
              onClick={inline.view}
            >
              {inline.busy === 'view' ? 'Opening…' : 'View'}
            </Button>
            <Button size="small" variant="secondary" aria-describedby={nameId} aria-disabled={inline.busy === 'download' || undefined} onClick={inline.download}>
              {inline.busy === 'download' ? 'Downloading…' : 'Download'}
            </Button>
            {permissions.canDeleteFiles ? (
              <Button size="small" variant="secondary" aria-describedby={nameId} onClick={() => actions.deleteProof(cert)}>
                Delete Proof
              </Button>
            ) : null}
          </>
        ) : null}
        {permissions.canEdit ? (
          <Button size="small" variant="danger" ref={target(FOCUS.remove(cert.id))} aria-describedby={nameId} onClick={() => actions.deleteCertification(cert)}>
            Delete
          </Button>
        ) : null}
      </div>
      {inline.error ? <Alert>{inline.error}</Alert> : null}
      <div id={viewerId} hidden={inline.proof === null}>
        {inline.proof ? (
          <figure className="ct-viewer pk-m0">
            {isImage(inline.proof.type) ? (
              <img src={inline.proof.url} alt={`Proof of ${c.name}: ${cert.file_name}`} />
            ) : (
              <iframe src={inline.proof.url} title={`Proof of ${c.name}: ${cert.file_name}`} />
            )}
            <figcaption className="pk-muted">{cert.file_name}</figcaption>
          </figure>
        ) : null}
      </div>
      <CertificationHistory history={cert.history ?? []} certificationId={cert.certification_id} certificationName={c.name} describedBy={nameId} />
    </li>
  )
}
