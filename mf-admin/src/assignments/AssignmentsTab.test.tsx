// @vitest-environment happy-dom
import { ASSIGNMENT_MESSAGES as M } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render as renderDom, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AssignmentsTab } from './AssignmentsTab.tsx'
import { answerFetch, on } from './edge.test-support.ts'
import { certificationTypes, courses, exams, groups, ladderRule, lotoRule, users } from './fixtures.test-support.ts'

const RULES = '/api/admin/assignment-rules'

const render = () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return renderDom(
    <QueryClientProvider client={client}>
      <AssignmentsTab />
    </QueryClientProvider>,
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Assignments tab', () => {
  it('lists the rules with item, audience, due date, recurrence and their people, each with Report, Edit and Delete', async () => {
    const edge = answerFetch(on('GET', RULES, { json: [ladderRule, lotoRule] }), on('GET', '/api/admin/certifications', { json: certificationTypes }))
    render()
    const table = await screen.findByRole('table', { name: 'Assignment rules' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Item', 'Assigned to', 'Due', 'Recurrence', 'People', 'Overdue', 'Completed', 'Actions'])
    const ladder = within(table).getByRole('row', { name: /Ladder Safety/ })
    expect(
      within(ladder)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Group: Field East', '30 days after hire date', 'Every 12 months after the last completion (opens 30 days before)', '12', '2', '5', 'ReportEditDelete'])
    for (const name of ['Report', 'Edit', 'Delete']) expect(within(ladder).getByRole('button', { name, description: 'Ladder Safety Course' })).toBeTruthy()
    // The certification a rule follows is named once the types are in.
    const loto = within(table).getByRole('row', { name: /Lockout\/Tagout Exam/ })
    await within(loto).findByText('Follows Lockout/Tagout expiry (opens 60 days before)')
    expect(loto.textContent).toContain('By Jan 31, 2027')
    expect(screen.getByRole('button', { name: 'New Assignment Rule' })).toBeTruthy()
    expect(edge.unanswered).toEqual([])
  })

  it('says when there is no rule yet', async () => {
    answerFetch(on('GET', RULES, { json: [] }))
    render()
    expect(await screen.findByText('No assignment rules yet')).toBeTruthy()
    expect(screen.queryByRole('table')).toBeNull()
  })

  it("shows the server's message when the rules fail to load, else the contracts' default", async () => {
    answerFetch(on('GET', RULES, { status: 503, json: { message: 'Learning is restarting', code: 'unavailable' } }))
    const { unmount } = render()
    expect((await screen.findByRole('alert')).textContent).toBe('Learning is restarting')
    unmount()
    answerFetch(on('GET', RULES, 'network-error'))
    render()
    expect((await screen.findByRole('alert')).textContent).toBe(M.loadFailed)
  })

  it('asks before deleting a rule, and deletes it only once confirmed', async () => {
    let rules = [ladderRule, lotoRule]
    const edge = answerFetch(
      on('GET', RULES, () => ({ json: rules })),
      on('GET', '/api/admin/certifications', { json: certificationTypes }),
      on('DELETE', `${RULES}/3`, () => {
        rules = [lotoRule]
        return { json: { message: M.deleted, id: 3, item_title: 'Ladder Safety', audience_label: 'Group: Field East', removed: 12 } }
      }),
    )
    render()
    const row = await screen.findByRole('row', { name: /Ladder Safety/ })
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete Assignment Rule' })
    expect(dialog.textContent).toContain('Are you sure you want to delete the assignment rule for Ladder Safety (Group: Field East)?')
    expect(edge.of('DELETE', `${RULES}/3`)).toHaveLength(0)
    // Cancel keeps it.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog', { name: 'Delete Assignment Rule' })).toBeNull()
    expect(edge.of('DELETE', `${RULES}/3`)).toHaveLength(0)
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }))
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete Assignment Rule' })).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.queryByRole('row', { name: /Ladder Safety/ })).toBeNull())
    expect(edge.of('DELETE', `${RULES}/3`)).toHaveLength(1)
    expect(screen.getAllByRole('status').some((s) => s.textContent === M.deleted)).toBe(true)
  })

  it("keeps the dialog open with the server's message when a delete fails", async () => {
    answerFetch(on('GET', RULES, { json: [ladderRule] }), on('DELETE', `${RULES}/3`, { status: 404, json: { message: M.ruleNotFound, code: 'not_found' } }))
    render()
    const row = await screen.findByRole('row', { name: /Ladder Safety/ })
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete Assignment Rule' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe(M.ruleNotFound)
  })

  it("shows a saved rule in the list at once, with the save's message, while the list is fetched again", async () => {
    let listed = 0
    answerFetch(
      // The list is answered once: the fetch after the save stays pending.
      on('GET', RULES, () => (listed++ === 0 ? { json: [] } : 'hang')),
      on('GET', '/api/admin/courses', { json: courses }),
      on('GET', '/api/admin/exams', { json: exams }),
      on('GET', '/api/users', { json: users }),
      on('GET', '/api/admin/user-groups', { json: groups }),
      on('POST', `${RULES}/preview`, { json: { total: 12, added: 12, removed: 0, due_changed: 0, unchanged: 0, people: [] } }),
      on('POST', RULES, { status: 201, json: { ...ladderRule, message: M.saved, changes: { total: 12, added: 12, removed: 0, due_changed: 0, unchanged: 0 } } }),
    )
    render()
    await screen.findByText('No assignment rules yet')
    fireEvent.click(screen.getByRole('button', { name: 'New Assignment Rule' }))
    const form = screen.getByRole('dialog', { name: 'New Assignment Rule' })
    const course = within(form).getByRole('combobox', { name: 'Course' })
    await within(course).findByRole('option', { name: 'Ladder Safety' })
    fireEvent.change(course, { target: { value: '9' } })
    fireEvent.click(within(form).getByRole('radio', { name: 'Everyone' }))
    fireEvent.click(within(form).getByRole('button', { name: 'Review changes' }))
    const review = await screen.findByRole('dialog', { name: 'Review changes' })
    expect(within(review).getByText('This change affects 12 people')).toBeTruthy()
    fireEvent.click(within(review).getByRole('button', { name: 'Save' }))
    const row = await screen.findByRole('row', { name: /Ladder Safety/ })
    expect(row.textContent).toContain('Group: Field East')
    expect(screen.getAllByRole('status').some((s) => s.textContent === M.saved)).toBe(true)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(listed).toBe(2)
  })
})
