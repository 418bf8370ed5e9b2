import type { EntityManager } from '@mikro-orm/postgresql'
import type { Branch, Department, ManagerScope, User } from '@portal/contracts'
import { badRequest, notFound, recordEvent, requireSelfOrAdmin, type Actor } from '@portal/server-kit'
import type { IdentityContext } from '../context.ts'
import { groupRepository } from '../groups/index.ts'
import { toUserDto, userFacts, type UserEntity } from './user.entity.ts'
import { userRepository } from './user.repository.ts'

const userNotFound = () => notFound('User not found', 'user_not_found')
const unique = <T>(xs: readonly T[]) => [...new Set(xs)]

export function createUserService(ctx: IdentityContext) {
  const { orm, now } = ctx

  /** Loads the user, applies `change` and records `identity.user.updated.v1`, in one transaction. */
  const update = async (id: string, change: (em: EntityManager, u: UserEntity) => Promise<void> | void): Promise<User> => {
    const user = await orm.em.fork().transactional(async (em) => {
      const u = await userRepository.findById(em, id)
      if (!u) throw userNotFound()
      await change(em, u)
      u.updatedAt = now()
      recordEvent(em, 'identity.user.updated.v1', userFacts(u))
      return u
    })
    ctx.relay.kick()
    return toUserDto(user)
  }

  return {
    async me(actor: Actor): Promise<User> {
      const user = await userRepository.findProfile(orm.em, actor.userId)
      if (!user) throw userNotFound()
      return user
    },

    async list(): Promise<User[]> {
      return (await userRepository.listByName(orm.em.fork())).map(toUserDto)
    },

    updateProfile(actor: Actor, id: string, body: { branch?: Branch | null; department?: Department | null }) {
      requireSelfOrAdmin(actor, id)
      return update(id, (_em, u) => {
        u.branch = body.branch ?? null
        u.department = body.department ?? null
      })
    },

    setGroup(_actor: Actor, id: string, groupName: string | null) {
      return update(id, async (em, u) => {
        if (groupName === null) {
          u.userGroup = null
          return
        }
        const group = await groupRepository.findByName(em, groupName)
        if (!group) throw badRequest('Unknown user group', 'unknown_user_group')
        u.userGroup = group.name
      })
    },

    /** PUT /users/{id}/employment (admin): employee id and hire date; the hire date moves due dates "after hire" (issue 24). */
    setEmployment(_actor: Actor, id: string, body: { employee_id?: string | null; hire_date?: string | null }) {
      return update(id, (_em, u) => {
        if (body.employee_id !== undefined) u.employeeId = body.employee_id || null
        if (body.hire_date !== undefined) u.hireDate = body.hire_date
      })
    },

    setRoles(_actor: Actor, id: string, body: { is_manager: boolean; manager_scope?: ManagerScope }) {
      return update(id, (_em, u) => {
        const scope = body.is_manager ? (body.manager_scope ?? u.managerScope) : undefined
        const next = { branches: unique(scope?.branches ?? []), departments: unique(scope?.departments ?? []) }
        const changed = u.isManager !== body.is_manager || JSON.stringify(toUserDto(u).manager_scope) !== JSON.stringify(next)
        u.isManager = body.is_manager
        u.managerScope = next
        // Tokens carry roles and scope: the ones issued before stop working (the shell refreshes).
        if (changed) u.authVersion += 1
      })
    },

    async remove(actor: Actor, id: string) {
      if (actor.userId === id) throw badRequest('You cannot delete your own account', 'cannot_delete_self')
      await orm.em.fork().transactional(async (em) => {
        const u = await userRepository.findById(em, id)
        if (!u) throw userNotFound()
        em.remove(u)
        recordEvent(em, 'identity.user.deleted.v1', { userId: u.id })
      })
      ctx.relay.kick()
      return { message: 'User deleted successfully' }
    },
  }
}
export type UserService = ReturnType<typeof createUserService>
