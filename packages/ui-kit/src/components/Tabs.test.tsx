// @vitest-environment happy-dom
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Tabs, hiddenEnds } from './Tabs.tsx'

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

  it('knows which ends of a row hide tabs', () => {
    expect(hiddenEnds({ scrollLeft: 0, clientWidth: 390, scrollWidth: 390 })).toEqual({ start: false, end: false })
    expect(hiddenEnds({ scrollLeft: 0, clientWidth: 390, scrollWidth: 900 })).toEqual({ start: false, end: true })
    expect(hiddenEnds({ scrollLeft: 200, clientWidth: 390, scrollWidth: 900 })).toEqual({ start: true, end: true })
    // Scrolled to the end, give or take a rounded pixel.
    expect(hiddenEnds({ scrollLeft: 509.5, clientWidth: 390, scrollWidth: 900 })).toEqual({ start: true, end: false })
  })
})

describe('tabs wider than the screen', () => {
  // happy-dom lays nothing out: the row's widths and its scrolling are those of a 390 px phone.
  const row = { scrollLeft: 0 }
  const scrollBy = HTMLElement.prototype.scrollBy
  afterEach(() => {
    vi.restoreAllMocks()
    HTMLElement.prototype.scrollBy = scrollBy
  })
  const phoneRow = () => {
    row.scrollLeft = 0
    const isRow = (el: HTMLElement) => el.getAttribute('role') === 'tablist'
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return isRow(this) ? 390 : 0
    })
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return isRow(this) ? 900 : 0
    })
    vi.spyOn(HTMLElement.prototype, 'scrollLeft', 'get').mockImplementation(function (this: HTMLElement) {
      return isRow(this) ? row.scrollLeft : 0
    })
    const scrolls: number[] = []
    HTMLElement.prototype.scrollBy = function (this: HTMLElement, opts?: ScrollToOptions | number) {
      const left = typeof opts === 'object' ? (opts.left ?? 0) : (opts ?? 0)
      scrolls.push(left)
      row.scrollLeft = Math.min(Math.max(row.scrollLeft + left, 0), 900 - 390)
      this.dispatchEvent(new Event('scroll'))
    } as HTMLElement['scrollBy']
    return scrolls
  }
  const sections = ['Exams', 'Courses', 'Users', 'Groups', 'Email Settings', 'Certifications', 'Assignments', 'Sign-in', 'Audit Trail'] as const

  it('shows an arrow at each end that hides tabs, which scrolls that way, and stays one tablist for the keyboard', () => {
    const scrolls = phoneRow()
    const { container } = render(
      <Tabs label="Admin sections" tabs={sections} selected="Exams" onSelect={() => undefined} idOf={(t) => `s-${t}`}>
        <p>panel</p>
      </Tabs>,
    )
    const more = () => [...container.querySelectorAll<HTMLButtonElement>('.pk-tabs__more')].map((b) => b.className.replace('pk-tabs__more pk-tabs__more--', ''))
    // At the start: only the far end hides tabs.
    expect(more()).toEqual(['end'])
    const end = container.querySelector<HTMLButtonElement>('.pk-tabs__more--end')!
    // For the eye and the pointer only: hidden from screen readers and out of the Tab order.
    expect([end.getAttribute('aria-hidden'), end.tabIndex]).toEqual(['true', -1])
    expect(screen.queryAllByRole('button')).toHaveLength(0)
    act(() => end.click())
    expect(scrolls[0]).toBeGreaterThan(0)
    expect(more()).toEqual(['start', 'end'])
    act(() => container.querySelector<HTMLButtonElement>('.pk-tabs__more--end')!.click())
    expect(more()).toEqual(['start'])
    act(() => container.querySelector<HTMLButtonElement>('.pk-tabs__more--start')!.click())
    expect(scrolls.at(-1)).toBeLessThan(0)
    expect(more()).toEqual(['start', 'end'])
    // Still one tablist holding every tab.
    expect(within(screen.getByRole('tablist', { name: 'Admin sections' })).getAllByRole('tab')).toHaveLength(sections.length)
  })

  it('follows a row scrolled by a finger', () => {
    phoneRow()
    const { container } = render(
      <Tabs label="Admin sections" tabs={sections} selected="Exams" onSelect={() => undefined} idOf={(t) => `s-${t}`}>
        <p>panel</p>
      </Tabs>,
    )
    row.scrollLeft = 510
    fireEvent.scroll(screen.getByRole('tablist'))
    expect(container.querySelector('.pk-tabs__more--start')).not.toBeNull()
    expect(container.querySelector('.pk-tabs__more--end')).toBeNull()
  })
})
