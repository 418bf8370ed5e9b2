import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { PeriodEndReason } from '@portal/contracts'

/** A technician's certification (learner §3 "User certification") and its proof file. */
export const TechnicianCertificationEntity = defineEntity({
  name: 'TechnicianCertificationEntity',
  tableName: 'technician_certifications',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.uuid(),
    certificationId: p.integer(),
    certificationNumber: p.string().nullable(),
    /** `YYYY-MM-DD`. */
    obtainedDate: p.date().nullable(),
    /** `YYYY-MM-DD`; null: never expires. */
    expirationDate: p.date().nullable(),
    notes: p.string().nullable(),
    /** Storage key of the proof. */
    fileKey: p.string().nullable(),
    /** The proof's name as uploaded (shown and used for downloads). */
    fileName: p.string().nullable(),
    fileSize: p.bigint('number').nullable(),
    /** `application/pdf`, `image/jpeg` or `image/png`, as the content showed. */
    fileType: p.string().nullable(),
    uploadedAt: p.datetime().nullable(),
    verifiedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
})
export type TechnicianCertificationEntity = InferEntity<typeof TechnicianCertificationEntity>

/**
 * An earlier period of a technician's certification (issue 23 item 4: history, not overwrite):
 * the period as it was when a renewal, a replaced proof or the certification's deletion ended it.
 * Its proof stays in storage while the row refers to it.
 */
export const CertificationPeriodEntity = defineEntity({
  name: 'CertificationPeriodEntity',
  tableName: 'technician_certification_periods',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** The certification it was a period of (it may since have been deleted). */
    technicianCertificationId: p.integer(),
    userId: p.uuid(),
    /** The type, with its code and name when the period ended. */
    certificationId: p.integer(),
    certificationCode: p.string(),
    certificationName: p.string(),
    certificationNumber: p.string().nullable(),
    obtainedDate: p.date().nullable(),
    expirationDate: p.date().nullable(),
    notes: p.string().nullable(),
    fileKey: p.string().nullable(),
    fileName: p.string().nullable(),
    fileSize: p.bigint('number').nullable(),
    fileType: p.string().nullable(),
    uploadedAt: p.datetime().nullable(),
    verifiedAt: p.datetime().nullable(),
    endedAt: p.datetime(),
    endedById: p.uuid(),
    endedByName: p.string(),
    reason: p.string().$type<PeriodEndReason>(),
  },
})
export type CertificationPeriodEntity = InferEntity<typeof CertificationPeriodEntity>
