import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { EventData, UserGroup } from '@portal/contracts'

/** A named group of users (names unique case-insensitively). */
export const UserGroupEntity = defineEntity({
  name: 'UserGroupEntity',
  tableName: 'user_groups',
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
    createdAt: p.datetime(),
  },
})
export type UserGroupEntity = InferEntity<typeof UserGroupEntity>

export const toUserGroupDto = (g: UserGroupEntity): UserGroup => ({ id: g.id, name: g.name, created_at: g.createdAt.toISOString() })

/** The group as `identity.group.created.v1` announces it. */
export const groupFacts = (g: UserGroupEntity): EventData<'identity.group.created.v1'> => ({ groupId: g.id, name: g.name, createdAt: g.createdAt.toISOString() })
