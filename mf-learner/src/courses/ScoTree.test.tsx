import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { item } from '../runtime/test-support.ts'
import { ScoTree } from './ScoTree.tsx'

const items = [
  item('unit', null, [item('playing', '/p.html', [], { title: 'Playing the Game' }), item('etiquette', '/e.html', [], { title: 'Etiquette' })]),
  item('quiz', '/q.html', [], { title: 'Quiz' }),
  item('extra', '/x.html', [], { title: 'Extra', isvisible: false }),
]

describe('lesson tree', () => {
  it('shows every visible SCO as an available button, the open one as current, without sequencing', () => {
    const html = renderToStaticMarkup(<ScoTree items={items} activeId="playing" onPick={() => {}} />)
    expect(html).toContain('aria-current="true"')
    expect(html).not.toContain('aria-disabled')
    expect(html).not.toContain('Extra')
    expect(html.match(/<button/g)).toHaveLength(3)
  })

  it('keeps a locked lesson focusable, marked aria-disabled and described by its reason; leaves hidden ones out', () => {
    const html = renderToStaticMarkup(
      <ScoTree
        items={items}
        activeId="playing"
        onPick={() => {}}
        access={{ playing: { kind: 'open' }, etiquette: { kind: 'disabled', reason: 'Available after “Playing the Game”.' }, quiz: { kind: 'hidden' } }}
      />,
    )
    const locked = /<button[^>]*aria-disabled="true"[^>]*aria-describedby="([^"]+)"[^>]*>Etiquette<\/button>/.exec(html)
    expect(locked, html).not.toBeNull()
    expect(html).toContain(`<span id="${locked![1]}"`)
    expect(html).toContain('Available after “Playing the Game”.</span>')
    expect(html).not.toContain('Quiz')
    expect(html).not.toMatch(/<button[^>]*disabled=""/)
  })
})
