import type { MikroORM } from '@mikro-orm/postgresql'
import { createUserProjection, type Logger } from '@portal/server-kit'
import { assignmentRepository } from './assignments/index.ts'
import type { CertificationService } from './certifications/certification.service.ts'

/** Durable consumer name of svc-certs for identity's user events (and its inbox key). */
export const USERS_CONSUMER = 'certs-users'

/**
 * Certs' projection of identity's users (the server kit's): names and e-mails for profiles, branch
 * and department for managers' scope and department-specific types, employee id and hire date for
 * the profile header. A deleted user's certifications, proofs, tier state and assignments go with them.
 */
export const createCertsUsers = (deps: { orm: MikroORM; logger: Logger; certifications: Pick<CertificationService, 'dropUser'> }) =>
  createUserProjection({
    orm: deps.orm,
    logger: deps.logger,
    consumer: USERS_CONSUMER,
    onDeleted: async (em, userId) => {
      await deps.certifications.dropUser(em, userId)
      await assignmentRepository.dropUser(em, userId)
    },
  })
export type CertsUsers = ReturnType<typeof createCertsUsers>
