import type { EntityManager } from '@mikro-orm/postgresql'
import { UserEntity } from './user.entity.ts'

export const userRepository = {
  findById: (em: EntityManager, id: string) => em.findOne(UserEntity, { id }),
  /** E-mails are stored lower-case (a check constraint holds it). */
  findByEmail: (em: EntityManager, email: string) => em.findOne(UserEntity, { email: email.toLowerCase() }),
  listByName: (em: EntityManager) => em.find(UserEntity, {}, { orderBy: { name: 'asc', email: 'asc' } }),
  count: (em: EntityManager) => em.count(UserEntity, {}),
}
