import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'

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
