import { Alert, Button, DataTable, EmptyState, errorMessage, formatDateTime, Spinner, TextField } from '@portal/ui-kit'
import { useState, type FormEvent } from 'react'
import { AUDIT_SOURCES, SOURCE_LABELS, auditQuery, detailsText, emptyFilter, historyLink, mergeTrails, type AuditFilter } from './audit-view.ts'
import { useAuditTrails } from './data/apiHooks.ts'

/** An entry's target, a link to the history it kept when there is one (the host's router follows it; it opens in a new tab too). */
const Target = ({ target, link, navigate }: { target: string; link: string | null; navigate?: (to: string) => void }) =>
  link ? (
    <a
      href={link}
      aria-label={`${target}: certification history`}
      onClick={(e) => {
        if (!navigate || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
        e.preventDefault()
        navigate(link)
      }}
    >
      {target}
    </a>
  ) : (
    <>{target}</>
  )

/**
 * Audit Trail tab: every service's admin changes in one list, filtered by who, what and when
 * (decision 0030); a certification's renewal, replaced proof or deletion links to its history.
 */
export const AuditTrailTab = ({ navigate }: { navigate?: (to: string) => void }) => {
  const [draft, setDraft] = useState<AuditFilter>(emptyFilter)
  const [filter, setFilter] = useState<AuditFilter>(emptyFilter)
  const query = auditQuery(filter)
  const trails = useAuditTrails(query)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setFilter(draft)
  }
  const field = (key: keyof AuditFilter) => ({ value: draft[key], onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })) })
  const failed = AUDIT_SOURCES.filter((_, i) => trails[i]!.isError)
  const entries = mergeTrails(trails.map((t) => t.data ?? []))
  return (
    <div className="pk-stack">
      <h2>Audit Trail</h2>
      <form className="pk-row pk-items-end" onSubmit={submit} aria-label="Filter the audit trail">
        <div className="pk-grow-180">
          <TextField label="Who" placeholder="Name" {...field('actor')} />
        </div>
        <div className="pk-grow-180">
          <TextField label="What" placeholder="Action or target" {...field('action')} />
        </div>
        <div className="pk-w-170">
          <TextField label="From" type="date" {...field('from')} />
        </div>
        <div className="pk-w-170">
          <TextField label="To" type="date" {...field('to')} />
        </div>
        <Button type="submit">Apply Filters</Button>
        <Button
          variant="secondary"
          onClick={() => {
            setDraft(emptyFilter())
            setFilter(emptyFilter())
          }}
        >
          Clear
        </Button>
      </form>
      {failed.map((s) => (
        <Alert key={s}>{`${SOURCE_LABELS[s]}: ${errorMessage(trails[AUDIT_SOURCES.indexOf(s)]!.error, 'Failed to fetch data')}`}</Alert>
      ))}
      {trails.some((t) => t.isPending) ? <Spinner label="Loading the audit trail..." /> : null}
      {!trails.some((t) => t.isPending) && entries.length === 0 ? <EmptyState>No changes recorded for these filters</EmptyState> : null}
      {entries.length > 0 ? (
        // Focusable: the table scrolls sideways on narrow screens and has no controls of its own.
        // On a phone each entry stands as a block of labelled lines (admin styles, `.pk-audit`).
        <DataTable region="Audit trail" wrapClassName="pk-audit">
          <caption className="pk-visually-hidden">Admin changes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Area</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={`${e.service}-${e.id}`}>
                <td data-label="When">{formatDateTime(e.at)}</td>
                <td data-label="Who">{e.actor_name}</td>
                <td data-label="Area">{SOURCE_LABELS[e.service as keyof typeof SOURCE_LABELS] ?? e.service}</td>
                <td data-label="Action">{e.action}</td>
                <td data-label="Target">
                  <Target target={e.target} link={historyLink(e)} navigate={navigate} />
                </td>
                <td data-label="Details" className="pk-muted">
                  {detailsText(e.details)}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
    </div>
  )
}
