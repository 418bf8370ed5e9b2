import type { EntityManager } from '@mikro-orm/postgresql'
import {
  certificationStatus,
  daysUntil,
  expirationBadge,
  isCertificationValid,
  type EventData,
  type StatusFacts,
  type UserCertification,
} from '@portal/contracts'
import { toCertificationBrief, type CertificationTypeEntity } from '../certification-types/certification-type.entity.ts'
import { certificationTypeRepository } from '../certification-types/certification-type.repository.ts'
import { TechnicianCertificationEntity } from './certification.entity.ts'

export const certificationRepository = {
  findHeld: (em: EntityManager, userId: string, certificationId: number) => em.findOne(TechnicianCertificationEntity, { userId, certificationId }),
  listOf: (em: EntityManager, userId: string) => em.find(TechnicianCertificationEntity, { userId }, { orderBy: { id: 'asc' } }),
  /** The user's certifications with their types. */
  async listWithTypes(em: EntityManager, userId: string) {
    const certs = await certificationRepository.listOf(em, userId)
    const types = new Map((await certificationTypeRepository.findByIds(em, [...new Set(certs.map((c) => c.certificationId))])).map((t) => [t.id, t]))
    return certs.map((cert) => ({ cert, type: types.get(cert.certificationId)! }))
  },
}

/** What the contracts' status rules need of a held certification. */
export const statusFacts = (c: TechnicianCertificationEntity, t: CertificationTypeEntity): StatusFacts => ({
  expiration_date: c.expirationDate ?? null,
  verified_at: c.verifiedAt?.toISOString() ?? null,
  file_name: c.fileName ?? null,
  certification: { upload_required: t.uploadRequired },
})

/** The API path of a certification's proof (inline; `?download=1` downloads it). */
export const proofPath = (id: number) => `/technician/certifications/${id}/file`

/** A technician's certification as the API shows it, its status and badge by the contracts' rules on `today`. */
export function toUserCertification(c: TechnicianCertificationEntity, t: CertificationTypeEntity, today: string): UserCertification {
  const facts = statusFacts(c, t)
  const days = c.expirationDate ? daysUntil(c.expirationDate, today) : null
  return {
    id: c.id,
    user_id: c.userId,
    certification_id: c.certificationId,
    certification: toCertificationBrief(t),
    certification_number: c.certificationNumber ?? null,
    obtained_date: c.obtainedDate ?? null,
    expiration_date: c.expirationDate ?? null,
    notes: c.notes ?? null,
    file_path: c.fileKey ? proofPath(c.id) : null,
    file_name: c.fileName ?? null,
    file_size: c.fileSize ?? null,
    file_type: c.fileType ?? null,
    uploaded_at: c.uploadedAt?.toISOString() ?? null,
    is_valid: isCertificationValid(facts, today),
    verified_at: facts.verified_at,
    status: certificationStatus(facts, today),
    days_until_expiry: days,
    expiration_badge: expirationBadge(days),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  }
}

/** The facts of `certs.certification.*.v1` events. */
export const certificationFacts = (c: TechnicianCertificationEntity, t: CertificationTypeEntity): EventData<'certs.certification.added.v1'> => ({
  certificationId: c.id,
  userId: c.userId,
  certificationTypeId: t.id,
  code: t.code,
  name: t.name,
  tierLevel: t.tierLevel,
  obtainedDate: c.obtainedDate ?? null,
  expirationDate: c.expirationDate ?? null,
  hasFile: c.fileKey !== null && c.fileKey !== undefined,
})
