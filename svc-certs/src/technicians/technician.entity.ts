import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { TierLevel } from '@portal/contracts'

/** A technician's tier state, kept by svc-certs (absent row: tier 0, notifications on, no ratio). */
export const TechnicianEntity = defineEntity({
  name: 'TechnicianEntity',
  tableName: 'technicians',
  properties: {
    userId: p.uuid().primary(),
    currentTier: p.smallint().$type<TierLevel>(),
    notificationsPausedUntil: p.datetime().nullable(),
    revPayRatio: p.decimal('number').nullable(),
    updatedAt: p.datetime(),
  },
})
export type TechnicianEntity = InferEntity<typeof TechnicianEntity>
