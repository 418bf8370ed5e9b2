// @vitest-environment happy-dom
import { ASSIGNMENT_MESSAGES as M, type AssignmentReportRow } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render as renderDom, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, on, type Call } from './edge.test-support.ts'
import { ladderRule, report } from './fixtures.test-support.ts'
import { ReportDialog } from './ReportDialog.tsx'

const REPORT = '/api/admin/assignment-rules/3/report'
const EXEMPTIONS = '/api/admin/assignment-rules/3/exemptions'

const render = () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  renderDom(
    <QueryClientProvider client={client}>
      <ReportDialog rule={ladderRule} onClose={() => undefined} />
    </QueryClientProvider>,
  )
  return screen.getByRole('dialog', { name: 'Report: Ladder Safety' })
}

/** The report's query as sent, without paging. */
const filtersOf = (c: Call) => Object.fromEntries([...c.query].filter(([k]) => k !== 'limit' && k !== 'offset'))
const describedBy = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ')
    .trim()
const exemptionAnswer = (row: AssignmentReportRow, message: string) => ({ json: { message, item_title: 'Ladder Safety', assignment: row } })

let created: string[] = []
beforeEach(() => {
  created = []
  URL.createObjectURL = vi.fn(() => 'blob:report')
  URL.revokeObjectURL = vi.fn()
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('assignment rule report', () => {
  it('shows the counts by state as cards and a chart with its words, and the people with their state and dates', async () => {
    answerFetch(on('GET', REPORT, { json: report() }))
    const dialog = render()
    const table = await within(dialog).findByRole('table', { name: 'People' })
    const cards = dialog.querySelector('dl[aria-label="People by state"]')!
    expect([...cards.querySelectorAll('.pk-figure')].map((f) => `${f.querySelector('dt')!.textContent} ${f.querySelector('dd')!.textContent}`)).toEqual([
      'Overdue 2',
      'Due soon 1',
      'Open 3',
      'Not due yet 0',
      'Completed on time 4',
      'Completed late 1',
      'Exempt 1',
    ])
    const chart = within(dialog).getByRole('img', { name: 'People by state' })
    expect(chart.querySelector('desc')!.textContent).toBe(
      'Overdue: 2 people. Due soon: 1 person. Open: 3 people. Not due yet: 0 people. Completed on time: 4 people. Completed late: 1 person. Exempt: 1 person.',
    )
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Branch', 'Department', 'State', 'Due date', 'Completed', 'Actions'])
    expect(within(table).getByRole('row', { name: /Bo Diaz/ }).textContent).toBe('Bo Diazbo@acme.testPortlandServiceCompleted lateFeb 1, 2026 (next Feb 3, 2027)Feb 3, 2026Exempt')
    const cy = within(table).getByRole('row', { name: /Cy Park/ })
    expect(cy.textContent).toContain('ExemptOn long-term leave')
    expect(within(cy).getByRole('button', { name: 'Lift exemption', description: 'Cy Park' })).toBeTruthy()
    expect(within(within(table).getByRole('row', { name: /Ann Lee/ })).getByRole('button', { name: 'Exempt', description: 'Ann Lee' })).toBeTruthy()
    for (const name of ['State', 'Branch', 'Department']) expect(within(dialog).getByRole('combobox', { name })).toBeTruthy()
    expect(within(dialog).getByRole('searchbox', { name: 'Search' })).toBeTruthy()
  })

  it('asks the server for the filters chosen, from the first page', async () => {
    const edge = answerFetch(on('GET', REPORT, (c) => ({ json: report({ total: c.query.get('search') ? 1 : 120 }) })))
    const dialog = render()
    await within(dialog).findByRole('table', { name: 'People' })
    expect(edge.of('GET', REPORT).map((c) => c.url)).toEqual([`${REPORT}?limit=50&offset=0`])
    // Paging: the next 50.
    expect(within(dialog).getByText('Page 1 of 3')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next Page' }))
    await waitFor(() => expect(edge.calls.at(-1)!.url).toBe(`${REPORT}?limit=50&offset=50`))
    await within(dialog).findByText('Page 2 of 3')

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'State' }), { target: { value: 'overdue' } })
    await waitFor(() => expect(edge.calls.at(-1)!.url).toBe(`${REPORT}?state=overdue&limit=50&offset=0`))
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Branch' }), { target: { value: 'Seattle' } })
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Department' }), { target: { value: 'Service' } })
    await waitFor(() => expect(filtersOf(edge.calls.at(-1)!)).toEqual({ state: 'overdue', branch: 'Seattle', department: 'Service' }))
    // The search is asked for once typing pauses.
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search' }), { target: { value: ' ann ' } })
    await waitFor(() => expect(filtersOf(edge.calls.at(-1)!)).toEqual({ state: 'overdue', branch: 'Seattle', department: 'Service', search: 'ann' }))
    expect(edge.calls.at(-1)!.query.get('offset')).toBe('0')
  })

  it('exports the filtered report as an .xlsx, busy while it downloads', async () => {
    let release: () => void = () => undefined
    const downloaded = new Promise<void>((resolve) => (release = resolve))
    const edge = answerFetch(on('GET', REPORT, { json: report() }), on('GET', `${REPORT}/export`, { blob: new Blob(['xlsx'], { type: 'application/vnd.ms-excel' }) }))
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      created.push(this.download)
      release()
    })
    const dialog = render()
    await within(dialog).findByRole('table', { name: 'People' })
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'State' }), { target: { value: 'overdue' } })
    await waitFor(() => expect(edge.calls.at(-1)!.query.get('state')).toBe('overdue'))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export to Excel' }))
    expect(within(dialog).getByRole('button', { name: 'Exporting...' }).getAttribute('aria-busy')).toBe('true')
    await downloaded
    expect(edge.of('GET', `${REPORT}/export`).map((c) => c.url)).toEqual([`${REPORT}/export?state=overdue`])
    expect(created).toEqual(['assignment-report-ladder-safety-2026-02-06.xlsx'])
    expect(clicks).toHaveBeenCalledTimes(1)
    await within(dialog).findByRole('button', { name: 'Export to Excel' })
  })

  it("says the export failed in the server's words, else the contracts'", async () => {
    answerFetch(
      on('GET', REPORT, { json: report() }),
      on('GET', `${REPORT}/export`, { status: 500, json: { message: 'Something went wrong. Please try again later.', code: 'internal_error' } }),
    )
    const dialog = render()
    await within(dialog).findByRole('table', { name: 'People' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export to Excel' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Something went wrong. Please try again later.')
    vi.unstubAllGlobals()
    answerFetch(on('GET', REPORT, { json: report() }), on('GET', `${REPORT}/export`, 'network-error'))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export to Excel' }))
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(M.exportFailed))
  })

  it('exempts a person only with a reason, and lifts an exemption', async () => {
    const r = report()
    const edge = answerFetch(
      on('GET', REPORT, { json: r }),
      on('POST', EXEMPTIONS, exemptionAnswer({ ...r.rows[0]!, state: 'exempt', exempt_reason: 'Moved to the office' }, M.exempted)),
      on('DELETE', `${EXEMPTIONS}/${r.rows[2]!.user_id}`, exemptionAnswer({ ...r.rows[2]!, state: 'open', exempt_reason: null }, M.exemptionLifted)),
    )
    const dialog = render()
    const ann = await within(dialog).findByRole('row', { name: /Ann Lee/ })
    fireEvent.click(within(ann).getByRole('button', { name: 'Exempt' }))
    const exempt = screen.getByRole('dialog', { name: 'Exempt Ann Lee' })
    const reason = within(exempt).getByRole('textbox', { name: 'Reason' })
    fireEvent.click(within(exempt).getByRole('button', { name: 'Exempt' }))
    expect(reason.getAttribute('aria-invalid')).toBe('true')
    expect(describedBy(reason)).toBe(M.reasonRequired)
    // Spaces are no reason either.
    fireEvent.change(reason, { target: { value: '   ' } })
    fireEvent.click(within(exempt).getByRole('button', { name: 'Exempt' }))
    expect(describedBy(reason)).toBe(M.reasonRequired)
    expect(edge.of('POST', EXEMPTIONS)).toHaveLength(0)

    fireEvent.change(reason, { target: { value: ' Moved to the office ' } })
    fireEvent.click(within(exempt).getByRole('button', { name: 'Exempt' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Exempt Ann Lee' })).toBeNull())
    expect(edge.of('POST', EXEMPTIONS).map((c) => c.body)).toEqual([{ user_id: r.rows[0]!.user_id, reason: 'Moved to the office' }])
    expect(
      within(dialog)
        .getAllByRole('status')
        .some((s) => s.textContent === M.exempted),
    ).toBe(true)

    fireEvent.click(within(within(dialog).getByRole('row', { name: /Cy Park/ })).getByRole('button', { name: 'Lift exemption' }))
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('status')
          .some((s) => s.textContent === M.exemptionLifted),
      ).toBe(true),
    )
    expect(edge.of('DELETE', `${EXEMPTIONS}/${r.rows[2]!.user_id}`)).toHaveLength(1)
  })

  it("keeps the exemption dialog open with the server's refusal", async () => {
    answerFetch(on('GET', REPORT, { json: report() }), on('POST', EXEMPTIONS, { status: 404, json: { message: M.notAssigned, code: 'not_found' } }))
    const dialog = render()
    fireEvent.click(within(await within(dialog).findByRole('row', { name: /Ann Lee/ })).getByRole('button', { name: 'Exempt' }))
    const exempt = screen.getByRole('dialog', { name: 'Exempt Ann Lee' })
    fireEvent.change(within(exempt).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Left the team' } })
    fireEvent.click(within(exempt).getByRole('button', { name: 'Exempt' }))
    expect((await within(exempt).findByRole('alert')).textContent).toBe(M.notAssigned)
  })
})
