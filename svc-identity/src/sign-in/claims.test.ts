import { describe, expect, it } from 'vitest'
import { ClaimMapping, RoleMapping } from '@portal/contracts'
import { claimValue, dateOf, readClaims, rolesOf } from './claims.ts'

const mapping = ClaimMapping.parse({ employee_id: 'employeeNumber', branch: 'office', department: 'dept', hire_date: 'hired', groups: 'realm_access.roles' })

describe('claimValue', () => {
  it('reads a top-level claim first, then a dotted path into nested objects', () => {
    const claims = { 'https://acme.test/branch': 'Seattle', realm_access: { roles: ['a', 'b'] }, a: { b: null } }
    expect(claimValue(claims, 'https://acme.test/branch')).toBe('Seattle')
    expect(claimValue(claims, 'realm_access.roles')).toEqual(['a', 'b'])
    expect(claimValue(claims, 'realm_access.missing')).toBeUndefined()
    expect(claimValue(claims, 'a.b.c')).toBeUndefined()
    expect(claimValue(claims, 'constructor')).toBeUndefined()
  })
})

describe('readClaims', () => {
  it('maps every field, matching branch and department whatever their case and punctuation', () => {
    const p = readClaims(
      { email: ' Ann@Acme.Test ', name: 'Ann', employeeNumber: 77, office: 'tri cities', dept: 'TESTING', hired: '2023-05-04T00:00:00Z', realm_access: { roles: ['x'] } },
      mapping,
    )
    expect(p).toEqual({
      email: 'ann@acme.test',
      emailVerified: true,
      name: 'Ann',
      employeeId: '77',
      branch: 'Tri-Cities',
      department: 'Testing',
      hireDate: '2023-05-04',
      groups: ['x'],
      unusable: [],
    })
  })

  it('names the mapped claims it could not use, never their values', () => {
    const p = readClaims({ email: 'not-an-address', office: 'Atlantis', dept: 7, hired: 'yesterday', realm_access: { roles: ['ok', 3] } }, mapping)
    expect(p).toMatchObject({ email: null, branch: null, department: null, hireDate: null, groups: ['ok'] })
    expect(p.unusable).toEqual(['email', 'branch', 'department', 'groups', 'hire_date'])
  })

  it('reads email_verified false (or "false") as unverified, and its absence as verified', () => {
    expect(readClaims({ email: 'a@acme.test', email_verified: 'false' }, mapping).emailVerified).toBe(false)
    expect(readClaims({ email: 'a@acme.test' }, mapping).emailVerified).toBe(true)
  })

  it('has no groups when no group claim is mapped (the portal keeps roles), and none when the claim is absent', () => {
    expect(readClaims({ email: 'a@acme.test' }, ClaimMapping.parse({})).groups).toBeNull()
    expect(readClaims({ email: 'a@acme.test' }, mapping).groups).toEqual([])
  })
})

describe('dateOf', () => {
  it('keeps real calendar dates only', () => {
    expect(dateOf('2024-02-29')).toBe('2024-02-29')
    expect(dateOf('2023-02-29')).toBeNull()
    expect(dateOf('2024-13-01')).toBeNull()
    expect(dateOf(20240101)).toBeNull()
  })
})

describe('rolesOf', () => {
  const roles = (manager_scope: string) => RoleMapping.parse({ admin_values: ['Admins'], manager_values: ['managers'], manager_scope })
  const person = { groups: ['admins', 'MANAGERS'], branch: 'Seattle' as const, department: 'Service' as const }
  it('compares group values without regard to case', () => {
    expect(rolesOf(person, roles('all'))).toEqual({ isAdmin: true, isManager: true, managerScope: { branches: [], departments: [] } })
  })
  it('draws the manager scope from the person’s own branch and department', () => {
    expect(rolesOf(person, roles('own_branch'))!.managerScope).toEqual({ branches: ['Seattle'], departments: [] })
    expect(rolesOf(person, roles('own_department'))!.managerScope).toEqual({ branches: [], departments: ['Service'] })
    expect(rolesOf(person, roles('own_branch_and_department'))!.managerScope).toEqual({ branches: ['Seattle'], departments: ['Service'] })
  })
  it('refuses the manager role rather than widen a scope to everything when its fact is missing', () => {
    expect(rolesOf({ ...person, department: null }, roles('own_department'))).toMatchObject({ isManager: false, refused: expect.stringContaining('own_department') })
  })
  it('decides nothing when no group claim is mapped', () => {
    expect(rolesOf({ groups: null, branch: null, department: null }, roles('all'))).toBeNull()
  })
})
