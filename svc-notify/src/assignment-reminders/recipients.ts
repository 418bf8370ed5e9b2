import type { Branch, Department, ManagerScope } from '@portal/contracts'
import { inManagerScope } from '@portal/server-kit'
import type { BranchConfig } from './org.repository.ts'

/** The reminder steps learning raises (`learning.assignment.due-soon.v1` / `.overdue.v1`). */
export type ReminderStage = 'before' | 'due' | 'overdue' | 'manager' | 'operations'
/** Whom a reminder is for: the learner, one of their managers (or the branch's manager address), the branch's operations address. */
export type RecipientRole = 'learner' | 'manager' | 'operations'

export interface Learner {
  id: string
  email: string
  branch: Branch | null
  department: Department | null
}

export interface Manager {
  id: string
  email: string
  isManager: boolean
  managerScope: ManagerScope
}

/**
 * The managers whose scope covers the learner: the portal's one rule (server-kit's
 * `inManagerScope`, as the team pages and member access use it: an empty list covers every
 * branch or department), never the learner themself.
 */
export function managersCovering(learner: Pick<Learner, 'id' | 'branch' | 'department'>, managers: readonly Manager[]): Manager[] {
  return managers.filter((m) => m.isManager && m.id !== learner.id && inManagerScope(m.managerScope, learner))
}

/**
 * The addresses a reminder step goes to, lower case and each once: `before`, `due` and `overdue`
 * to the learner; `manager` to every manager whose scope covers the learner, or, when none does,
 * to the manager address of the learner's branch configuration; `operations` to that
 * configuration's operations address. None when nobody is there to tell.
 */
export function recipientsFor(
  stage: ReminderStage,
  facts: { learner: Learner; managers: readonly Manager[]; config: Pick<BranchConfig, 'manager_email' | 'operations_manager_email'> | null },
): { address: string; role: RecipientRole }[] {
  const once = (addresses: (string | null | undefined)[], role: RecipientRole) =>
    [...new Set(addresses.filter((a): a is string => Boolean(a?.trim())).map((a) => a.trim().toLowerCase()))].map((address) => ({ address, role }))
  switch (stage) {
    case 'before':
    case 'due':
    case 'overdue':
      return once([facts.learner.email], 'learner')
    case 'manager': {
      const covering = managersCovering(facts.learner, facts.managers)
      return covering.length > 0
        ? once(
            covering.map((m) => m.email),
            'manager',
          )
        : once([facts.config?.manager_email], 'manager')
    }
    case 'operations':
      return once([facts.config?.operations_manager_email], 'operations')
  }
}
