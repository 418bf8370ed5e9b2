// @vitest-environment happy-dom
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LiveRegion } from './LiveRegion.tsx'

describe('live region', () => {
  it('is a polite status in the page before any message', () => {
    render(<LiveRegion message={null} />)
    const status = screen.getByRole('status')
    expect(status.getAttribute('aria-live')).toBe('polite')
    // The class is the behaviour here: the region is read but not seen.
    expect(status.classList.contains('pk-visually-hidden')).toBe(true)
    expect(status.textContent).toBe('')
  })

  it('holds the latest message', () => {
    render(<LiveRegion message={{ text: "Module 'Intro' moved to position 2 of 3", id: 4 }} />)
    expect(screen.getByRole('status').textContent).toBe("Module 'Intro' moved to position 2 of 3")
  })

  it('keeps a detail apart from the message, after it', () => {
    render(<LiveRegion message={{ text: 'Daily notification check triggered successfully', detail: '3 notices sent.', id: 1 }} />)
    const status = screen.getByRole('status')
    expect(status.textContent).toBe('Daily notification check triggered successfully 3 notices sent.')
    expect(within(status).getByText('Daily notification check triggered successfully')).toBeTruthy()
    expect(within(status).getByText('3 notices sent.')).toBeTruthy()
  })
})
