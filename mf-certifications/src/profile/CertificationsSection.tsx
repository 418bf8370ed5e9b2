import { CERT_MESSAGES, type TechnicianProfile, type UserCertification } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, EmptyState, errorMessage, neighbourAfterRemoval, useFocusTargets } from '@portal/ui-kit'
import { lazy, Suspense, useState } from 'react'
import { certView } from '../shared/index.ts'
import { CertificationCard, type CardPermissions } from './CertificationCard.tsx'
import { CertificationHistory } from './CertificationHistory.tsx'
import { useDeleteFromProfile, useRefreshProfiles, type ProfileDeletion } from './data/apiHooks.ts'
import { FOCUS, groupByTier, shownOrder } from './profile-view.ts'

// The dialogs (with the form checks and the uploader) stay off the first screen; they are
// fetched when the user reaches for the section (prefetchDialogs), so they open at once.
const loadAddDialog = () => import('./AddCertificationDialog.tsx').then((m) => ({ default: m.AddCertificationDialog }))
const loadUploadDialog = () => import('./UploadProofDialog.tsx').then((m) => ({ default: m.UploadProofDialog }))
const AddCertificationDialog = lazy(loadAddDialog)
const UploadProofDialog = lazy(loadUploadDialog)
let dialogsRequested = false
/** Fetches both dialogs once, at a pointer over the section or focus inside it. */
const prefetchDialogs = () => {
  if (dialogsRequested) return
  dialogsRequested = true
  void Promise.all([loadAddDialog(), loadUploadDialog()]).catch(() => {
    dialogsRequested = false
  })
}

/**
 * Certifications grouped by tier with Add Certification, and each card's upload, replace, view,
 * download and delete (learner §2, §5). Cards come and go, so the section says where focus goes.
 */
