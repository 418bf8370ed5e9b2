import {
  COMPLIANCE_MEASURES,
  BRANCHES,
  DEPARTMENTS,
  departmentsOf,
  REMOTES,
  TEAM_MESSAGES,
  tierLabel,
  todayIso,
  type Branch,
  type TeamMemberRow,
  type TeamSort,
  type TeamSummary,
} from '@portal/contracts'
import { Alert, Button, DataTable, EmptyState, errorMessage, Select, SortHeader as KitSortHeader, Spinner, TextField, usePageHeading, type RemoteProps } from '@portal/ui-kit'
import { useEffect, useState, type ReactNode } from 'react'
import { Badge, exposed, saveBlob, RouteLink, LoadFailure } from '../shared/index.ts'
import { exportTeam } from './api.ts'
import { useTeam } from './data/apiHooks.ts'
import { PendingPromotions } from './PendingPromotions.tsx'
import {
  ariaSort,
  issuesView,
  locationText,
  nextOrder,
  NO_FILTERS,
  overdueCellText,
  overdueSummaryText,
  progressView,
  teamSearch,
  teamStateFromSearch,
  type TeamFilters,
  type TeamOrder,
} from './team-view.ts'

export const PAGE_SIZE = 50

/** What the table holds, read after each change of the filters. */
export const teamCount = (total: number, filtered: boolean): string =>
  filtered ? `${total} ${total === 1 ? 'member matches' : 'members match'} the filters` : `${total} ${total === 1 ? 'member' : 'members'}`

