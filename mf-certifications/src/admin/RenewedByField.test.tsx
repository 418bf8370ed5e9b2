// @vitest-environment happy-dom
import { CertificationType } from '@portal/contracts'
import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, certType, json, renderWithClient } from '../test/index.ts'
import { fetchRenewingItems } from './api.ts'
import { TypeFormDialog } from './TypeFormDialog.tsx'

const courses = [
  { id: 3, title: 'Lockout/Tagout', is_assigned_to_all: true, module_count: 2, created_at: '2026-01-01T00:00:00.000Z' },
  { id: 4, title: 'Arc Flash Basics', is_assigned_to_all: false, module_count: 1, created_at: '2026-01-01T00:00:00.000Z' },
]
const exams = [
  { id: 9, name: 'Lockout/Tagout Final', time_limit: 30, pass_score: 80, total_questions: 20, exam_type: 'final', max_attempts: 3, attempts_used: 0, is_assigned_to_all: true },
]
const saved = (over: Partial<CertificationType>) => ({ certification: certType(12, over) })
const catalogue = { 'GET /api/courses': () => json(courses), 'GET /api/exams': () => json(exams) }

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Renewed by of the certification type form', () => {
  it('picks courses and exams from the catalogue and posts them as renewed_by', async () => {
    const edge = answerApi({ ...catalogue, 'POST /api/admin/certifications': (init) => json(saved(JSON.parse(String(init.body))), 201) })
    const onSaved = vi.fn()
    renderWithClient(<TypeFormDialog editing={{ mode: 'add', tab: 'All' }} onSaved={onSaved} onClose={() => undefined} />)
    const dialog = screen.getByRole('dialog', { name: 'Add Certification' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Lockout/Tagout')
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Code' }), 'LOTO')
    const field = within(dialog).getByRole('group', { name: 'Renewed by' })
    expect(within(field).getByText('No course or exam renews this certification.')).toBeTruthy()
    const picker = within(field).getByRole('combobox', { name: 'Course or exam to add' })
    // Courses first, then exams, each by title.
    await waitFor(() => expect(within(picker).getAllByRole('option').length).toBe(4))
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select a course or exam', 'Course: Arc Flash Basics', 'Course: Lockout/Tagout', 'Exam: Lockout/Tagout Final'])
    // Add without a choice says what is missing.
    await userEvent.click(within(field).getByRole('button', { name: 'Add' }))
    expect(within(field).getByText('Please select a course or exam')).toBeTruthy()
    for (const label of ['Course: Lockout/Tagout', 'Exam: Lockout/Tagout Final', 'Course: Arc Flash Basics']) {
      await userEvent.selectOptions(picker, label)
      await userEvent.click(within(field).getByRole('button', { name: 'Add' }))
    }
    const chosen = within(field).getByRole('list', { name: 'Renewed by' })
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((i) => i.firstChild!.textContent),
    ).toEqual(['Course: Lockout/Tagout', 'Exam: Lockout/Tagout Final', 'Course: Arc Flash Basics'])
    // What is chosen is no longer offered; a removed one is offered again, focus on the picker.
    expect(within(picker).queryByRole('option', { name: 'Course: Lockout/Tagout' })).toBeNull()
    await userEvent.click(within(chosen).getByRole('button', { name: 'Remove Course: Arc Flash Basics' }))
    expect(document.activeElement).toBe(picker)
    expect(within(picker).getByRole('option', { name: 'Course: Arc Flash Basics' })).toBeTruthy()

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Certification' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(edge.calls).toContain('POST /api/admin/certifications')
    expect(edge.bodies).toEqual([
      expect.objectContaining({
        name: 'Lockout/Tagout',
        code: 'LOTO',
        renewed_by: [
          { item_kind: 'course', item_id: 3, item_title: 'Lockout/Tagout' },
          { item_kind: 'exam', item_id: 9, item_title: 'Lockout/Tagout Final' },
        ],
      }),
    ])
  })

  it('keeps what a stored type names while editing, even when the catalogue does not load', async () => {
    const renewed_by = [{ item_kind: 'exam' as const, item_id: 9, item_title: 'Lockout/Tagout Final' }]
    const edge = answerApi({
      'GET /api/courses': () => json({ message: 'Service unavailable', code: 'unavailable' }, 503),
      'GET /api/exams': () => json(exams),
      'PUT /api/admin/certifications/12': (init) => json(saved(JSON.parse(String(init.body)))),
    })
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const onSaved = vi.fn()
    renderWithClient(<TypeFormDialog editing={{ mode: 'edit', type: certType(12, { name: 'LOTO', code: 'LOTO', renewed_by }) }} onSaved={onSaved} onClose={() => undefined} />)
    const field = screen.getByRole('group', { name: 'Renewed by' })
    expect(within(within(field).getByRole('list', { name: 'Renewed by' })).getByText('Exam: Lockout/Tagout Final')).toBeTruthy()
    expect(await within(field).findByText('Courses and exams could not be loaded.')).toBeTruthy()
    expect(within(field).getByRole('button', { name: 'Try Again' })).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: 'Update Certification' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(edge.bodies).toEqual([expect.objectContaining({ renewed_by })])
  })

  it('reads only the id and title of each course and exam, and refuses an answer without them', async () => {
    answerApi(catalogue)
    expect(await fetchRenewingItems()).toEqual([
      { item_kind: 'course', item_id: 4, item_title: 'Arc Flash Basics' },
      { item_kind: 'course', item_id: 3, item_title: 'Lockout/Tagout' },
      { item_kind: 'exam', item_id: 9, item_title: 'Lockout/Tagout Final' },
    ])
    answerApi({ ...catalogue, 'GET /api/exams': () => json([{ id: 9, title: 'An exam has a name, not a title' }]) })
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    await expect(fetchRenewingItems()).rejects.toMatchObject({ code: 'invalid_response' })
  })
})
