import {
  BRANCHES,
  DEPARTMENTS,
  formatRatio,
  formatUsd,
  ratioColour,
  REMOTES,
  TEAM_MESSAGES,
  todayIso,
  type ManualRevenueBody,
  type RevenueRecord,
  type User,
} from '@portal/contracts'
import {
  Alert,
  Button,
  ConfirmDialog,
  DataTable,
  EmptyState,
  errorMessage,
  focusFirstInvalid,
  formatDate,
  formatMonth,
  Select,
  Spinner,
  TextField,
  usePageHeading,
  type Announcement,
  type RemoteProps,
} from '@portal/ui-kit'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Badge, exposed, Notice, LoadFailure } from '../shared/index.ts'
import { TrendChart, trendPoints } from '../team/index.ts'
import { useRecentEntries, useRevenueHistory, useSaveRevenue, useTechnicians } from './data/apiHooks.ts'
import { checkRevenueForm, EMPTY_FORM, liveRatio, payRequired, recordedMonth, SUCCESS_MS, type RevenueForm, type RevenueFormErrors } from './revenue-form.ts'

interface TechnicianFilters {
  search: string
  branch: string
  department: string
}

/** Technicians matching the filters (name, e-mail or employee id holds every word of the search). */
export const filterTechnicians = (users: readonly User[], f: TechnicianFilters): User[] => {
  const words = f.search.trim().toLowerCase().split(/\s+/).filter(Boolean)
  return users.filter((u) => {
    const text = [u.name, u.email, u.employee_id].filter(Boolean).join(' ').toLowerCase()
    return (!f.branch || u.branch === f.branch) && (!f.department || u.department === f.department) && words.every((w) => text.includes(w))
  })
}

/** A technician as the picker offers them: the e-mail (and employee id) beside the name tell two of the same name apart. */
export const technicianOption = (u: User): string =>
  `${u.name} (${[u.email, u.employee_id ? `ID ${u.employee_id}` : null].filter(Boolean).join(' · ')})${u.branch ? ` · ${u.branch}` : ''}`

const RatioBadge = ({ ratio }: { ratio: number | null }) =>
  ratio === null ? <span className="pk-muted">No pay data</span> : <Badge tone={ratioColour(ratio)}>{formatRatio(ratio)}</Badge>

/** Recent Entries: the last 10 records entered or updated, newest first. */
export const RecentEntriesTable = ({ entries }: { entries: readonly RevenueRecord[] }) =>
  entries.length === 0 ? (
    <EmptyState>No revenue has been entered yet.</EmptyState>
  ) : (
    // Wider than a phone: the table scrolls in a box the keyboard can reach and a screen reader names;
    // no column stays pinned (the last one is a date, not the row's actions), so none hides the amounts.
    <DataTable labelledBy="recent-title" region="Recent Entries (scrolls sideways)" wrapClassName="ct-scroll-all">
      <thead>
        <tr>
          <th scope="col">Technician</th>
          <th scope="col">Month</th>
          <th scope="col">Gross Revenue</th>
          <th scope="col">Pay Amount</th>
          <th scope="col">Rev/Pay Ratio</th>
          <th scope="col">Entered</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id}>
            <td>
              {e.user.name}
              <br />
              <span className="pk-muted">
                {e.user.branch ?? 'Branch not set'} · {e.user.department ?? 'Department not set'}
              </span>
            </td>
            <td className="ct-nowrap">{formatMonth(e.month)}</td>
            <td className="ct-nowrap">{formatUsd(e.gross_revenue)}</td>
            <td className="ct-nowrap">{e.pay_amount === null ? <span className="pk-muted">Not entered</span> : formatUsd(e.pay_amount)}</td>
            <td>
              <RatioBadge ratio={e.rev_pay_ratio} />
            </td>
            <td className="ct-nowrap">{formatDate(e.updated_at)}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  )

