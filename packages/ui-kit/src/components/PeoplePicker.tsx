import { useId, type ReactNode } from 'react'
import { TextField } from './TextField.tsx'

/** A person offered for choosing. */
export interface PickablePerson {
  id: string
  name: string
  /** Shown beside the name, so two people of the same name can be told apart. */
  email?: string | null
  employeeId?: string | null
  /** A second, quieter line (e.g. "Anchorage · Testing"). */
  detail?: string | null
  /** A mark after the name (e.g. "Assigned"). */
  badge?: string | null
}

/** What tells a person apart from another of the same name: "sue@example.com · ID E0042". */
export const personKey = (p: Pick<PickablePerson, 'email' | 'employeeId'>): string => [p.email, p.employeeId ? `ID ${p.employeeId}` : null].filter(Boolean).join(' · ')

/** The people whose name, e-mail, employee id or detail hold every word of the search (case-insensitive). */
export const filterPeople = <P extends PickablePerson>(people: readonly P[], search: string): P[] => {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...people]
  return people.filter((p) => {
    const text = [p.name, p.email, p.employeeId, p.detail].filter(Boolean).join(' ').toLowerCase()
    return words.every((w) => text.includes(w))
  })
}

export interface PeoplePickerProps {
  /** The name of the list of checkboxes ("Users to assign"). */
  legend: string
  /** Everyone that may be chosen (after the caller's own filters, before the search). */
  people: readonly PickablePerson[]
  selected: readonly string[]
  onChange: (ids: string[]) => void
  search: string
  onSearch: (search: string) => void
  searchLabel?: string
  /**
   * Why the choice is refused: shown above the list (as an alert), the search field marked invalid
   * and both it and the list described by it, so focus sent to the first invalid field lands here.
   */
  error?: string | null
  /** How many are listed at once; the status line says when the search should narrow it. */
  limit?: number
  /** List the chosen ones first. */
  chosenFirst?: boolean
  autoFocus?: boolean
  /** The status line's start (default "{n} selected"). */
  summary?: ReactNode
  /** Controls between the search and the list (filters, Select All). */
  children?: ReactNode
}

/**
 * A searchable checkbox list of people, each shown with their e-mail or employee id beside the
 * name (two "Sue Seattle" read differently, to the eye and in the checkbox's accessible name).
 */
export const PeoplePicker = ({
  legend,
  people,
  selected,
  onChange,
  search,
  onSearch,
  searchLabel = 'Search people',
  error,
  limit = 100,
  chosenFirst,
  autoFocus,
  summary,
  children,
}: PeoplePickerProps) => {
  const found = filterPeople(people, search)
  if (chosenFirst) found.sort((a, b) => Number(selected.includes(b.id)) - Number(selected.includes(a.id)))
  const shown = found.slice(0, limit)
  const errorId = useId()
  const described = error ? errorId : undefined
  const toggle = (id: string) => onChange(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id])
  return (
    <div className="pk-stack pk-gap-s">
      <TextField
        label={searchLabel}
        type="search"
        placeholder="Search by name, email or employee ID"
        autoFocus={autoFocus}
        value={search}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => onSearch(e.target.value)}
      />
      {children}
      <p className="pk-muted pk-m0 pk-fs-14" role="status">
        {summary ?? `${selected.length} selected`}
        {found.length > shown.length ? ` · showing ${shown.length} of ${found.length} matching; search to narrow` : ''}
      </p>
      {error ? (
        <span id={errorId} role="alert" className="pk-error">
          {error}
        </span>
      ) : null}
      <fieldset aria-describedby={described} className="pk-border pk-rounded-sm pk-max-h280 pk-scroll-y pk-m0 pk-pad-s2">
        <legend className="pk-visually-hidden">{legend}</legend>
        {shown.length === 0 ? (
          <p className="pk-muted pk-m0">No people found</p>
        ) : (
          shown.map((p) => {
            const key = personKey(p)
            return (
              <label key={p.id} className="pk-check pk-fw-medium pk-py-xs">
                <input type="checkbox" checked={selected.includes(p.id)} onChange={() => toggle(p.id)} />
                <span>
                  {p.name}
                  {key ? <span className="pk-muted"> ({key})</span> : null}
                  {p.detail ? <span className="pk-muted pk-block pk-fw-normal pk-fs-13">{p.detail}</span> : null}
                </span>
                {p.badge ? <span className="pk-badge">{p.badge}</span> : null}
              </label>
            )
          })
        )}
      </fieldset>
    </div>
  )
}
