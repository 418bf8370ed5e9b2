// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { item } from '../test-support/index.ts'
import { ScoTree } from './ScoTree.tsx'

const items = [
  item('unit', null, [item('playing', '/p.html', [], { title: 'Playing the Game' }), item('etiquette', '/e.html', [], { title: 'Etiquette' })]),
  item('quiz', '/q.html', [], { title: 'Quiz' }),
  item('extra', '/x.html', [], { title: 'Extra', isvisible: false }),
]

describe('lesson tree', () => {
  it('shows every visible SCO as an available button, the open one as current, without sequencing', () => {
    render(<ScoTree items={items} activeId="playing" onPick={() => {}} />)
    const buttons = screen.getAllByRole('button')
    expect(buttons.map((b) => b.textContent)).toEqual(['Playing the Game', 'Etiquette', 'Quiz'])
    expect(screen.getByRole('button', { current: true }).textContent).toBe('Playing the Game')
    for (const b of buttons) expect(b.hasAttribute('aria-disabled')).toBe(false)
    expect(screen.queryByText('Extra')).toBeNull()
  })

  it('keeps a locked lesson focusable, marked aria-disabled and described by its reason; leaves hidden ones out', () => {
    render(
      <ScoTree
        items={items}
        activeId="playing"
        onPick={() => {}}
        access={{ playing: { kind: 'open' }, etiquette: { kind: 'disabled', reason: 'Available after “Playing the Game”.' }, quiz: { kind: 'hidden' } }}
      />,
    )
    const locked = screen.getByRole('button', { name: 'Etiquette', description: 'Available after “Playing the Game”.' })
    expect(locked.getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByText('Available after “Playing the Game”.')).toBeTruthy()
    expect(screen.queryByText('Quiz')).toBeNull()
    for (const b of screen.getAllByRole('button')) expect((b as HTMLButtonElement).disabled).toBe(false)
  })
})