/** The chosen technician's last six months, drawn. */
const TechnicianTrend = ({ user, thisMonth }: { user: User; thisMonth: string }) => {
  const history = useRevenueHistory(user.id)
  return (
    <section className="pk-card pk-stack" aria-labelledby="trend-title">
      <h2 id="trend-title">Revenue Trend: {user.name}</h2>
      {history.isPending ? (
        <Spinner label="Loading revenue..." />
      ) : history.isError ? (
        <Alert>{errorMessage(history.error, TEAM_MESSAGES.loadRevenue)}</Alert>
      ) : (
        <TrendChart points={trendPoints(history.data, thisMonth)} title={`Gross revenue of ${user.name}, last 6 months`} />
      )}
    </section>
  )
}

const payText = (pay: number | null) => (pay === null ? 'no pay entered' : `pay ${formatUsd(pay)}`)

/** A month already recorded: what is there, and what replacing it would store. */
const ReplaceQuestion = ({ recorded, body }: { recorded: RevenueRecord; body: ManualRevenueBody }) => (
  <p>
    {recorded.user.name} already has revenue for {formatMonth(recorded.month)}: gross {formatUsd(recorded.gross_revenue)}, {payText(recorded.pay_amount)}. Replace it with gross{' '}
    {formatUsd(body.gross_revenue)}, {payText(body.pay_amount ?? null)}?
  </p>
)

