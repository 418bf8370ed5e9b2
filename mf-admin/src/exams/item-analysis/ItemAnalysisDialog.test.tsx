// @vitest-environment happy-dom
import type { ItemAnalysis } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render as renderDom, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { itemAnalysisKey } from './api.ts'
import { ItemAnalysisDialog } from './ItemAnalysisDialog.tsx'

const exam = { id: 7, name: 'Ladders', exam_type: 'final' as const }
const histogram = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i * 10 + 10, count: i === 6 ? 2 : 0 }))
const analysis: ItemAnalysis = {
  exam_id: 7,
  exam_name: 'Ladders',
  kind: 'final',
  start_date: null,
  end_date: null,
  exam: { attempts: 2, mean: 65, median: 65, standard_deviation: 7.07, questions_per_attempt: 2, cronbach_alpha: null, mean_duration_seconds: 90, histogram },
  questions: [
    {
      question_id: 1,
      question_text: 'Angle?',
      question_type: 'multiple_choice',
      in_pool: true,
      status: 'active',
      attempts: 2,
      correct: 2,
      facility: 100,
      discrimination: null,
      upper_lower: 0,
      avg_seconds: null,
      options: [
        { index: 0, text: '4:1', is_correct: true, chosen: 2, chosen_pct: 100, upper_pct: 100, lower_pct: 100 },
        { index: 1, text: '2:1', is_correct: false, chosen: 0, chosen_pct: 0, upper_pct: 0, lower_pct: 0 },
      ],
      flags: [
        { code: 'too_easy', reason: 'Too easy: 100% answered correctly (above 90%)' },
        { code: 'non_functioning_distractor', reason: 'Non-functioning distractor: "2:1" chosen by 0% (below 5%)' },
      ],
    },
  ],
}
const empty: ItemAnalysis = {
  ...analysis,
  kind: 'practice',
  exam: {
    ...analysis.exam,
    attempts: 0,
    mean: null,
    median: null,
    standard_deviation: null,
    mean_duration_seconds: null,
    questions_per_attempt: null,
    histogram: histogram.map((b) => ({ ...b, count: 0 })),
  },
  questions: [],
}

const render = () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  client.setQueryData(itemAnalysisKey(7, { kind: 'final' }), analysis)
  client.setQueryData(itemAnalysisKey(7, { kind: 'practice' }), empty)
  // The From date alone is a range of its own (asked before the To date makes it invalid).
  client.setQueryData(itemAnalysisKey(7, { kind: 'practice', start_date: '2025-05-10' }), empty)
  renderDom(
    <QueryClientProvider client={client}>
      <ItemAnalysisDialog exam={exam} onClose={() => undefined} />
    </QueryClientProvider>,
  )
  return screen.getByRole('dialog', { name: 'Item Analysis: Ladders' })
}

describe('Item Analysis dialog', () => {
  it('shows the figures, both charts with their text, and the questions table with flags and their reasons', () => {
    const dialog = render()
    const figures = dialog.querySelector('dl[aria-label="Exam figures"]')!
    expect(figures.textContent).toContain('Mean score65%')
    expect(figures.textContent).toContain("Cronbach's alpha—")
    const histogramImg = within(dialog).getByRole('img', { name: 'Score histogram' })
    expect(histogramImg.querySelector('desc')!.textContent).toContain('60 to 70%: 2 attempts')
    expect(within(dialog).getByRole('img', { name: 'Facility and discrimination' }).querySelector('desc')!.textContent).toBe(
      'Facility and discrimination per question: Q1 facility 100%, discrimination —.',
    )
    const table = within(dialog).getByRole('table', { name: 'Questions' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'Question', 'Attempts', 'Facility', 'Discrimination', 'Upper − lower 27%', 'Options (chosen)', 'Flags', 'Pool'])
    const row = within(table).getByRole('row', { name: /Angle\?/ })
    expect(row.textContent).toContain('Flagged: Too easy: 100% answered correctly (above 90%)')
    expect(row.textContent).toContain('A. 4:1: 100% (2), correct')
    expect(within(dialog).getByRole('button', { name: 'Export to Excel' })).toBeTruthy()
    expect(within(row).getByRole('button', { name: 'Retire Q1' }).textContent).toBe('Retire')
  })

  it('says "No attempts yet" when there are none, and refuses an end before the start on the field', () => {
    const dialog = render()
    fireEvent.change(within(dialog).getByLabelText('Attempts'), { target: { value: 'practice' } })
    expect(within(dialog).getByText('No attempts yet')).toBeTruthy()
    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2025-05-10' } })
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2025-05-09' } })
    const to = within(dialog).getByLabelText('To')
    expect(to.getAttribute('aria-invalid')).toBe('true')
    expect(within(dialog).getByText('The end date must not be before the start date')).toBeTruthy()
    expect((within(dialog).getByRole('button', { name: 'Export to Excel' }) as HTMLButtonElement).disabled).toBe(true)
  })
})
