import type { AuditedRoute } from '@portal/server-kit'
import { z } from 'zod'

/** What the audit reads of identity's answers: the user changed, or the group created. */
export const IdentityAuditAnswer = z.object({
  user: z
    .object({
      email: z.string().optional().catch(undefined),
      user_group: z.unknown().optional(),
      is_manager: z.unknown().optional(),
      manager_scope: z.unknown().optional(),
      employee_id: z.unknown().optional(),
      hire_date: z.unknown().optional(),
    })
    .optional()
    .catch(undefined),
  name: z.string().optional().catch(undefined),
})

/** Identity's admin changes in the audit trail (decision 0030): users, roles and groups. */
export const IDENTITY_AUDITED: readonly AuditedRoute<z.infer<typeof IdentityAuditAnswer>>[] = [
  {
    method: 'PATCH',
    path: /^\/users\/([^/]+)\/group$/,
    action: 'user.group_changed',
    target: (m, b) => b?.user?.email ?? `user ${m[1]}`,
    details: (b) => ({ user_group: b?.user?.user_group ?? null }),
  },
  {
    method: 'PUT',
    path: /^\/users\/([^/]+)\/roles$/,
    action: 'user.roles_changed',
    target: (m, b) => b?.user?.email ?? `user ${m[1]}`,
    details: (b) => ({ is_manager: b?.user?.is_manager, manager_scope: b?.user?.manager_scope }),
  },
  {
    method: 'PUT',
    path: /^\/users\/([^/]+)\/employment$/,
    action: 'user.employment_changed',
    target: (m, b) => b?.user?.email ?? `user ${m[1]}`,
    details: (b) => ({ employee_id: b?.user?.employee_id ?? null, hire_date: b?.user?.hire_date ?? null }),
  },
  { method: 'DELETE', path: /^\/users\/([^/]+)$/, action: 'user.deleted', target: (m) => `user ${m[1]}` },
  { method: 'POST', path: /^\/admin\/user-groups\/?$/, action: 'group.created', target: (_m, b) => b?.name ?? 'group' },
]
