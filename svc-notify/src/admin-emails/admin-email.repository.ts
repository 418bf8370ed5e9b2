import type { EntityManager } from '@mikro-orm/postgresql'
import type { AdminEmail, NotificationType } from '@portal/contracts'

interface AdminEmailRow {
  id: number
  email: string
  name: string | null
  notification_types: NotificationType[]
  is_active: boolean
  created_at: Date
}

const COLUMNS = 'id, email, name, notification_types, is_active, created_at'
const toAdminEmail = (r: AdminEmailRow): AdminEmail => ({
  id: r.id,
  email: r.email,
  name: r.name,
  notification_types: r.notification_types,
  is_active: r.is_active,
  created_at: new Date(r.created_at).toISOString(),
})
const one = (rows: unknown) => ((rows as AdminEmailRow[])[0] ? toAdminEmail((rows as AdminEmailRow[])[0]!) : null)

/** Queries of the admin_emails table. */
export const adminEmailRepository = {
  list: async (em: EntityManager) => ((await em.execute(`select ${COLUMNS} from admin_emails order by created_at, id`)) as AdminEmailRow[]).map(toAdminEmail),
  find: async (em: EntityManager, id: number) => one(await em.execute(`select ${COLUMNS} from admin_emails where id = ?`, [id])),
  /** Another row with this address (any case), if any. */
  async emailTaken(em: EntityManager, email: string, exceptId = 0): Promise<boolean> {
    return ((await em.execute('select 1 from admin_emails where lower(email) = lower(?) and id <> ?', [email, exceptId])) as unknown[]).length > 0
  },
  insert: async (em: EntityManager, e: { email: string; name: string | null; types: NotificationType[] }) =>
    one(
      await em.execute(
        `insert into admin_emails (email, name, notification_types, is_active, created_at, updated_at) values (?, ?, string_to_array(?, ','), true, now(), now()) returning ${COLUMNS}`,
        [e.email, e.name, e.types.join(',')],
      ),
    )!,
  update: async (em: EntityManager, id: number, e: { email: string; name: string | null; types: NotificationType[] }) =>
    one(
      await em.execute(`update admin_emails set email = ?, name = ?, notification_types = string_to_array(?, ','), updated_at = now() where id = ? returning ${COLUMNS}`, [
        e.email,
        e.name,
        e.types.join(','),
        id,
      ]),
    ),
  toggle: async (em: EntityManager, id: number) =>
    one(await em.execute(`update admin_emails set is_active = not is_active, updated_at = now() where id = ? returning ${COLUMNS}`, [id])),
  remove: async (em: EntityManager, id: number) => one(await em.execute(`delete from admin_emails where id = ? returning ${COLUMNS}`, [id])),
  /** Active addresses told about `type` (what a completion event mails). */
  activeFor: async (em: EntityManager, type: NotificationType) =>
    ((await em.execute('select email from admin_emails where is_active and ? = any(notification_types) order by id', [type])) as { email: string }[]).map((r) => r.email),
}
