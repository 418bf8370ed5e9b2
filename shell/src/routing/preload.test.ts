import { describe, expect, it } from 'vitest'
import { entriesGate, pageToPreload, withFirstScreenParts } from './preload.ts'

describe('what the shell fetches before the session check answers', () => {
  it('fetches the dashboard at the address', () => {
    expect(pageToPreload('/user-dashboard', { is_admin: false })).toBe('mf_learner/UserDashboard')
    expect(pageToPreload('/admin-dashboard', { is_admin: true })).toBe('mf_admin/AdminDashboard')
  })

  it('fetches the dashboard / sends the stored user to', () => {
    expect(pageToPreload('/', { is_admin: true })).toBe('mf_admin/AdminDashboard')
    expect(pageToPreload('/', { is_admin: false })).toBe('mf_learner/UserDashboard')
    expect(pageToPreload('/', null)).toBeNull()
  })

  it('leaves other pages to their routes', () => {
    expect(pageToPreload('/exam/3', { is_admin: false })).toBeNull()
    expect(pageToPreload('/login', null)).toBeNull()
  })
})

describe('what a dashboard brings from other remotes', () => {
  it('fetches the learner dashboard with its certification cards, the admin dashboard alone', () => {
    expect(withFirstScreenParts('mf_learner/UserDashboard')).toEqual(['mf_learner/UserDashboard', 'mf_certifications/DashboardCards'])
    expect(withFirstScreenParts('mf_admin/AdminDashboard')).toEqual(['mf_admin/AdminDashboard'])
  })
})

describe('the session check sent with the first screen', () => {
  const manualTimers = () => {
    const due: { run: () => void; ms: number }[] = []
    return { due, timer: (run: () => void, ms: number) => due.push({ run, ms }) }
  }
  const isOpen = async (p: Promise<void>) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5))])

  it('waits until every remote of the screen asks for its entry, then one task more', async () => {
    const { due, timer } = manualTimers()
    const gate = entriesGate(withFirstScreenParts('mf_learner/UserDashboard'), 250, timer)
    expect(due.map((d) => d.ms)).toEqual([250])
    gate.requested('mf_learner')
    gate.requested('mf_exams') // not one of the screen's: no effect
    expect(due).toHaveLength(1)
    gate.requested('mf_certifications')
    expect(due.map((d) => d.ms)).toEqual([250, 0])
    expect(await isOpen(gate.opened)).toBe(false)
    due[1]!.run()
    expect(await isOpen(gate.opened)).toBe(true)
  })

  it('opens at once when the screen cannot be fetched, and after the longest wait otherwise', async () => {
    const failed = entriesGate(['mf_admin/AdminDashboard'], 250, manualTimers().timer)
    failed.fail()
    expect(await isOpen(failed.opened)).toBe(true)
    const { due, timer } = manualTimers()
    const slow = entriesGate(['mf_admin/AdminDashboard'], 250, timer)
    due[0]!.run()
    expect(await isOpen(slow.opened)).toBe(true)
  })
})
