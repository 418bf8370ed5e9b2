import { UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import { AdminEmailInput, NOTIFY_MESSAGES, type AdminEmail } from '@portal/contracts'
import { auditTrail, conflict, notFound, type Actor } from '@portal/server-kit'
import type { z } from 'zod'
import type { NotifyContext } from '../context.ts'
import { adminEmailRepository as repo } from './admin-email.repository.ts'

type Input = z.output<typeof AdminEmailInput>
const emailTaken = () => conflict(NOTIFY_MESSAGES.emailTaken, 'admin_email_taken')
const emailNotFound = () => notFound(NOTIFY_MESSAGES.emailNotFound, 'admin_email_not_found')

/** Global admin e-mails (admin §2 Email Notification Management): every change is audited. */
export function createAdminEmailService(ctx: NotifyContext) {
  const { orm } = ctx
  /** Runs a change in one transaction; a concurrent duplicate address is the same 409 as a checked one. */
  const change = async <T>(fn: Parameters<typeof orm.em.transactional<T>>[0]): Promise<T> => {
    try {
      return await orm.em.fork().transactional(fn)
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw emailTaken()
      throw err
    }
  }
  const facts = (e: AdminEmail) => ({ email: e.email, name: e.name, notification_types: e.notification_types, is_active: e.is_active })
  return {
    list: (): Promise<AdminEmail[]> => repo.list(orm.em.fork()),

    add: (actor: Actor, input: Input): Promise<AdminEmail> =>
      change(async (em) => {
        if (await repo.emailTaken(em, input.email)) throw emailTaken()
        const created = await repo.insert(em, { email: input.email, name: input.name, types: input.notification_types })
        await auditTrail.record(em, actor, 'admin_email.added', created.email, facts(created))
        return created
      }),

    update: (actor: Actor, id: number, input: Input): Promise<AdminEmail> =>
      change(async (em) => {
        const before = await repo.find(em, id)
        if (!before) throw emailNotFound()
        if (await repo.emailTaken(em, input.email, id)) throw emailTaken()
        const updated = (await repo.update(em, id, { email: input.email, name: input.name, types: input.notification_types }))!
        await auditTrail.record(em, actor, 'admin_email.updated', updated.email, { before: facts(before), after: facts(updated) })
        return updated
      }),

    toggle: (actor: Actor, id: number): Promise<AdminEmail> =>
      change(async (em) => {
        const toggled = await repo.toggle(em, id)
        if (!toggled) throw emailNotFound()
        await auditTrail.record(em, actor, toggled.is_active ? 'admin_email.activated' : 'admin_email.deactivated', toggled.email)
        return toggled
      }),

    remove: (actor: Actor, id: number): Promise<{ message: string }> =>
      change(async (em) => {
        const removed = await repo.remove(em, id)
        if (!removed) throw emailNotFound()
        await auditTrail.record(em, actor, 'admin_email.deleted', removed.email, facts(removed))
        return { message: 'Admin email deleted' }
      }),
  }
}
export type AdminEmailService = ReturnType<typeof createAdminEmailService>
