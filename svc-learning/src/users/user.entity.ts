import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { Branch, Department } from '@portal/contracts'

/**
 * A user as identity's events last described them (learning's projection). A deleted user keeps
 * only id, `occurredAt` and `deletedAt`.
 */
export const UserEntity = defineEntity({
  name: 'UserEntity',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    name: p.string().nullable(),
    email: p.string().nullable(),
    isAdmin: p.boolean(),
    isManager: p.boolean(),
    branch: p.string().$type<Branch>().nullable(),
    department: p.string().$type<Department>().nullable(),
    userGroup: p.string().nullable(),
    occurredAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
})
export type UserEntity = InferEntity<typeof UserEntity>
