import type { User } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { filterLearners, filterUsers, roleLabel, selectionSummary, toggleIn } from './filter.ts'

const u = (name: string, email: string, is_admin = false): User => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name,
  email,
  is_admin,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: null,
  department: null,
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
})

describe('users tab', () => {
  const users = [u('Ada Lovelace', 'ada@example.com'), u('Grace Hopper', 'grace@example.com', true)]

  it('searches by name or e-mail, case-insensitively', () => {
    expect(filterUsers(users, 'ADA').map((x) => x.name)).toEqual(['Ada Lovelace'])
    expect(filterUsers(users, 'grace@').map((x) => x.name)).toEqual(['Grace Hopper'])
    expect(filterUsers(users, '  ')).toHaveLength(2)
    expect(filterUsers(users, 'nobody')).toEqual([])
  })

  it('labels admins Admin and others User', () => {
    expect(roleLabel(users[0])).toBe('User')
    expect(roleLabel(users[1])).toBe('Admin')
  })

  it('toggles a value in a list', () => {
    expect(toggleIn(['a'], 'b')).toEqual(['a', 'b'])
    expect(toggleIn(['a', 'b'], 'a')).toEqual(['b'])
  })
})

describe('assign dialog filters and count', () => {
  const people = [
    { ...u('Pat', 'pat@example.com'), id: '1', branch: 'Portland' as const, department: 'Service' as const, user_group: 'Crew A' },
    { ...u('Sam', 'sam@example.com'), id: '2', branch: 'Seattle' as const, department: 'Service' as const, user_group: null },
    { ...u('Ann', 'ann@example.com'), id: '3', branch: 'Portland' as const, department: 'Testing' as const, user_group: 'Crew A' },
  ]
  const none = { search: '', branch: '', department: '', group: '' }

  it('filters by branch, department and group together with the search', () => {
    expect(filterLearners(people, { ...none, branch: 'Portland' }).map((p) => p.name)).toEqual(['Pat', 'Ann'])
    expect(filterLearners(people, { ...none, department: 'Service', group: 'Crew A' }).map((p) => p.name)).toEqual(['Pat'])
    expect(filterLearners(people, { ...none, search: 'sam', branch: 'Portland' })).toEqual([])
  })

  it('says who is already assigned and what Assign changes', () => {
    expect(selectionSummary([], [], false)).toBe('0 selected')
    expect(selectionSummary(['1', '2', '4'], ['1', '2', '3'], false)).toBe('3 selected · 2 already assigned · 1 new · 1 to be unassigned')
    expect(selectionSummary(['1'], [], false)).toBe('1 selected')
    expect(selectionSummary([], [], true)).toBe('Assigned to all users · 0 selected')
  })
})
