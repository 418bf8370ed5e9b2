// @vitest-environment happy-dom
import { fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { PeoplePicker, filterPeople, type PickablePerson } from './PeoplePicker.tsx'

const people: PickablePerson[] = [
  { id: 'a', name: 'Sue Seattle', email: 'sue.one@example.com', detail: 'Seattle · Testing' },
  { id: 'b', name: 'Sue Seattle', email: 'sue.two@example.com', employeeId: 'E0002' },
  { id: 'c', name: 'Ann Lee', email: 'ann@example.com', badge: 'Assigned' },
]

/** The picker as a form holds it: search and selection in state; `error` shown as given. */
const Harness = ({ error, limit }: { error?: string; limit?: number }) => {
  const [search, setSearch] = useState('')
  const [selected, setSelected] = useState<string[]>([])
  return (
    <>
      <PeoplePicker
        legend="Users to assign"
        searchLabel="Search users"
        people={people}
        selected={selected}
        onChange={setSelected}
        search={search}
        onSearch={setSearch}
        error={error}
        limit={limit}
      />
    </>
  )
}

describe('People picker', () => {
  it('names each checkbox with the person’s e-mail (and employee id), so two of the same name differ', () => {
    render(<Harness />)
    const list = screen.getByRole('group', { name: 'Users to assign' })
    expect(within(list).getByRole('checkbox', { name: 'Sue Seattle (sue.one@example.com) Seattle · Testing' })).toBeTruthy()
    const second = within(list).getByRole('checkbox', { name: 'Sue Seattle (sue.two@example.com · ID E0002)' })
    fireEvent.click(second)
    expect(screen.getByRole('status').textContent).toBe('1 selected')
    expect([(within(list).getAllByRole('checkbox')[0] as HTMLInputElement).checked, (second as HTMLInputElement).checked]).toEqual([false, true])
    expect(within(list).getByRole('checkbox', { name: 'Ann Lee (ann@example.com) Assigned' })).toBeTruthy()
  })

  it('narrows the list to the people whose name, e-mail or employee id hold every word typed', () => {
    render(<Harness />)
    const search = screen.getByRole('searchbox', { name: 'Search users' })
    fireEvent.change(search, { target: { value: 'sue' } })
    expect(screen.getAllByRole('checkbox').map((c) => c.closest('label')!.textContent)).toEqual([
      'Sue Seattle (sue.one@example.com)Seattle · Testing',
      'Sue Seattle (sue.two@example.com · ID E0002)',
    ])
    fireEvent.change(search, { target: { value: 'seattle e0002' } })
    expect(screen.getAllByRole('checkbox')).toHaveLength(1)
    fireEvent.change(search, { target: { value: 'nobody' } })
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0)
    expect(screen.getByText('No people found')).toBeTruthy()
    expect(filterPeople(people, '  ')).toHaveLength(3)
  })

  it('says when the list is cut at its limit and searching would narrow it', () => {
    render(<Harness limit={2} />)
    expect(screen.getAllByRole('checkbox')).toHaveLength(2)
    expect(screen.getByRole('status').textContent).toBe('0 selected · showing 2 of 3 matching; search to narrow')
  })

  it('marks the search field invalid, described by the error, which also describes the list', () => {
    render(<Harness error="Please select at least one user" />)
    const search = screen.getByRole('searchbox', { name: 'Search users', description: 'Please select at least one user' })
    expect(search.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('group', { name: 'Users to assign', description: 'Please select at least one user' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe('Please select at least one user')
  })
})
