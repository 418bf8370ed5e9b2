// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CardGrid } from './CardGrid.tsx'

describe('card grid', () => {
  it('lists cards as list items under its name', () => {
    render(
      <CardGrid as="ul" aria-label="Courses" min={300}>
        <li>One</li>
        <li>Two</li>
      </CardGrid>,
    )
    const list = screen.getByRole('list', { name: 'Courses' })
    expect(screen.getAllByRole('listitem').map((i) => i.textContent)).toEqual(['One', 'Two'])
    expect(list.style.getPropertyValue('--pk-grid-min')).toBe('300px')
  })

  it('is a plain grid by default, at the kit’s card width', () => {
    render(
      <CardGrid aria-label="Figures">
        <p>One</p>
      </CardGrid>,
    )
    expect(screen.queryByRole('list')).toBeNull()
    expect(screen.getByText('One').parentElement?.getAttribute('style')).toBeNull()
  })
})
