// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render as renderDom, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Exam } from '@portal/contracts'
import { ExamForm, QuestionEditor, type QuestionActions } from './ExamForm.tsx'
import { emptyForm, newQuestion } from './exam-form.ts'

const noop = () => undefined
const render = (exam: Exam | null = null) =>
  renderDom(
    <QueryClientProvider client={new QueryClient()}>
      <ExamForm exam={exam} onDone={noop} onCancel={noop} />
    </QueryClientProvider>,
  )
const SHUFFLE = 'Shuffle answer options in each attempt'
const stored: Exam = {
  id: 1,
  name: 'E',
  time_limit: 10,
  pass_score: 70,
  total_questions: 1,
  subject_categories: [],
  exam_type: 'practice',
  max_attempts: null,
  is_assigned_to_all: true,
  assigned_user_ids: [],
  created_at: '2026-01-01T00:00:00Z',
  shuffle_options: false,
  questions: [
    { id: 5, question_type: 'multiple_choice', question_text: 'Q', options: ['a', 'b'], correct_answer: 0, subject_category: null, category_weight: 1, keep_option_order: true },
  ],
}

describe('Add New Exam form', () => {
  it('opens with focus on Exam Name, the only field that takes it', () => {
    render()
    const name = screen.getByRole('textbox', { name: 'Exam Name' }) as HTMLInputElement
    // The last field asking for focus on mount would hold it: Exam Name does, empty.
    expect(document.activeElement).toBe(name)
    expect(name.value).toBe('')
  })

  it('refused, marks each field in error, described by its message, and moves focus to the first', async () => {
    render()
    const create = screen.getByRole('button', { name: 'Create Exam' })
    create.focus()
    fireEvent.click(create)
    const name = screen.getByRole('textbox', { name: 'Exam Name', description: 'Exam name is required' })
    expect(name.getAttribute('aria-invalid')).toBe('true')
    // Every other marked field says what is wrong too.
    for (const field of document.querySelectorAll('[aria-invalid="true"]')) {
      const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean)
      expect(
        ids
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim(),
      ).not.toBe('')
    }
    await waitFor(() => expect(document.activeElement).toBe(name))
  })

  it('has a polite live region before anything is removed', () => {
    render()
    const status = screen.getByRole('status')
    expect(status.getAttribute('aria-live')).toBe('polite')
    expect(status.getAttribute('aria-atomic')).toBe('true')
    expect(status.classList.contains('pk-visually-hidden')).toBe(true)
    expect(status.textContent).toBe('')
  })

  it('shuffles answer options in each attempt unless the admin unticks it; an edited exam shows its own setting', () => {
    const { unmount } = render()
    expect(screen.getByRole('checkbox', { name: SHUFFLE, checked: true, description: /^Each attempt shows every question's options in an order of its own/ })).toBeTruthy()
    unmount()
    render(stored)
    expect(screen.getByRole('checkbox', { name: SHUFFLE, checked: false })).toBeTruthy()
  })

  it("offers each question a Keep option order checkbox (e.g. 'All of the above'), ticked as stored", () => {
    const actions: QuestionActions = { dispatch: noop, target: () => noop, remove: noop, addOption: noop, removeOption: noop, move: noop, toggle: noop }
    const editor = (keep: boolean, expanded = true) => (
      <QuestionEditor q={{ ...newQuestion(1), keep_option_order: keep }} n={1} state={emptyForm()} expanded={expanded} errors={undefined} actions={actions} />
    )
    const label = "Keep option order (e.g. 'All of the above')"
    const { rerender } = renderDom(editor(false))
    expect(screen.getByRole('checkbox', { name: label, checked: false })).toBeTruthy()
    rerender(editor(true))
    expect(screen.getByRole('checkbox', { name: label, checked: true })).toBeTruthy()
    // Collapsed, the question's line says so.
    rerender(editor(true, false))
    expect(screen.getByText(/option order kept/)).toBeTruthy()
  })
})
