// @vitest-environment happy-dom
import { ExamSummary } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, assignment, json, TODAY } from '../test-support/index.ts'
import { AvailableExamsCard } from './ExamCards.tsx'

const exam = (id: number, name: string) =>
  ExamSummary.parse({
    id,
    name,
    exam_type: 'final',
    time_limit: 30,
    total_questions: 20,
    pass_score: 80,
    max_attempts: 3,
    attempts_used: 0,
    is_assigned_to_all: true,
    open_attempt: null,
  })

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Available Exams', () => {
  it('shows an assigned exam’s due date and state beside its figures, and nothing on an exam without one', async () => {
    const edge = answerApi({
      'GET /api/exams': () => json([exam(9, 'Lockout/Tagout'), exam(10, 'Forklift Practice')]),
      'GET /api/assignments/mine': () =>
        json({ today: TODAY, assignments: [assignment({ item_kind: 'exam', item_id: 9, item_title: 'Lockout/Tagout', state: 'due_soon', due_on: '2026-11-25', days_left: 0 })] }),
    })
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <AvailableExamsCard navigate={() => undefined} />
      </QueryClientProvider>,
    )
    const card = screen.getByRole('region', { name: 'Available Exams' })
    const lockout = (await within(card).findByRole('heading', { level: 3, name: /^Lockout\/Tagout/ })).closest('li')!
    expect(await within(lockout).findByText('Due soon')).toBeTruthy()
    expect(within(lockout).getByText('Due Nov 25, 2026 · due today')).toBeTruthy()
    const forklift = within(card)
      .getByRole('heading', { level: 3, name: /^Forklift Practice/ })
      .closest('li')!
    expect(within(forklift).queryByText(/due/i)).toBeNull()
    expect(edge.calls).toEqual(expect.arrayContaining(['GET /api/exams', 'GET /api/assignments/mine']))
  })
})
