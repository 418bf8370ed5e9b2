// @vitest-environment happy-dom
import { ASSIGNMENT_MESSAGES as M, type AssignmentPreview, type AssignmentRuleSaved } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render as renderDom, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, on, type Call } from './edge.test-support.ts'
import { certificationTypes, courses, exams, groups, ladderRule, users, uuid } from './fixtures.test-support.ts'
import { RuleEditor } from './RuleEditor.tsx'

const RULES = '/api/admin/assignment-rules'

const preview: AssignmentPreview = {
  total: 14,
  added: 2,
  removed: 1,
  due_changed: 1,
  unchanged: 10,
  people: [
    { user_id: uuid(1), name: 'Ann Lee', email: 'ann@acme.test', change: 'added', current_due_on: null, new_due_on: '2026-03-01' },
    { user_id: uuid(2), name: 'Bo Diaz', email: 'bo@acme.test', change: 'added', current_due_on: null, new_due_on: '2026-03-01' },
    { user_id: uuid(4), name: 'Cy Park', email: 'cy@acme.test', change: 'removed', current_due_on: '2026-02-20', new_due_on: null },
    { user_id: uuid(5), name: 'Di Ross', email: 'di@acme.test', change: 'due_changed', current_due_on: '2026-02-20', new_due_on: '2026-03-22' },
  ],
}
const saved = (over: Partial<AssignmentRuleSaved> = {}): AssignmentRuleSaved => ({
  ...ladderRule,
  message: M.saved,
  changes: { total: 14, added: 2, removed: 1, due_changed: 1, unchanged: 10 },
  ...over,
})

/** The lists the form picks from. */
const lists = [
  on('GET', '/api/admin/courses', { json: courses }),
  on('GET', '/api/admin/exams', { json: exams }),
  on('GET', '/api/users', { json: users }),
  on('GET', '/api/admin/user-groups', { json: groups }),
  on('GET', '/api/admin/certifications', { json: certificationTypes }),
]

const render = (rule = null as typeof ladderRule | null) => {
  const onSaved = vi.fn()
  const onClose = vi.fn()
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  renderDom(
    <QueryClientProvider client={client}>
      <RuleEditor rule={rule} onClose={onClose} onSaved={onSaved} />
    </QueryClientProvider>,
  )
  return { onSaved, onClose, dialog: () => screen.getByRole('dialog', { name: rule ? 'Edit Assignment Rule' : 'New Assignment Rule' }) }
}

/** The message tied to a control by aria-describedby. */
const describedBy = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ')
    .trim()

