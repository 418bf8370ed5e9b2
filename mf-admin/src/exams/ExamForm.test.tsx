import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Exam } from '@portal/contracts'
import { ExamForm, QuestionEditor, type QuestionActions } from './ExamForm.tsx'
import { emptyForm, newQuestion } from './exam-form.ts'

const noop = () => undefined
const render = (exam: Exam | null = null) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <ExamForm exam={exam} onDone={noop} onCancel={noop} />
    </QueryClientProvider>,
  )
/** The <label> whose text has `text` (static markup escapes quotes). */
const labelWith = (html: string, text: string) =>
  [...html.matchAll(/<label[^>]*>(.*?)<\/label>/g)].map((m) => m[1]!).find((l) => l.replace(/&#x27;/g, "'").includes(text))
const stored: Exam = {
  id: 1, name: 'E', time_limit: 10, pass_score: 70, total_questions: 1, subject_categories: [], exam_type: 'practice', max_attempts: null,
  is_assigned_to_all: true, assigned_user_ids: [], created_at: '2026-01-01T00:00:00Z', shuffle_options: false,
  questions: [{ id: 5, question_type: 'multiple_choice', question_text: 'Q', options: ['a', 'b'], correct_answer: 0, subject_category: null, category_weight: 1, keep_option_order: true }],
}

describe('Add New Exam form', () => {
  it('opens with focus on Exam Name, the only field that takes it', () => {
    const html = render()
    expect(html.match(/autofocus=""/g)).toHaveLength(1)
    expect(html).toMatch(/<input[^>]*autofocus=""[^>]*value=""/)
    expect(html).toContain('>Exam Name</label>')
  })

  it('has a polite live region before anything is removed', () => {
    expect(render()).toContain('role="status" aria-live="polite" aria-atomic="true" class="pk-visually-hidden"></div>')
  })

  it('shuffles answer options in each attempt unless the admin unticks it; an edited exam shows its own setting', () => {
    const shuffle = labelWith(render(), 'Shuffle answer options in each attempt')
    expect(shuffle).toMatch(/^<input type="checkbox"[^>]* checked=""/)
    expect(shuffle).toContain('aria-describedby="exam-shuffle-hint"')
    expect(render()).toMatch(/id="exam-shuffle-hint"[^>]*>Each attempt shows every question&#x27;s options in an order of its own/)
    expect(labelWith(render(stored), 'Shuffle answer options in each attempt')).not.toContain('checked=""')
  })

  it("offers each question a Keep option order checkbox (e.g. 'All of the above'), ticked as stored", () => {
    const actions: QuestionActions = { dispatch: noop, target: () => noop, remove: noop, addOption: noop, removeOption: noop, move: noop, toggle: noop }
    const editor = (keep: boolean) =>
      renderToStaticMarkup(
        <QuestionEditor q={{ ...newQuestion(1), keep_option_order: keep }} n={1} state={emptyForm()} expanded errors={undefined} actions={actions} />,
      )
    const label = "Keep option order (e.g. 'All of the above')"
    expect(labelWith(editor(false), label)).toMatch(/^<input type="checkbox"\/>/)
    expect(labelWith(editor(true), label)).toMatch(/^<input type="checkbox" checked=""\/>/)
    // Collapsed, the question's line says so.
    expect(renderToStaticMarkup(<QuestionEditor q={{ ...newQuestion(1), keep_option_order: true }} n={1} state={emptyForm()} expanded={false} errors={undefined} actions={actions} />)).toContain('option order kept')
  })
})