export const CertificationsSection = ({
  profile,
  forOther,
  permissions,
  locked,
  announce,
  today,
}: {
  profile: TechnicianProfile
  /** Someone else's profile (an admin's or a manager's view). */
  forOther: boolean
  permissions: CardPermissions
  /** Own profile without branch and department: certification features wait for them (learner §2). */
  locked: boolean
  announce: (text: string) => void
  /** `YYYY-MM-DD`: statuses and badges are worked out for this day. */
  today: string
}) => {
  const { target, focusLater } = useFocusTargets()
  const [adding, setAdding] = useState(false)
  const [uploading, setUploading] = useState<UserCertification | null>(null)
  const [pending, setPending] = useState<ProfileDeletion | null>(null)
  const userId = profile.user.id
  const refresh = useRefreshProfiles()
  const canEdit = permissions.canEdit && !locked
  const remove = useDeleteFromProfile(({ kind, cert }) => {
    if (kind === 'proof') {
      // View, Download and Delete Proof go with the file: the card's Upload (or its heading) takes focus.
      focusLater(FOCUS.upload(cert.id), FOCUS.card(cert.id))
      announce(`Proof of ${cert.certification.name} deleted.`)
    } else {
      const next = neighbourAfterRemoval(shownOrder(profile.certifications), cert.id)
      focusLater(...(next === undefined ? [FOCUS.add] : [FOCUS.remove(next), FOCUS.add]))
      announce(`${cert.certification.name} deleted. Its history is kept for the audit trail.`)
    }
    setPending(null)
  })
  const groups = groupByTier(profile.certifications)
  const editing = { canEdit, canDeleteFiles: permissions.canDeleteFiles }
  return (
    <section
      className="pk-card pk-stack"
      aria-labelledby="certifications-title"
      onPointerOver={canEdit ? prefetchDialogs : undefined}
      onFocus={canEdit ? prefetchDialogs : undefined}
    >
      <div className="pk-row pk-between">
        <h2 id="certifications-title" className="pk-m0">
          Certifications
        </h2>
        {canEdit ? (
          <Button ref={target(FOCUS.add)} onClick={() => setAdding(true)}>
            Add Certification
          </Button>
        ) : null}
      </div>
      {locked ? <Alert tone="info">{CERT_MESSAGES.profileIncomplete}</Alert> : null}
      {groups.map((g) => (
        <section key={g.tier} className="pk-stack pk-gap-l" aria-labelledby={`tier-${g.tier}-title`}>
          <h3 id={`tier-${g.tier}-title`} className="pk-m0">
            {g.label} <span className="pk-muted pk-fw-medium pk-fs-15">({g.certs.length})</span>
          </h3>
          {g.certs.length === 0 ? (
            <EmptyState>No {g.label} certifications yet.</EmptyState>
          ) : (
            <ul className="ct-cards">
              {g.certs.map((cert) => (
                <CertificationCard
                  key={cert.id}
                  cert={cert}
                  view={certView(cert, today)}
                  permissions={editing}
                  target={target}
                  actions={{
                    upload: setUploading,
                    deleteProof: (c) => setPending({ kind: 'proof', cert: c }),
                    deleteCertification: (c) => setPending({ kind: 'certification', cert: c }),
                  }}
                />
              ))}
            </ul>
          )}
        </section>
      ))}
      {profile.deleted_certifications?.length ? (
        <section className="pk-stack pk-gap-l" aria-labelledby="deleted-certifications-title">
          <h3 id="deleted-certifications-title" className="pk-m0">
            Deleted Certifications <span className="pk-muted pk-fw-medium pk-fs-15">({profile.deleted_certifications.length})</span>
          </h3>
          <p className="pk-muted pk-m0">No longer on this profile and counted in no figure; their history is kept for the audit trail.</p>
          <ul className="ct-cards">
            {profile.deleted_certifications.map((d) => (
              <li key={d.certification_id} className="ct-card">
                <h4 id={`deleted-certification-${d.certification_id}`}>
                  {d.name} <span className="pk-muted pk-fw-medium">({d.code})</span>
                </h4>
                <CertificationHistory
                  history={d.history}
                  certificationId={d.certification_id}
                  certificationName={d.name}
                  describedBy={`deleted-certification-${d.certification_id}`}
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {canEdit && adding ? (
        <Suspense fallback={null}>
          <AddCertificationDialog
            open
            userId={userId}
            forOther={forOther}
            onClose={() => setAdding(false)}
            onAdded={(name) => {
              setAdding(false)
              announce(`${CERT_MESSAGES.added} ${name} is listed under its tier.`)
              void refresh()
            }}
          />
        </Suspense>
      ) : null}
      {canEdit && uploading ? (
        <Suspense fallback={null}>
          <UploadProofDialog
            cert={uploading}
            userId={userId}
            forOther={forOther}
            onClose={() => setUploading(null)}
            onUploaded={(cert, replaced) => {
              setUploading(null)
              announce(
                replaced ? `Proof of ${cert.certification.name} replaced with ${cert.file_name}.` : `${CERT_MESSAGES.uploaded} ${cert.certification.name}: ${cert.file_name}.`,
              )
              void refresh()
            }}
          />
        </Suspense>
      ) : null}
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'proof' ? 'Delete Proof?' : 'Delete Certification?'}
        confirmLabel={pending?.kind === 'proof' ? 'Delete Proof' : 'Delete Certification'}
        busy={remove.isPending}
        onCancel={() => {
          remove.reset()
          setPending(null)
        }}
        onConfirm={() => pending && remove.mutate(pending)}
      >
        {pending?.kind === 'proof' ? (
          <p>
            Delete the proof file {pending.cert.file_name} of {pending.cert.certification.name}? The certification stays on the profile.
          </p>
        ) : pending ? (
          <p>
            Delete {pending.cert.certification.name}
            {pending.cert.certification_number ? ` (${pending.cert.certification_number})` : ''} from this profile? It no longer counts in any figure. Its history, this period and
            its proof included, is kept for the audit trail.
          </p>
        ) : null}
        {remove.isError ? <Alert>{errorMessage(remove.error, CERT_MESSAGES.deleteFailed)}</Alert> : null}
      </ConfirmDialog>
    </section>
  )
}
