import { UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import type { UserGroup } from '@portal/contracts'
import { conflict, recordEvent } from '@portal/server-kit'
import type { IdentityContext } from '../context.ts'
import { UserGroupEntity, groupFacts, toUserGroupDto } from './group.entity.ts'
import { groupRepository } from './group.repository.ts'

const GROUP_EXISTS = 'A group with this name already exists'

export function createGroupService(ctx: IdentityContext) {
  const { orm } = ctx
  return {
    async list(): Promise<UserGroup[]> {
      return (await groupRepository.listByName(orm.em.fork())).map(toUserGroupDto)
    },
    async create(name: string): Promise<UserGroup> {
      try {
        const group = await orm.em.fork().transactional(async (em) => {
          if (await groupRepository.findByName(em, name)) throw conflict(GROUP_EXISTS, 'group_exists')
          const group = em.create(UserGroupEntity, { id: crypto.randomUUID(), name, createdAt: ctx.now() })
          // Notify makes the group's notification rule from it (admin §3: a rule per group).
          recordEvent(em, 'identity.group.created.v1', groupFacts(group))
          return group
        })
        return toUserGroupDto(group)
      } catch (err) {
        if (err instanceof UniqueConstraintViolationException) throw conflict(GROUP_EXISTS, 'group_exists')
        throw err
      }
    },
  }
}
export type GroupService = ReturnType<typeof createGroupService>
