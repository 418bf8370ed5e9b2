import type { CertificationType, TierLevel, TierRequirement } from '@portal/contracts'
import { validityLabel } from '@portal/contracts'
import { Alert, Button, DataTable, EmptyState, errorMessage, neighbourAfterRemoval, Select, type FocusTargets } from '@portal/ui-kit'
import { useId, useState } from 'react'
import { Badge } from '../shared/index.ts'
import { useDeleteRequirement, usePutRequirement } from './data/apiHooks.ts'
import { ADMIN_FOCUS, addableToTier, renewedByText, requirementsOfTier, tierSectionLabel, typesOfTier, type DepartmentTab } from './type-form.ts'

/** What a tier section works with: the tier under the department tab, every type and requirement, focus and notices. */
interface TierProps {
  tier: TierLevel
  tab: DepartmentTab
  types: readonly CertificationType[]
  requirements: readonly TierRequirement[]
  target: FocusTargets['target']
  focusLater: FocusTargets['focusLater']
  announce: (text: string) => void
}

export const REQUIREMENT_FAILED = 'Failed to update tier requirements'

/** The tier's requirements: add a type as required or optional, switch it, remove it. */
const RequirementsEditor = ({ tier, tab, types, requirements, target, focusLater, announce }: TierProps) => {
  const [picked, setPicked] = useState('')
  const [required, setRequired] = useState(true)
  const [pickError, setPickError] = useState<string | null>(null)
  const label = tierSectionLabel(tier)
  const shown = requirementsOfTier(requirements, tab, tier)
  const addable = addableToTier(types, requirements, tab, tier)
  const put = usePutRequirement((body) => {
    const name = types.find((t) => t.id === body.certification_id)?.name ?? 'Certification'
    const existed = requirements.some((r) => r.tier_level === tier && r.certification_id === body.certification_id)
    announce(existed ? `${name} is now ${body.is_required ? 'required' : 'optional'} for ${label}.` : `${name} added to ${label} as ${body.is_required ? 'required' : 'optional'}.`)
    if (!existed) setPicked('')
  })
  const remove = useDeleteRequirement((r) => {
    const next = neighbourAfterRemoval(
      shown.map((x) => x.id),
      r.id,
    )
    focusLater(...(next === undefined ? [ADMIN_FOCUS.requirementPicker(tier)] : [ADMIN_FOCUS.requirementRemove(next), ADMIN_FOCUS.requirementPicker(tier)]))
    announce(`${r.certification.name} removed from ${label}.`)
  })
  const failure = put.error ?? remove.error
  return (
    <div className="pk-stack pk-gap-l">
      <h4 className="pk-m0">{label} requirements</h4>
      {shown.length === 0 ? (
        <EmptyState>No certifications are listed for {label} yet.</EmptyState>
      ) : (
        <ul className="ct-list">
          {shown.map((r) => (
            <li key={r.id} className="pk-row pk-between">
              <span>
                {r.certification.name} <span className="pk-muted">({r.certification.code})</span>{' '}
                <Badge tone={r.is_required ? 'blue' : 'grey'}>{r.is_required ? 'Required' : 'Optional'}</Badge>
              </span>
              <span className="pk-row pk-gap-m">
                <label className="pk-check">
                  <input
                    type="checkbox"
                    checked={r.is_required}
                    aria-label={`Required for ${label}: ${r.certification.name}`}
                    onChange={(e) => put.mutate({ tier_level: tier, certification_id: r.certification_id, is_required: e.target.checked })}
                  />
                  <span aria-hidden="true">Required</span>
                </label>
                <Button
                  size="small"
                  variant="secondary"
                  ref={target(ADMIN_FOCUS.requirementRemove(r.id))}
                  aria-label={`Remove ${r.certification.name} from ${label}`}
                  aria-disabled={remove.isPending || undefined}
                  onClick={() => {
                    if (!remove.isPending) remove.mutate(r)
                  }}
                >
                  Remove
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="pk-row pk-items-end">
        {/* The picker is where focus goes when the last requirement of the tier is removed. */}
        <div ref={(el) => target(ADMIN_FOCUS.requirementPicker(tier))(el?.querySelector('select') ?? null)} className="pk-grow-256 pk-min-w0">
          <Select
            label={`Certification to add to ${label}`}
            placeholder={addable.length === 0 ? 'No certification left to add' : 'Select a certification'}
            options={addable.map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }))}
            value={picked}
            error={pickError}
            onChange={(e) => {
              setPicked(e.target.value)
              setPickError(null)
            }}
          />
        </div>
        <label className="pk-check pk-min-h-control">
          <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} />
          Required
        </label>
        <Button
          aria-disabled={put.isPending || undefined}
          onClick={() => {
            if (put.isPending) return
            if (!picked) {
              setPickError('Please select a certification')
              return
            }
            put.mutate({ tier_level: tier, certification_id: Number(picked), is_required: required })
          }}
        >
          Add Requirement
        </Button>
      </div>
      {failure ? <Alert>{errorMessage(failure, REQUIREMENT_FAILED)}</Alert> : null}
    </div>
  )
}

/** One collapsible tier section (admin §2): the tab's types of that tier and the tier's requirements. */
export const TierSection = ({
  expanded,
  onToggle,
  onEdit,
  onDelete,
  ...props
}: TierProps & {
  expanded: boolean
  onToggle: () => void
  onEdit: (t: CertificationType) => void
  onDelete: (t: CertificationType) => void
}) => {
  const { tier, tab, types, requirements, target } = props
  const bodyId = useId()
  const rows = typesOfTier(types, tab, tier)
  const reqCount = requirementsOfTier(requirements, tab, tier).length
  const label = tierSectionLabel(tier)
  return (
    <section className="pk-stack pk-gap-l">
      <h3 className="pk-m0">
        <button type="button" className="ct-tier-toggle" aria-expanded={expanded} aria-controls={bodyId} onClick={onToggle}>
          <span>
            {label}{' '}
            <span className="pk-muted pk-fw-medium pk-fs-15">
              ({rows.length} {rows.length === 1 ? 'certification' : 'certifications'}, {reqCount} {reqCount === 1 ? 'requirement' : 'requirements'})
            </span>
          </span>
        </button>
      </h3>
      <div id={bodyId} hidden={!expanded} className="pk-stack pk-gap-xl pk-pl-xs">
        {rows.length === 0 ? (
          <EmptyState>
            No {label} certifications{tab === 'All' ? '' : ` for ${tab}`}.
          </EmptyState>
        ) : (
          // On a phone each type is a card naming its code, department and the rest.
          <DataTable className="pk-table--stack">
            <caption className="pk-visually-hidden">{label} certifications</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Code</th>
                <th scope="col">Department</th>
                <th scope="col">Validity</th>
                <th scope="col">Renewed by</th>
                <th scope="col">Proof</th>
                <th scope="col">Status</th>
                <th scope="col">Holders</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    {t.training_link ? (
                      <a href={t.training_link} target="_blank" rel="noopener noreferrer">
                        {t.name}
                      </a>
                    ) : (
                      t.name
                    )}
                    {t.description ? (
                      <>
                        <br />
                        <span className="pk-muted pk-fw-normal">{t.description}</span>
                      </>
                    ) : null}
                  </th>
                  <td data-label="Code">{t.code}</td>
                  <td data-label="Department">{t.department ?? 'All departments'}</td>
                  <td data-label="Validity">{validityLabel(t.validity_period)}</td>
                  <td data-label="Renewed by">{renewedByText(t)}</td>
                  <td data-label="Proof">{t.upload_required ? 'Required' : 'Not required'}</td>
                  <td data-label="Status">
                    <Badge tone={t.is_active ? 'green' : 'grey'}>{t.is_active ? 'Active' : 'Inactive'}</Badge>
                  </td>
                  <td data-label="Holders">{t.holders ?? '—'}</td>
                  <td>
                    <div className="pk-row pk-gap-s pk-nowrap">
                      <Button size="small" variant="secondary" ref={target(ADMIN_FOCUS.edit(t.id))} aria-label={`Edit ${t.name}`} onClick={() => onEdit(t)}>
                        Edit
                      </Button>
                      <Button size="small" variant="danger" ref={target(ADMIN_FOCUS.remove(t.id))} aria-label={`Delete ${t.name}`} onClick={() => onDelete(t)}>
                        Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
        <RequirementsEditor {...props} />
      </div>
    </section>
  )
}
