import {
  ASSIGNMENT_LIMITS,
  ASSIGNMENT_MESSAGES,
  ASSIGNMENT_STATE_LABELS,
  BRANCHES,
  DEPARTMENTS,
  ExemptionInput,
  type AssignmentReportQuery,
  type AssignmentReportRow,
  type AssignmentRule,
  type AssignmentStateCounts,
} from '@portal/contracts'
import {
  Alert,
  AssignmentStateBadge,
  Button,
  DataTable,
  EmptyState,
  Modal,
  Select,
  Spinner,
  TableHead,
  TextField,
  errorMessage,
  formatDate,
  type Announcement,
} from '@portal/ui-kit'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { fetchReportWorkbook } from './api.ts'
import { useAssignmentReport, useExemption } from './data/apiHooks.ts'
import { dueText as ruleDueText } from './rule-form.ts'
import { NO_REPORT_FILTER, REPORT_PAGE_SIZE, REPORT_STATES, countBars, countsText, dueText, pageOf, workbookName, type ReportFilter } from './report-view.ts'

const M = ASSIGNMENT_MESSAGES

/** How long the search waits for typing to pause before asking the server. */
export const SEARCH_DELAY_MS = 300

/** Saves a Blob under `name` through a temporary link. */
const saveBlob = (blob: Blob, name: string) => {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** `value`, once it has stayed the same for `ms`. */
const useSettled = <T,>(value: T, ms: number): T => {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

const W = 260
const ROW = 22

/** The counts by state as horizontal bars, with the figures in words for screen readers. */
const CountsChart = ({ counts }: { counts: AssignmentStateCounts }) => {
  const id = useId()
  const bars = countBars(counts, W)
  const labelWidth = 130
  return (
    <figure className="pk-m0">
      <svg role="img" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} viewBox={`0 0 ${labelWidth + W + 48} ${bars.length * ROW}`} width="100%" style={{ maxWidth: 520 }}>
        <title id={`${id}-t`}>People by state</title>
        <desc id={`${id}-d`}>{countsText(counts)}</desc>
        {bars.map((b, i) => (
          <g key={b.state} aria-hidden="true">
            <text x={labelWidth - 8} y={i * ROW + 15} fontSize={12} textAnchor="end" fill="currentColor">
              {b.label}
            </text>
            <rect x={labelWidth} y={i * ROW + 4} width={b.length} height={ROW - 8} fill={b.state === 'overdue' ? '#dc2626' : b.state === 'due_soon' ? '#ca8a04' : '#2563eb'} />
            <text x={labelWidth + b.length + 6} y={i * ROW + 15} fontSize={12} fill="currentColor">
              {b.count}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  )
}

/** Mark one person exempt: a required reason (kept in the audit trail). */
const ExemptDialog = ({
  row,
  busy,
  error,
  onExempt,
  onCancel,
}: {
  row: AssignmentReportRow
  busy: boolean
  error: string | null
  onExempt: (reason: string) => void
  onCancel: () => void
}) => {
  const [reason, setReason] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const id = useId()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (busy) return
    const parsed = ExemptionInput.safeParse({ user_id: row.user_id, reason })
    if (!parsed.success) {
      setFieldError(parsed.error.issues.find((i) => i.path[0] === 'reason')?.message ?? parsed.error.issues[0]!.message)
      document.getElementById(`${id}-reason`)?.focus()
      return
    }
    setFieldError(null)
    onExempt(parsed.data.reason)
  }
  return (
    <Modal open title={`Exempt ${row.name}`} onClose={onCancel}>
      <form className="pk-stack" onSubmit={submit} noValidate aria-label={`Exempt ${row.name}`}>
        <p className="pk-m0">
          {row.name} ({row.email}) will no longer be reminded or counted as overdue by this rule. The reason is kept in the audit trail.
        </p>
        <div className="pk-field">
          <label htmlFor={`${id}-reason`}>Reason</label>
          <textarea
            id={`${id}-reason`}
            rows={3}
            required
            maxLength={ASSIGNMENT_LIMITS.maxReasonLength}
            value={reason}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${id}-error` : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
          {fieldError ? (
            <span id={`${id}-error`} className="pk-error">
              {fieldError}
            </span>
          ) : null}
        </div>
        {error ? <Alert>{error}</Alert> : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" aria-disabled={busy || undefined}>
            {busy ? 'Saving...' : 'Exempt'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}

const Figure = ({ label, value }: { label: string; value: number }) => (
  <div className="pk-figure">
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
)

/**
 * The report of one rule: people by state (cards and a bar chart), filters by state, branch,
 * department and name or e-mail, the people page by page, Export to Excel, and per person Exempt
 * (with a reason) or Lift exemption.
 */
export const ReportDialog = ({ rule, onClose }: { rule: AssignmentRule; onClose: () => void }) => {
  const [filter, setFilter] = useState<ReportFilter>(NO_REPORT_FILTER)
  const [offset, setOffset] = useState(0)
  const search = useSettled(filter.search.trim(), SEARCH_DELAY_MS)
  const query: AssignmentReportQuery = {
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.branch ? { branch: filter.branch as AssignmentReportQuery['branch'] } : {}),
    ...(filter.department ? { department: filter.department as AssignmentReportQuery['department'] } : {}),
    ...(search ? { search } : {}),
    limit: REPORT_PAGE_SIZE,
    offset,
  }
  const report = useAssignmentReport(rule.id, query)
  const [exporting, setExporting] = useState(false)
  const [exportError, setExportError] = useState<string | null>(null)
  const [toExempt, setToExempt] = useState<AssignmentReportRow | null>(null)
  const [notice, setNotice] = useState<Announcement | null>(null)
  const exemption = useExemption(rule.id, (result, lifted) => {
    setToExempt(null)
    setNotice((n) => ({ text: result.message || (lifted ? M.exemptionLifted : M.exempted), id: (n?.id ?? 0) + 1 }))
  })
  // A new filter starts again on the first page.
  const set = (key: keyof ReportFilter) => (e: { target: { value: string } }) => {
    setFilter((f) => ({ ...f, [key]: e.target.value }))
    if (key !== 'search') setOffset(0)
  }
  useEffect(() => setOffset(0), [search])

  const download = async () => {
    if (exporting) return
    setExporting(true)
    setExportError(null)
    try {
      const { limit: _limit, offset: _offset, ...filters } = query
      saveBlob(await fetchReportWorkbook(rule.id, filters), workbookName(rule.item_title, report.data?.today ?? new Date().toISOString().slice(0, 10)))
    } catch (err) {
      setExportError(errorMessage(err, M.exportFailed))
    } finally {
      setExporting(false)
    }
  }

  const r = report.data
  const { page, pages } = pageOf(offset, r?.total ?? 0)
  const stateOptions = REPORT_STATES.map((s) => ({ value: s, label: ASSIGNMENT_STATE_LABELS[s] }))
  return (
    <Modal open title={`Report: ${rule.item_title}`} onClose={onClose}>
      <div className="pk-stack pk-wide">
        <p className="pk-muted pk-m0">
          {rule.audience_label} · Due {ruleDueText(rule.due).replace(/^By /, 'by ')}
        </p>
        <div className="pk-grid pk-grid-140 pk-gap-m" role="search" aria-label="Filter the report">
          <Select label="State" placeholder="All states" options={stateOptions} value={filter.state} onChange={set('state')} />
          <Select label="Branch" placeholder="All branches" options={BRANCHES.map((b) => ({ value: b, label: b }))} value={filter.branch} onChange={set('branch')} />
          <Select
            label="Department"
            placeholder="All departments"
            options={DEPARTMENTS.map((d) => ({ value: d, label: d }))}
            value={filter.department}
            onChange={set('department')}
          />
          <TextField label="Search" type="search" placeholder="Name or email" maxLength={200} value={filter.search} onChange={set('search')} />
        </div>
        <div role="status" className="pk-live">
          {notice ? (
            <div key={notice.id} className="pk-alert pk-alert--success">
              {notice.text}
            </div>
          ) : null}
        </div>
        {exemption.isError && !toExempt ? <Alert>{errorMessage(exemption.error, M.exemptFailed)}</Alert> : null}
        {report.isPending ? <Spinner label="Loading the report..." /> : null}
        {report.isError ? <Alert>{errorMessage(report.error, M.loadFailed)}</Alert> : null}
        {r ? (
          <>
            <dl className="pk-figures" aria-label="People by state">
              {REPORT_STATES.map((s) => (
                <Figure key={s} label={ASSIGNMENT_STATE_LABELS[s]} value={r.counts[s]} />
              ))}
            </dl>
            <CountsChart counts={r.counts} />
            <div className="pk-row pk-between pk-items-center">
              <p className="pk-muted pk-m0" role="status">
                {r.total === 1 ? '1 person' : `${r.total} people`}
                {report.isFetching ? ' · updating...' : ''}
              </p>
              <Button variant="secondary" onClick={() => void download()} aria-disabled={exporting || undefined} aria-busy={exporting || undefined}>
                {exporting ? 'Exporting...' : 'Export to Excel'}
              </Button>
            </div>
            {exporting ? <Spinner label="Preparing the Excel file..." /> : null}
            {exportError ? <Alert>{exportError}</Alert> : null}
            {r.rows.length === 0 ? (
              <EmptyState>No people match these filters</EmptyState>
            ) : (
              <DataTable>
                <caption className="pk-visually-hidden">People</caption>
                <TableHead columns={['Name', 'Email', 'Branch', 'Department', 'State', 'Due date', 'Completed', 'Actions']} />
                <tbody>
                  {r.rows.map((row) => {
                    const nameId = `assignment-${rule.id}-person-${row.user_id}`
                    return (
                      <tr key={row.user_id}>
                        <th scope="row" id={nameId}>
                          {row.name}
                        </th>
                        <td>{row.email}</td>
                        <td>{row.branch ?? '—'}</td>
                        <td>{row.department ?? '—'}</td>
                        <td>
                          <AssignmentStateBadge state={row.state} />
                          {row.state === 'exempt' && row.exempt_reason ? <span className="pk-block pk-muted pk-fs-13">{row.exempt_reason}</span> : null}
                        </td>
                        <td>{dueText(row)}</td>
                        <td>{formatDate(row.completed_on)}</td>
                        <td>
                          {row.state === 'exempt' ? (
                            <Button
                              size="small"
                              variant="secondary"
                              aria-describedby={nameId}
                              aria-disabled={exemption.isPending || undefined}
                              onClick={() => !exemption.isPending && exemption.mutate({ user_id: row.user_id, lift: true })}
                            >
                              Lift exemption
                            </Button>
                          ) : (
                            <Button
                              size="small"
                              variant="secondary"
                              aria-describedby={nameId}
                              onClick={() => {
                                exemption.reset()
                                setToExempt(row)
                              }}
                            >
                              Exempt
                            </Button>
                          )}
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </DataTable>
            )}
            {pages > 1 ? (
              <nav className="pk-row pk-justify-end" aria-label="Report pages">
                <Button size="small" variant="secondary" aria-disabled={page <= 1 || undefined} onClick={() => page > 1 && setOffset(offset - REPORT_PAGE_SIZE)}>
                  Previous Page
                </Button>
                <span aria-current="page">
                  Page {page} of {pages}
                </span>
                <Button size="small" variant="secondary" aria-disabled={page >= pages || undefined} onClick={() => page < pages && setOffset(offset + REPORT_PAGE_SIZE)}>
                  Next Page
                </Button>
              </nav>
            ) : null}
          </>
        ) : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
      {toExempt ? (
        <ExemptDialog
          row={toExempt}
          busy={exemption.isPending}
          error={exemption.isError ? errorMessage(exemption.error, M.exemptFailed) : null}
          onExempt={(reason) => exemption.mutate({ user_id: toExempt.user_id, reason })}
          onCancel={() => setToExempt(null)}
        />
      ) : null}
    </Modal>
  )
}
