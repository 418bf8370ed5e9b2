import type { User } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { filterUsers, roleLabel, toggleIn } from './filter.ts'

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
