import { Button, EmptyState, Select } from '@portal/ui-kit'
import { useId, useRef, useState } from 'react'
import { useRenewingItems } from './data/apiHooks.ts'
import { renewingItemKey, renewingItemLabel, type RenewingItem } from './type-form.ts'

/** As many as the contract takes. */
const MAX_RENEWING = 50

/**
 * "Renewed by" of the type form (issue 24): the courses and exams whose completion (a pass, for an
 * exam) records a new period of the certification. Picked from every course and exam; each chosen
 * one is listed with Remove. What was chosen stays listed (under its stored title) while or if the
 * catalogue does not load.
 */
export const RenewedByField = ({ value, onChange, error }: { value: readonly RenewingItem[]; onChange: (next: RenewingItem[]) => void; error?: string }) => {
  const items = useRenewingItems()
  const [picked, setPicked] = useState('')
  const [pickError, setPickError] = useState<string | null>(null)
  const picker = useRef<HTMLDivElement>(null)
  const legendId = useId()
  const hintId = useId()
  const chosen = new Set(value.map(renewingItemKey))
  const offered = (items.data ?? []).filter((i) => !chosen.has(renewingItemKey(i)))
  const full = value.length >= MAX_RENEWING
  const add = () => {
    const item = offered.find((i) => renewingItemKey(i) === picked)
    if (!item) {
      setPickError('Please select a course or exam')
      return
    }
    onChange([...value, item])
    setPicked('')
  }
  return (
    <fieldset className="pk-stack pk-gap-m pk-border pk-rounded pk-pad pk-min-w0" aria-describedby={hintId}>
      <legend id={legendId} className="pk-fw-semibold">
        Renewed by
      </legend>
      <p id={hintId} className="pk-muted pk-fs-14 pk-m0">
        Completing one of these courses or passing one of these exams records a new period of this certification, from the completion date.
      </p>
      {value.length === 0 ? (
        <EmptyState>No course or exam renews this certification.</EmptyState>
      ) : (
        <ul className="pk-plain-list pk-stack pk-gap-s" aria-labelledby={legendId}>
          {value.map((item) => (
            <li key={renewingItemKey(item)} className="pk-row pk-between">
              <span>{renewingItemLabel(item)}</span>
              <Button
                size="small"
                variant="secondary"
                aria-label={`Remove ${renewingItemLabel(item)}`}
                onClick={() => {
                  onChange(value.filter((v) => renewingItemKey(v) !== renewingItemKey(item)))
                  // The pressed button goes away: focus goes to the picker, where the item is offered again.
                  picker.current?.querySelector('select')?.focus()
                }}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {items.isError ? (
        <div className="pk-row">
          <span className="pk-error">Courses and exams could not be loaded.</span>
          <Button size="small" variant="secondary" onClick={() => void items.refetch()}>
            Try Again
          </Button>
        </div>
      ) : (
        <div className="pk-row pk-items-end">
          <div ref={picker} className="pk-grow-256 pk-min-w0">
            <Select
              label="Course or exam to add"
              placeholder={items.isPending ? 'Loading courses and exams...' : offered.length === 0 ? 'No course or exam left to add' : 'Select a course or exam'}
              options={offered.map((i) => ({ value: renewingItemKey(i), label: renewingItemLabel(i) }))}
              value={picked}
              error={pickError ?? (full ? `At most ${MAX_RENEWING} courses and exams` : error)}
              onChange={(e) => {
                setPicked(e.target.value)
                setPickError(null)
              }}
            />
          </div>
          <Button variant="secondary" aria-disabled={full || undefined} onClick={() => !full && add()}>
            Add
          </Button>
        </div>
      )}
    </fieldset>
  )
}