/** Total Team, Compliant, Avg Progress, Expired, Expiring Soon (learner §2) and Overdue (issue 24), from the same query as the table. */
export const SummaryCards = ({ summary }: { summary: TeamSummary }) => {
  const cards: [string, ReactNode, string?][] = [
    ['Total Team', summary.total_team],
    // Learner §9: compliant = completion ≥ 100, the "Requirements met" measure (issue 23).
    ['Compliant', summary.compliant, `${COMPLIANCE_MEASURES.requirementsMet.label}: ${COMPLIANCE_MEASURES.requirementsMet.help}`],
    ['Avg Progress', summary.avg_progress === null ? 'No members' : `${summary.avg_progress}%`],
    ['Expired', summary.expired > 0 ? <Badge tone="red">{String(summary.expired)}</Badge> : 0],
    ['Expiring Soon', summary.expiring_soon > 0 ? <Badge tone="yellow">{String(summary.expiring_soon)}</Badge> : 0],
    // Members with an overdue assignment, and how many assignments they have overdue in all.
    ['Overdue', summary.overdue_members > 0 ? <Badge tone="red">{overdueSummaryText(summary.overdue_members, summary.overdue_assignments)}</Badge> : 0],
  ]
  return (
    <section aria-label="Team summary">
      <dl className="ct-figures">
        {cards.map(([label, value, help]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd aria-describedby={help ? 'team-compliant-help' : undefined}>{value}</dd>
            {help ? (
              <dd id="team-compliant-help" className="ct-figure-help pk-muted">
                {help}
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
    </section>
  )
}

const SortHeader = ({ order, column, onSort, children }: { order: TeamOrder; column: TeamSort; onSort: (c: TeamSort) => void; children: string }) => {
  return (
    <KitSortHeader sort={ariaSort(order, column)} onSort={() => onSort(column)}>
      {children}
    </KitSortHeader>
  )
}

/** The team table: Technician, Location, Progress, Issues, Overdue (issue 24), Tier and View (learner §2, §9 colours). */
export const TeamTable = ({
  rows,
  order,
  onSort,
  viewPath,
  navigate,
}: {
  rows: readonly TeamMemberRow[]
  order: TeamOrder
  onSort: (column: TeamSort) => void
  viewPath: (id: string) => string
  navigate: (to: string) => void
}) => (
  // On a phone each member is a card that names every figure, under a "Sort by" row of the headers.
  <DataTable className="pk-table--stack">
    <caption className="pk-visually-hidden">Team members</caption>
    <thead>
      <tr>
        <SortHeader order={order} column="name" onSort={onSort}>
          Technician
        </SortHeader>
        <SortHeader order={order} column="location" onSort={onSort}>
          Location
        </SortHeader>
        <SortHeader order={order} column="progress" onSort={onSort}>
          Progress
        </SortHeader>
        <SortHeader order={order} column="issues" onSort={onSort}>
          Issues
        </SortHeader>
        <SortHeader order={order} column="overdue" onSort={onSort}>
          Overdue
        </SortHeader>
        <SortHeader order={order} column="tier" onSort={onSort}>
          Tier
        </SortHeader>
        <th scope="col">Actions</th>
      </tr>
    </thead>
    <tbody>
      {rows.map((m) => {
        const progress = progressView(m.completion_percentage)
        const issues = issuesView(m)
        return (
          <tr key={m.id}>
            <td>
              <strong>{m.name}</strong>
              <br />
              <span className="pk-muted">{m.email}</span>
              {m.employee_id ? <span className="pk-muted"> · {m.employee_id}</span> : null}
            </td>
            <td data-label="Location">{locationText(m)}</td>
            <td data-label="Progress">
              <Badge tone={progress.tone}>{progress.compliant ? `${progress.text} Compliant` : progress.text}</Badge>
            </td>
            <td data-label="Issues">{issues.tone ? <Badge tone={issues.tone}>{issues.text}</Badge> : <span className="pk-muted">{issues.text}</span>}</td>
            <td data-label="Overdue">
              {m.overdue_assignments > 0 ? <Badge tone="red">{overdueCellText(m.overdue_assignments)}</Badge> : <span className="pk-muted">{overdueCellText(0)}</span>}
            </td>
            <td data-label="Tier">{tierLabel(m.tier.current_tier)}</td>
            <td>
              <RouteLink to={viewPath(m.id)} navigate={navigate} className="pk-btn pk-btn--secondary pk-btn--small" label={`View ${m.name}`}>
                View
              </RouteLink>
            </td>
          </tr>
        )
      })}
    </tbody>
  </DataTable>
)

/** The search text once typing pauses, so each keystroke does not cost a query. */
const useSettled = (value: string, ms = 300) => {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return settled
}

/** Export: the filtered team as team-certifications-{date}.xlsx, with a progress state and the §8 message on failure. */
const ExportButton = ({ filters, order }: { filters: TeamFilters; order: TeamOrder }) => {
  const [state, setState] = useState<{ busy: boolean; error: string | null; done: string | null }>({ busy: false, error: null, done: null })
  const run = async () => {
    if (state.busy) return
    setState({ busy: true, error: null, done: null })
    try {
      const blob = await exportTeam({ branch: filters.branch, department: filters.department, search: filters.search.trim(), overdue: filters.overdue ? 'true' : '', ...order })
      const name = `team-certifications-${todayIso()}.xlsx`
      saveBlob(blob, name)
      setState({ busy: false, error: null, done: `Exported ${name}.` })
    } catch (e) {
      setState({ busy: false, error: errorMessage(e, TEAM_MESSAGES.exportFailed), done: null })
    }
  }
  return (
    <div className="pk-stack pk-gap-s pk-items-end">
      {/* aria-disabled, not disabled, while exporting: the pressed button keeps focus. */}
      <Button variant="secondary" aria-disabled={state.busy || undefined} onClick={() => void run()}>
        {state.busy ? 'Exporting...' : 'Export'}
      </Button>
      <div role="status" className="pk-muted pk-fs-14">
        {state.busy ? 'Preparing the spreadsheet...' : state.done}
      </div>
      {state.error ? <Alert>{state.error}</Alert> : null}
    </div>
  )
}

/**
 * The filters and order in the page's address, so a reload or Back keeps them. Written with
 * history.replaceState (the router's own state kept), not the host's navigate: a navigation moves
 * focus to the page heading, which would take it from the control just used.
 */
const useStateInAddress = (filters: TeamFilters, order: TeamOrder) => {
  const search = teamSearch(filters, order)
  useEffect(() => {
    const { pathname, hash, search: shown } = window.location
    if (shown !== search) window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`)
  }, [search])
}

/**
 * mf_certifications/TeamDashboard: /manager/dashboard (learner §2 Team dashboard). A manager sees
 * their scope, an admin everyone (the service decides); admins also decide pending promotions here.
 */
const TeamDashboardPage = ({ user, navigate }: RemoteProps) => {
  const headingRef = usePageHeading('Team Dashboard')
  const [initial] = useState(() => teamStateFromSearch(window.location.search))
  const [filters, setFilters] = useState<TeamFilters>(initial.filters)
  const [order, setOrder] = useState<TeamOrder>(initial.order)
  const [offset, setOffset] = useState(0)
  const search = useSettled(filters.search.trim())
  useStateInAddress({ ...filters, search }, order)
  const query = {
    branch: filters.branch,
    department: filters.department,
    search,
    overdue: filters.overdue ? ('true' as const) : undefined,
    sort: order.sort,
    order: order.order,
    limit: PAGE_SIZE,
    offset,
  }
  const team = useTeam(query)
  const change = (next: Partial<TeamFilters>) => {
    setFilters((f) => ({ ...f, ...next }))
    setOffset(0)
  }
  const departments = filters.branch ? departmentsOf(filters.branch as Branch) : DEPARTMENTS
  const filtered = filters.search !== '' || filters.branch !== '' || filters.department !== '' || filters.overdue
  const data = team.data
  const viewPath = (id: string) => (user.is_admin ? `/admin/technician/${id}` : `/manager/technician/${id}`)
  return (
    <div className="pk-stack">
      <div className="pk-row pk-between pk-items-start">
        <h1 ref={headingRef} tabIndex={-1}>
          Team Dashboard
        </h1>
        <ExportButton filters={filters} order={order} />
      </div>
      {user.is_admin ? <PendingPromotions /> : null}
      <p className="pk-muted pk-m0">
        {user.is_admin
          ? `Your team is every technician: ${COMPLIANCE_MEASURES.technicians.charAt(0).toLowerCase()}${COMPLIANCE_MEASURES.technicians.slice(1)}`
          : 'Your team is the technicians of the branches and departments you manage, managers included; you are not counted in your own team.'}
      </p>
      {data ? <SummaryCards summary={data.summary} /> : null}
      <section className="pk-card pk-stack" aria-labelledby="team-title">
        <h2 id="team-title">Team Members</h2>
        <div className="ct-filters" role="search" aria-label="Filter the team">
          <TextField label="Search" type="search" placeholder="Name, e-mail or employee ID" value={filters.search} onChange={(e) => change({ search: e.target.value })} />
          <Select
            label="Branch"
            placeholder="All Branches"
            options={BRANCHES.map((b) => ({ value: b, label: b }))}
            value={filters.branch}
            onChange={(e) => {
              const branch = e.target.value
              const keep = !branch || departmentsOf(branch as Branch).includes(filters.department as never)
              change({ branch, department: keep ? filters.department : '' })
            }}
          />
          <Select
            label="Department"
            placeholder="All Departments"
            options={departments.map((d) => ({ value: d, label: d }))}
            value={filters.department}
            onChange={(e) => change({ department: e.target.value })}
          />
          <label className="pk-check pk-min-h-control">
            <input type="checkbox" checked={filters.overdue} onChange={(e) => change({ overdue: e.target.checked })} />
            Overdue only
          </label>
          <div>
            <Button variant="secondary" aria-disabled={!filtered || undefined} onClick={() => filtered && change(NO_FILTERS)}>
              Clear Filters
            </Button>
          </div>
        </div>
        <p role="status" className="pk-muted pk-m0 pk-fs-14">
          {data ? teamCount(data.total, filtered) : ''}
        </p>
        {team.isError ? (
          <LoadFailure error={team.error} text={errorMessage(team.error, TEAM_MESSAGES.loadTeam)} onRetry={() => void team.refetch()} />
        ) : !data ? (
          <Spinner label="Loading team..." />
        ) : data.teamMembers.length === 0 ? (
          <EmptyState>{filtered ? 'No team members match these filters.' : 'No team members yet.'}</EmptyState>
        ) : (
          <>
            <TeamTable
              rows={data.teamMembers}
              order={order}
              onSort={(column) => {
                setOrder((o) => nextOrder(o, column))
                setOffset(0)
              }}
              viewPath={viewPath}
              navigate={navigate}
            />
            {data.total > PAGE_SIZE ? (
              <nav className="pk-row pk-justify-end" aria-label="Team pages">
                <Button size="small" variant="secondary" aria-disabled={offset === 0 || undefined} onClick={() => offset > 0 && setOffset(offset - PAGE_SIZE)}>
                  Previous Page
                </Button>
                <span aria-current="page">
                  {offset + 1}-{Math.min(offset + PAGE_SIZE, data.total)} of {data.total}
                </span>
                <Button
                  size="small"
                  variant="secondary"
                  aria-disabled={offset + PAGE_SIZE >= data.total || undefined}
                  onClick={() => offset + PAGE_SIZE < data.total && setOffset(offset + PAGE_SIZE)}
                >
                  Next Page
                </Button>
              </nav>
            ) : null}
          </>
        )}
      </section>
    </div>
  )
}

export default exposed(TeamDashboardPage)

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_certifications.version
