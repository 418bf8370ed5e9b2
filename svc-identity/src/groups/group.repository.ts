import type { EntityManager } from '@mikro-orm/postgresql'
import { UserGroupEntity } from './group.entity.ts'

export const groupRepository = {
  listByName: (em: EntityManager) => em.find(UserGroupEntity, {}, { orderBy: { name: 'asc' } }),
  /** Case-insensitive lookup by name. */
  async findByName(em: EntityManager, name: string) {
    const rows = (await em.execute('select id from user_groups where lower(name) = lower(?)', [name])) as { id: string }[]
    return rows[0] ? em.findOne(UserGroupEntity, { id: rows[0].id }) : null
  },
}
