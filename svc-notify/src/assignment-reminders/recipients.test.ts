import { describe, expect, it } from 'vitest'
import { managersCovering, recipientsFor, type Learner, type Manager } from './recipients.ts'

const learner: Learner = { id: 'l', email: 'Lee.Learner@Acme.test', branch: 'Seattle', department: 'Service' }
const manager = (id: string, branches: Manager['managerScope']['branches'], departments: Manager['managerScope']['departments'], isManager = true): Manager => ({
  id,
  email: `${id}@acme.test`,
  isManager,
  managerScope: { branches, departments },
})
const config = { manager_email: 'Branch.Manager@acme.test', operations_manager_email: 'ops@acme.test' }

describe('managersCovering', () => {
  it('keeps the managers whose branches and departments cover the learner, an empty list covering all', () => {
    const managers = [
      manager('seattle', ['Seattle'], []),
      manager('seattle-service', ['Seattle'], ['Service']),
      manager('everyone', [], []),
      manager('service-anywhere', [], ['Service']),
      manager('portland', ['Portland'], []),
      manager('seattle-testing', ['Seattle'], ['Testing']),
      manager('not-a-manager', [], [], false),
    ]
    expect(managersCovering(learner, managers).map((m) => m.id)).toEqual(['seattle', 'seattle-service', 'everyone', 'service-anywhere'])
  })

  it('never counts the learner as their own manager', () => {
    expect(managersCovering(learner, [{ ...manager('x', [], []), id: 'l' }])).toEqual([])
  })

  it('covers nobody without a branch by a branch scope', () => {
    expect(managersCovering({ id: 'n', branch: null, department: null }, [manager('seattle', ['Seattle'], []), manager('all', [], [])]).map((m) => m.id)).toEqual(['all'])
  })
})

describe('recipientsFor', () => {
  it('sends before, due and overdue to the learner, lower case', () => {
    for (const stage of ['before', 'due', 'overdue'] as const)
      expect(recipientsFor(stage, { learner, managers: [manager('m', [], [])], config })).toEqual([{ address: 'lee.learner@acme.test', role: 'learner' }])
  })

  it('sends the manager copy to every covering manager, once per address, and not to the branch address then', () => {
    const managers = [manager('a', ['Seattle'], []), { ...manager('b', [], ['Service']), email: 'A@acme.test' }, manager('c', ['Portland'], [])]
    expect(recipientsFor('manager', { learner, managers, config })).toEqual([{ address: 'a@acme.test', role: 'manager' }])
  })

  it("falls back to the branch configuration's manager address when no manager covers the learner", () => {
    expect(recipientsFor('manager', { learner, managers: [manager('c', ['Portland'], [])], config })).toEqual([{ address: 'branch.manager@acme.test', role: 'manager' }])
  })

  it('sends the operations copy to the configuration’s operations address', () => {
    expect(recipientsFor('operations', { learner, managers: [manager('a', [], [])], config })).toEqual([{ address: 'ops@acme.test', role: 'operations' }])
  })

  it('has nobody to tell without a manager or configuration address', () => {
    expect(recipientsFor('manager', { learner, managers: [], config: null })).toEqual([])
    expect(recipientsFor('operations', { learner, managers: [], config: { manager_email: 'm@acme.test', operations_manager_email: null } })).toEqual([])
  })
})
