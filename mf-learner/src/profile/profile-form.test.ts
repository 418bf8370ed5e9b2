import { describe, expect, it } from 'vitest'
import { departmentAfterBranchChange, departmentOptions, needsProfile, validateProfile } from './profile-form.ts'

describe('profile form', () => {
  it('shows when branch or department is missing', () => {
    expect(needsProfile({ branch: null, department: 'Service' })).toBe(true)
    expect(needsProfile({ branch: 'Seattle', department: null })).toBe(true)
    expect(needsProfile({ branch: 'Seattle', department: 'Service' })).toBe(false)
  })

  it('offers no Electricians in Anchorage and Tri-Cities', () => {
    expect(departmentOptions('Anchorage').map((o) => o.value)).toEqual(['Service', 'Testing', 'Construction'])
    expect(departmentOptions('Tri-Cities').map((o) => o.value)).not.toContain('Electricians')
    expect(departmentOptions('Portland').map((o) => o.value)).toContain('Electricians')
    expect(departmentOptions('')).toEqual([])
  })

  it('drops a department the new branch lacks', () => {
    expect(departmentAfterBranchChange('Anchorage', 'Electricians')).toBe('')
    expect(departmentAfterBranchChange('Seattle', 'Testing')).toBe('Testing')
  })

  it('requires both fields with the spec messages', () => {
    expect(validateProfile('', '')).toEqual({ branch: 'Branch is required', department: 'Department is required' })
    expect(validateProfile('Seattle', 'Testing')).toEqual({})
  })
})