/** mf_certifications/RevenueEntry: /admin/revenue-entry (learner §2 Revenue entry, §5, §8). */
const RevenueEntryPage = (_props: RemoteProps) => {
  const headingRef = usePageHeading('Revenue Entry')
  const technicians = useTechnicians()
  const recent = useRecentEntries()
  const [filters, setFilters] = useState<TechnicianFilters>({ search: '', branch: '', department: '' })
  const [form, setForm] = useState<RevenueForm>(EMPTY_FORM)
  const [errors, setErrors] = useState<RevenueFormErrors>({})
  // A required field was left empty: learner §5's message shows above Save, each field says its own.
  const [missing, setMissing] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const [success, setSuccess] = useState<Announcement | null>(null)
  // A month recorded already: the entry waits for the admin to confirm replacing it (decision 0039).
  const [replacing, setReplacing] = useState<{ recorded: RevenueRecord; body: ManualRevenueBody } | null>(null)
  const save = useSaveRevenue((answer) => {
    // learner §8's success message either way; a replaced month says so after it.
    setSuccess((s) => ({ text: TEAM_MESSAGES.revenueSaved, ...(answer.updated ? { detail: TEAM_MESSAGES.revenueUpdated } : {}), id: (s?.id ?? 0) + 1 }))
    setForm((f) => ({ ...f, gross_revenue: '', pay_amount: '' }))
  })

  // The success message clears after 3 s (learner §8).
  useEffect(() => {
    if (!success) return undefined
    const t = setTimeout(() => setSuccess(null), SUCCESS_MS)
    return () => clearTimeout(t)
  }, [success])

  const shown = filterTechnicians(technicians.data ?? [], filters)
  const chosen = technicians.data?.find((u) => u.id === form.user_id) ?? null
  const ratio = liveRatio(form)
  const set = (key: keyof RevenueForm) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }))
    setErrors((e) => ({ ...e, [key]: undefined }))
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (save.isPending) return
    const checked = checkRevenueForm(form)
    if ('errors' in checked) {
      setErrors(checked.errors)
      setMissing(checked.missing)
      // After the render that marks the fields: the first one is read with its message.
      queueMicrotask(() => focusFirstInvalid(formRef.current))
      return
    }
    setErrors({})
    setMissing(false)
    save.mutate(checked.body, {
      onError: (err) => {
        const recorded = recordedMonth(err)
        if (recorded) setReplacing({ recorded, body: checked.body })
      },
    })
  }
  const cancelReplace = () => {
    setReplacing(null)
    save.reset()
  }
  return (
    <div className="pk-stack">
      <h1 ref={headingRef} tabIndex={-1}>
        Revenue Entry
      </h1>
      <section className="pk-card pk-stack" aria-labelledby="entry-title">
        <h2 id="entry-title">Enter Monthly Revenue</h2>
        {technicians.isError ? <Alert>{errorMessage(technicians.error, TEAM_MESSAGES.fetchUsers)}</Alert> : null}
        <div className="ct-filters" role="search" aria-label="Filter technicians">
          <TextField
            label="Search Technicians"
            type="search"
            placeholder="Name, e-mail or employee ID"
            value={filters.search}
            onChange={(e) => setFilters((f) => ({ ...f, search: e.target.value }))}
          />
          <Select
            label="Filter by Branch"
            placeholder="All Branches"
            options={BRANCHES.map((b) => ({ value: b, label: b }))}
            value={filters.branch}
            onChange={(e) => setFilters((f) => ({ ...f, branch: e.target.value }))}
          />
          <Select
            label="Filter by Department"
            placeholder="All Departments"
            options={DEPARTMENTS.map((d) => ({ value: d, label: d }))}
            value={filters.department}
            onChange={(e) => setFilters((f) => ({ ...f, department: e.target.value }))}
          />
        </div>
        <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
          <div className="ct-filters ct-filters--fields">
            <Select
              label="Technician"
              placeholder={technicians.isPending ? 'Loading technicians...' : `Select a technician (${shown.length})`}
              options={shown.map((u) => ({ value: u.id, label: technicianOption(u) }))}
              value={shown.some((u) => u.id === form.user_id) ? form.user_id : ''}
              onChange={(e) => set('user_id')(e.target.value)}
              error={errors.user_id}
              required
            />
            <TextField label="Month" type="month" required max={todayIso().slice(0, 7)} value={form.month} onChange={(e) => set('month')(e.target.value)} error={errors.month} />
            <TextField
              label="Gross Revenue"
              type="number"
              inputMode="decimal"
              min="0"
              step="0.01"
              required
              value={form.gross_revenue}
              onChange={(e) => set('gross_revenue')(e.target.value)}
              error={errors.gross_revenue}
            />
            <TextField
              label={payRequired(form.month) ? 'Pay Amount' : 'Pay Amount (optional)'}
              type="number"
              inputMode="decimal"
              min="0"
              step="0.01"
              required={payRequired(form.month)}
              hint={TEAM_MESSAGES.payHint}
              value={form.pay_amount}
              onChange={(e) => set('pay_amount')(e.target.value)}
              error={errors.pay_amount}
            />
          </div>
          <p className="pk-m0" aria-live="polite">
            Rev/Pay Ratio: {ratio === null ? <span className="pk-muted">shown when revenue and pay are both above 0</span> : <RatioBadge ratio={ratio} />}
          </p>
          {missing && (errors.user_id || errors.month || errors.gross_revenue) ? <Alert>{TEAM_MESSAGES.requiredFields}</Alert> : null}
          {save.isError && !replacing ? <Alert>{errorMessage(save.error, TEAM_MESSAGES.saveRevenueFailed)}</Alert> : null}
          <Notice notice={success} />
          <div>
            <Button type="submit" aria-disabled={save.isPending || undefined}>
              {save.isPending ? 'Saving...' : 'Save Revenue'}
            </Button>
          </div>
        </form>
      </section>
      <ConfirmDialog
        open={replacing !== null}
        title="Replace Revenue Entry?"
        confirmLabel="Replace Entry"
        busy={save.isPending}
        onCancel={cancelReplace}
        onConfirm={() => replacing && save.mutate({ ...replacing.body, replace: true }, { onSuccess: () => setReplacing(null) })}
      >
        {replacing ? <ReplaceQuestion recorded={replacing.recorded} body={replacing.body} /> : null}
        {replacing && save.isError && !recordedMonth(save.error) ? <Alert>{errorMessage(save.error, TEAM_MESSAGES.saveRevenueFailed)}</Alert> : null}
      </ConfirmDialog>
      {chosen ? <TechnicianTrend user={chosen} thisMonth={todayIso().slice(0, 7)} /> : null}
      <section className="pk-card pk-stack" aria-labelledby="recent-title">
        <h2 id="recent-title">Recent Entries</h2>
        {recent.isPending ? (
          <Spinner label="Loading recent entries..." />
        ) : recent.isError ? (
          <LoadFailure error={recent.error} text={errorMessage(recent.error, TEAM_MESSAGES.loadRevenue)} onRetry={() => void recent.refetch()} size="small" />
        ) : (
          <RecentEntriesTable entries={recent.data} />
        )}
      </section>
    </div>
  )
}

export default exposed(RevenueEntryPage)

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_certifications.version
