import { REMOTES, CERT_DEPARTMENT_TABS, CERT_MESSAGES, TIER_LEVELS, type CertificationType, type TierLevel } from '@portal/contracts'
import {
  Alert,
  Button,
  ConfirmDialog,
  errorMessage,
  neighbourAfterRemoval,
  Spinner,
  Tabs,
  useAnnouncement,
  useFocusTargets,
  usePageHeading,
  type RemoteProps,
} from '@portal/ui-kit'
import { useState } from 'react'
import { RouteLink, exposed, Notice } from '../shared/index.ts'
import { useCertificationTypes, useDeleteType, useRefreshCertificationAdmin, useTierRequirements } from './data/apiHooks.ts'
import { FiguresConsistency } from './FiguresConsistency.tsx'
import { TierSection } from './TierSection.tsx'
import { ADMIN_FOCUS, typesOfTier, type DepartmentTab } from './type-form.ts'
import { TypeFormDialog, type TypeEditing } from './TypeFormDialog.tsx'

const tabId = (tab: DepartmentTab) => `cert-dept-tab-${tab.toLowerCase()}`

/** The ids of the tab's types as shown (tier by tier), to find the row after a deleted one. */
const shownIds = (types: readonly CertificationType[], tab: DepartmentTab) => TIER_LEVELS.flatMap((t) => typesOfTier(types, tab, t).map((x) => x.id))

/**
 * mf_certifications/CertificationManagement (admin §2): department tabs, collapsible tier sections
 * with the types and the tier requirements, the create/edit form and delete with confirmation.
 */
export const CertificationManagementView = ({ navigate }: Pick<RemoteProps, 'navigate'>) => {
  const headingRef = usePageHeading('Certification Management')
  const { target, focusLater } = useFocusTargets()
  const [notice, announce] = useAnnouncement()
  const [tab, setTab] = useState<DepartmentTab>('All')
  const [expanded, setExpanded] = useState<ReadonlySet<TierLevel>>(() => new Set(TIER_LEVELS))
  const [editing, setEditing] = useState<TypeEditing | null>(null)
  const [toDelete, setToDelete] = useState<CertificationType | null>(null)
  const types = useCertificationTypes()
  const requirements = useTierRequirements()
  const refresh = useRefreshCertificationAdmin()
  const remove = useDeleteType((t) => {
    const next = neighbourAfterRemoval(shownIds(types.data ?? [], tab), t.id)
    focusLater(...(next === undefined ? [ADMIN_FOCUS.add] : [ADMIN_FOCUS.remove(next), ADMIN_FOCUS.add]))
    setToDelete(null)
    announce(`Certification ${t.name} deleted.`)
  })
  const toggleTier = (tier: TierLevel) =>
    setExpanded((s) => {
      const next = new Set(s)
      if (next.has(tier)) next.delete(tier)
      else next.add(tier)
      return next
    })
  const failed = types.error ?? requirements.error
  return (
    <div className="pk-stack">
      <div className="pk-row pk-between">
        <h1 ref={headingRef} tabIndex={-1} className="pk-m0">
          Certification Management
        </h1>
        <Button ref={target(ADMIN_FOCUS.add)} onClick={() => setEditing({ mode: 'add', tab })}>
          Add Certification
        </Button>
      </div>
      <p className="pk-m0">
        <RouteLink to="/admin-dashboard" navigate={navigate}>
          Back to Admin Dashboard
        </RouteLink>
      </p>
      <Notice notice={notice} />
      <FiguresConsistency />
      {failed ? (
        <div className="pk-stack pk-items-start">
          <Alert>{errorMessage(failed, CERT_MESSAGES.loadTypes)}</Alert>
          <Button onClick={() => void refresh()}>Try Again</Button>
        </div>
      ) : null}
      <Tabs label="Departments" tabs={CERT_DEPARTMENT_TABS} selected={tab} onSelect={setTab} idOf={tabId} panelClassName="pk-card pk-stack">
        {types.isPending || requirements.isPending ? (
          failed ? null : (
            <Spinner label="Loading certifications..." />
          )
        ) : types.data && requirements.data ? (
          TIER_LEVELS.map((tier) => (
            <TierSection
              key={tier}
              tier={tier}
              tab={tab}
              types={types.data}
              requirements={requirements.data}
              expanded={expanded.has(tier)}
              onToggle={() => toggleTier(tier)}
              onEdit={(t) => setEditing({ mode: 'edit', type: t })}
              onDelete={setToDelete}
              target={target}
              focusLater={focusLater}
              announce={announce}
            />
          ))
        ) : null}
      </Tabs>
      <TypeFormDialog
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={(saved, created) => {
          setEditing(null)
          announce(`Certification ${saved.name} ${created ? 'created' : 'updated'}.`)
          // A new type shows in its tier's section, which opens if it was closed.
          setExpanded((s) => new Set(s).add(saved.tier_level))
          void refresh()
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Certification?"
        confirmLabel="Delete Certification"
        busy={remove.isPending}
        onCancel={() => {
          remove.reset()
          setToDelete(null)
        }}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
      >
        {toDelete ? (
          <p>
            Delete {toDelete.name} ({toDelete.code})? This cannot be undone.
            {toDelete.holders
              ? ` ${toDelete.holders} technician${toDelete.holders === 1 ? ' holds' : 's hold'} it, so it will not be deleted: edit it and clear Active to retire it instead.`
              : ''}
          </p>
        ) : null}
        {remove.isError ? <Alert>{errorMessage(remove.error, CERT_MESSAGES.deleteType)}</Alert> : null}
      </ConfirmDialog>
    </div>
  )
}

export default exposed(CertificationManagementView)

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_certifications.version
