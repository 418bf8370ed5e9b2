import { describe, expect, it } from 'vitest'
import { REMOTES, RemoteContractError, checkRemoteModule, compatibleContract, remoteFolder, remoteUrlVar } from './remotes.ts'

const Page = () => null

describe('remote contract', () => {
  it('accepts a remote one minor version apart, either way', () => {
    expect(compatibleContract('1.0', '1.1')).toBe(true)
    expect(compatibleContract('1.3', '1.2')).toBe(true)
  })
  it('refuses a remote of another major version', () => {
    expect(compatibleContract('1.4', '2.0')).toBe(false)
    expect(compatibleContract('2.0', '1.9')).toBe(false)
  })
  it("returns a loaded module's component when it meets the contract", () => {
    expect(checkRemoteModule('mf_exams/ExamPage', { default: Page, contract: REMOTES.mf_exams.version })).toBe(Page)
  })
  it('takes a module without a contract export as contract 1.0 (built before there was one)', () => {
    expect(checkRemoteModule('mf_learner/UserDashboard', { default: Page })).toBe(Page)
  })
  it('refuses a module built against an incompatible contract', () => {
    expect(() => checkRemoteModule('mf_exams/ExamPage', { default: Page, contract: '2.0' })).toThrow(RemoteContractError)
    expect(() => checkRemoteModule('mf_exams/ExamPage', { default: Page, contract: 2 })).toThrow(/built against contract 2/)
  })
  it('refuses a module the contract does not name, and one without a default export', () => {
    expect(() => checkRemoteModule('mf_exams/Secret', { default: Page })).toThrow(/not an exposed module/)
    expect(() => checkRemoteModule('mf_nope/Page', { default: Page })).toThrow(/not an exposed module/)
    expect(() => checkRemoteModule('toString/x', { default: Page })).toThrow(/not an exposed module/)
    expect(() => checkRemoteModule('mf_admin/AdminDashboard', {})).toThrow(/no default export/)
    expect(() => checkRemoteModule('mf_admin/AdminDashboard', undefined)).toThrow(/no default export/)
  })
  it('derives the folder and the variable of a remote from its name', () => {
    expect(remoteFolder('mf_exams')).toBe('mf-exams')
    expect(remoteUrlVar('mf_exams')).toBe('REMOTE_MF_EXAMS_URL')
  })
})