const change = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } })

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('assignment rule form', () => {
  it('labels every field, and offers courses or exams, the audiences, due dates, recurrence and reminders', async () => {
    answerFetch(...lists)
    const { dialog } = render()
    const d = dialog()
    expect(within(d).getByRole('combobox', { name: 'Item type' })).toBeTruthy()
    const item = within(d).getByRole('combobox', { name: 'Course' })
    await within(item).findByRole('option', { name: 'Arc Flash Basics' })
    // The item's select is named by its kind.
    change(within(d).getByRole('combobox', { name: 'Item type' }), 'exam')
    expect(within(within(d).getByRole('combobox', { name: 'Exam' })).getByRole('option', { name: 'Select an exam' })).toBeTruthy()
    change(within(d).getByRole('combobox', { name: 'Item type' }), 'course')
    for (const name of ['Users', 'User group', 'Branch/Department', 'Everyone']) expect(within(d).getByRole('radio', { name })).toBeTruthy()
    // Users: a searchable list of the users who are not admins.
    const search = await within(d).findByRole('searchbox', { name: 'Search users' })
    expect(within(d).getByRole('checkbox', { name: 'Ann Lee (ann@acme.test)' })).toBeTruthy()
    expect(within(d).queryByRole('checkbox', { name: /Root Admin/ })).toBeNull()
    change(search, 'bo@')
    expect(within(d).queryByRole('checkbox', { name: /Ann Lee/ })).toBeNull()
    expect(within(d).getByRole('checkbox', { name: 'Bo Diaz (bo@acme.test)' })).toBeTruthy()
    fireEvent.click(within(d).getByRole('radio', { name: 'User group' }))
    await within(within(d).getByRole('combobox', { name: 'User group' })).findByRole('option', { name: 'Field East' })
    fireEvent.click(within(d).getByRole('radio', { name: 'Branch/Department' }))
    expect(within(d).getByRole('combobox', { name: 'Branch' })).toBeTruthy()
    expect(within(d).getByRole('combobox', { name: 'Department' })).toBeTruthy()
    // Due: by a date, or days after the assignment or the hire date.
    expect((within(d).getByRole('radio', { name: 'Days after' }) as HTMLInputElement).checked).toBe(true)
    expect(within(d).getByRole('spinbutton', { name: 'Days after' })).toBeTruthy()
    expect(
      within(within(d).getByRole('combobox', { name: 'After' }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['assignment', 'hire date'])
    fireEvent.click(within(d).getByRole('radio', { name: 'By date' }))
    expect((within(d).getByLabelText('Due date') as HTMLInputElement).type).toBe('date')
    expect(within(d).getByRole('spinbutton', { name: 'Due soon (days)' })).toBeTruthy()
    // Recurring: a period after the last completion, or a certification's expiry.
    const recurring = within(d).getByRole('switch', { name: 'Recurring' })
    expect(recurring.getAttribute('aria-checked')).toBe('false')
    fireEvent.click(recurring)
    expect(within(d).getByRole('spinbutton', { name: 'Every (months)' })).toBeTruthy()
    expect(within(d).getByRole('spinbutton', { name: 'Open (days before)' })).toBeTruthy()
    fireEvent.click(within(d).getByRole('radio', { name: "Follow a certification's expiry" }))
    await within(within(d).getByRole('combobox', { name: 'Certification type' })).findByRole('option', { name: 'Lockout/Tagout' })
    expect(within(d).getByRole('spinbutton', { name: 'Days before expiry' })).toBeTruthy()
    // Reminders, each of which can be turned off.
    for (const [box, field] of [
      ['Remind the learner in advance', 'Days in advance'],
      ['Copy the manager when overdue', 'Manager copy after (days overdue)'],
      ["Send to the branch's operations address", 'Operations after (days overdue)'],
    ] as const) {
      fireEvent.click(within(d).getByRole('checkbox', { name: box }))
      expect((within(d).getByRole('spinbutton', { name: field }) as HTMLInputElement).disabled).toBe(true)
    }
    expect(within(d).getByRole('button', { name: 'Review changes' })).toBeTruthy()
  })

  it("says beside the Days field that 0 is refused, in the contracts' words, and asks nothing of the server", async () => {
    const edge = answerFetch(...lists)
    const { dialog } = render()
    const d = dialog()
    await within(within(d).getByRole('combobox', { name: 'Course' })).findByRole('option', { name: 'Ladder Safety' })
    change(within(d).getByRole('combobox', { name: 'Course' }), '9')
    fireEvent.click(await within(d).findByRole('checkbox', { name: 'Ann Lee (ann@acme.test)' }))
    const days = within(d).getByRole('spinbutton', { name: 'Days after' })
    change(days, '0')
    fireEvent.click(within(d).getByRole('button', { name: 'Review changes' }))
    await waitFor(() => expect(days.getAttribute('aria-invalid')).toBe('true'))
    expect(describedBy(days)).toBe(M.offsetRange)
    expect(document.activeElement).toBe(days)
    expect(edge.of('POST', `${RULES}/preview`)).toHaveLength(0)
  })

  it('asks a recurring rule for its period beside the months field', async () => {
    const edge = answerFetch(...lists)
    const { dialog } = render()
    const d = dialog()
    fireEvent.click(within(d).getByRole('switch', { name: 'Recurring' }))
    const months = within(d).getByRole('spinbutton', { name: 'Every (months)' })
    change(months, '')
    fireEvent.click(within(d).getByRole('button', { name: 'Review changes' }))
    await waitFor(() => expect(months.getAttribute('aria-invalid')).toBe('true'))
    expect(describedBy(months)).toBe(M.periodRequired)
    // The other missing answers are named beside their own fields.
    expect(describedBy(within(d).getByRole('combobox', { name: 'Course' }))).toBe('Choose a course')
    expect(describedBy(await within(d).findByRole('searchbox', { name: 'Search users' }))).toBe(M.usersRequired)
    expect(edge.of('POST', `${RULES}/preview`)).toHaveLength(0)
  })

  it('reviews a new rule with the dry run (counts and people), then Save posts the rule', async () => {
    let previewed: Call | null = null
    const edge = answerFetch(
      ...lists,
      on('POST', `${RULES}/preview`, (c) => {
        previewed = c
        return { json: preview }
      }),
      on('POST', RULES, { status: 201, json: saved() }),
    )
    const { dialog, onSaved } = render()
    const d = dialog()
    const item = within(d).getByRole('combobox', { name: 'Course' })
    await within(item).findByRole('option', { name: 'Ladder Safety' })
    change(item, '9')
    fireEvent.click(within(d).getByRole('radio', { name: 'User group' }))
    const group = within(d).getByRole('combobox', { name: 'User group' })
    await within(group).findByRole('option', { name: 'Field East' })
    change(group, 'Field East')
    fireEvent.click(within(d).getByRole('switch', { name: 'Recurring' }))
    change(within(d).getByRole('combobox', { name: 'After' }), 'hire')
    fireEvent.click(within(d).getByRole('button', { name: 'Review changes' }))

    const review = await screen.findByRole('dialog', { name: 'Review changes' })
    const rule = {
      item_kind: 'course',
      item_id: 9,
      audience: { kind: 'group', group: 'Field East' },
      due: { kind: 'relative', days: 30, from: 'hire' },
      recurrence: { kind: 'period', months: 12, window_days: 30 },
      due_soon_days: 7,
      reminders: { before_days: 7, manager_after_days: 7, operations_after_days: 14 },
    }
    expect(previewed!.body).toEqual(rule)
    expect(within(review).getByText('This change affects 4 people')).toBeTruthy()
    const figures = review.querySelector('dl[aria-label="Changes"]')!
    expect([...figures.querySelectorAll('.pk-figure')].map((f) => `${f.querySelector('dt')!.textContent} ${f.querySelector('dd')!.textContent}`)).toEqual([
      'Added 2',
      'Removed 1',
      'New due date 1',
      'Unchanged 10',
    ])
    const table = within(review).getByRole('table', { name: 'People changed' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Change', 'Current due date', 'New due date'])
    expect(within(table).getByRole('row', { name: /Di Ross/ }).textContent).toBe('Di Rossdi@acme.testNew due dateFeb 20, 2026Mar 22, 2026')
    expect(within(table).getByRole('row', { name: /Cy Park/ }).textContent).toBe('Cy Parkcy@acme.testRemovedFeb 20, 2026—')

    // Back returns to the form as it was.
    fireEvent.click(within(review).getByRole('button', { name: 'Back' }))
    const again = dialog()
    expect((within(again).getByRole('combobox', { name: 'User group' }) as HTMLSelectElement).value).toBe('Field East')
    expect(within(again).getByRole('switch', { name: 'Recurring' }).getAttribute('aria-checked')).toBe('true')
    expect(edge.of('POST', RULES)).toHaveLength(0)

    fireEvent.click(within(again).getByRole('button', { name: 'Review changes' }))
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Review changes' })).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1))
    expect(edge.of('POST', RULES).map((c) => c.body)).toEqual([rule])
    expect(edge.of('POST', `${RULES}/preview`)).toHaveLength(2)
    expect(edge.unanswered).toEqual([])
  })

  it("places the server's refusal of the dry run beside the field it names", async () => {
    answerFetch(
      ...lists,
      on('POST', `${RULES}/preview`, {
        status: 400,
        json: { message: M.groupNotFound, code: 'validation_failed', details: [{ path: 'audience.group', message: M.groupNotFound }] },
      }),
    )
    const { dialog } = render()
    const d = dialog()
    const item = within(d).getByRole('combobox', { name: 'Course' })
    await within(item).findByRole('option', { name: 'Ladder Safety' })
    change(item, '9')
    fireEvent.click(within(d).getByRole('radio', { name: 'User group' }))
    const group = within(d).getByRole('combobox', { name: 'User group' })
    await within(group).findByRole('option', { name: 'Field East' })
    change(group, 'Field East')
    fireEvent.click(within(d).getByRole('button', { name: 'Review changes' }))
    await waitFor(() => expect(group.getAttribute('aria-invalid')).toBe('true'))
    expect(describedBy(group)).toBe(M.groupNotFound)
    expect(screen.queryByRole('dialog', { name: 'Review changes' })).toBeNull()
  })

  it('edits a rule through a dry run that names it, and saves with PUT; its course cannot change', async () => {
    const edge = answerFetch(
      ...lists,
      on('POST', `${RULES}/preview`, { json: { ...preview, added: 0, removed: 0, people: preview.people.slice(3) } }),
      on('PUT', `${RULES}/3`, { json: saved() }),
    )
    const { dialog, onSaved } = render(ladderRule)
    const d = dialog()
    expect((within(d).getByRole('combobox', { name: 'Course' }) as HTMLSelectElement).disabled).toBe(true)
    expect((within(d).getByRole('combobox', { name: 'Item type' }) as HTMLSelectElement).disabled).toBe(true)
    expect(d.textContent).toContain(M.itemFixed)
    // The form opens on who the rule assigns.
    expect(document.activeElement).toBe(within(d).getByRole('radio', { name: 'User group', checked: true }))
    change(within(d).getByRole('spinbutton', { name: 'Days after' }), '45')
    fireEvent.click(within(d).getByRole('button', { name: 'Review changes' }))
    const review = await screen.findByRole('dialog', { name: 'Review changes' })
    expect(within(review).getByText('This change affects 1 person')).toBeTruthy()
    expect(edge.of('POST', `${RULES}/preview`)[0]!.body).toMatchObject({ rule_id: 3, due: { kind: 'relative', days: 45, from: 'hire' } })
    fireEvent.click(within(review).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1))
    expect(edge.of('PUT', `${RULES}/3`).map((c) => c.body)).toEqual([
      {
        item_kind: 'course',
        item_id: 9,
        audience: { kind: 'group', group: 'Field East' },
        due: { kind: 'relative', days: 45, from: 'hire' },
        recurrence: { kind: 'period', months: 12, window_days: 30 },
        due_soon_days: 7,
        reminders: { before_days: 7, manager_after_days: 7, operations_after_days: 14 },
      },
    ])
  })
})
