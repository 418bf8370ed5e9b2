// @vitest-environment happy-dom
import { ASSIGNMENT_STATES } from '@portal/contracts/assignment-rules'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AssignmentStateBadge } from './AssignmentStateBadge.tsx'

describe('assignment state badge', () => {
  it('says each state in words, the colour only repeating it', () => {
    const { container } = render(
      <>
        {ASSIGNMENT_STATES.map((s) => (
          <AssignmentStateBadge key={s} state={s} />
        ))}
      </>,
    )
    expect([...container.querySelectorAll('.pk-badge')].map((b) => b.textContent)).toEqual([
      'Overdue',
      'Due soon',
      'Open',
      'Not due yet',
      'Completed late',
      'Completed on time',
      'Exempt',
    ])
    expect(screen.getByText('Overdue').className).toBe('pk-badge pk-badge--danger pk-ml0')
    expect(screen.getByText('Completed on time').className).toBe('pk-badge pk-badge--success pk-ml0')
  })

  it('says more on hover when given a title', () => {
    render(<AssignmentStateBadge state="exempt" title="Exempt: on leave until March" />)
    expect(screen.getByText('Exempt').getAttribute('title')).toBe('Exempt: on leave until March')
  })
})
