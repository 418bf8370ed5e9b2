// @vitest-environment happy-dom
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Tabs } from './Tabs.tsx'

describe('tabs', () => {
  it('renders a labelled tablist with one tab in the Tab order and the selected tab’s panel', () => {
    render(
      <Tabs label="Departments" tabs={['Service', 'All']} selected="All" onSelect={() => undefined} idOf={(t) => `dept-${t}`}>
        <p>panel</p>
      </Tabs>,
    )
    const list = screen.getByRole('tablist', { name: 'Departments' })
    const service = within(list).getByRole('tab', { name: 'Service', selected: false })
    const all = within(list).getByRole('tab', { name: 'All', selected: true })
    expect([service.tabIndex, all.tabIndex]).toEqual([-1, 0])
    expect(service.getAttribute('aria-controls')).toBe('dept-Service-panel')
    const panel = screen.getByRole('tabpanel', { name: 'All' })
    expect(all.getAttribute('aria-controls')).toBe(panel.id)
    expect(panel.tabIndex).toBe(0)
    expect(within(panel).getByText('panel')).toBeTruthy()
  })
})
