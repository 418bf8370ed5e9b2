import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ExamForm } from './ExamForm.tsx'

const noop = () => undefined
const render = () =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <ExamForm exam={null} onDone={noop} onCancel={noop} />
    </QueryClientProvider>,
  )

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
})
