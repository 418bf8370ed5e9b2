import type { EntityManager } from '@mikro-orm/postgresql'
import {
  certificationStatus,
  daysUntil,
  expirationBadge,
  isCertificationValid,
  type EventData,
  type CertificationPeriod,
  type StatusFacts,
  type UserCertification,
} from '@portal/contracts'
import { type CertificationTypeEntity, certificationTypeRepository, toCertificationBrief } from '../certification-types/index.ts'
import { CertificationPeriodEntity, TechnicianCertificationEntity } from './certification.entity.ts'

export const certificationRepository = {
  findHeld: (em: EntityManager, userId: string, certificationId: number) => em.findOne(TechnicianCertificationEntity, { userId, certificationId }),
  listOf: (em: EntityManager, userId: string) => em.find(TechnicianCertificationEntity, { userId }, { orderBy: { id: 'asc' } }),
  /** The kept periods of a technician's certification type, newest first (its history, whichever certification of the type they were). */
  historyOf: (em: EntityManager, userId: string, certificationId: number) =>
    em.find(CertificationPeriodEntity, { userId, certificationId }, { orderBy: { endedAt: 'desc', id: 'desc' } }),
  /** Every kept period of the user, newest first. */
  historiesOf: (em: EntityManager, userId: string) => em.find(CertificationPeriodEntity, { userId }, { orderBy: { endedAt: 'desc', id: 'desc' } }),
  /**
   * The row's version (PostgreSQL's `xmin`), by id or by holder and type (null: no such row):
   * taken before the row is locked and compared once it is, it tells that a concurrent request
   * changed the row meanwhile (decision 0044).
   */
  async version(em: EntityManager, key: { id: number } | { userId: string; certificationId: number }): Promise<string | null> {
    const [row] = (
      'id' in key
        ? await em.execute('select xmin::text as v from technician_certifications where id = ?', [key.id])
        : await em.execute('select xmin::text as v from technician_certifications where user_id = ? and certification_id = ?', [key.userId, key.certificationId])
    ) as { v: string }[]
    return row?.v ?? null
  },
  /** A deleted user's certifications, their kept periods and their technician row (tier, pause, ratio). */
  async dropHolder(em: EntityManager, userId: string): Promise<void> {
    await em.execute('delete from technician_certification_periods where user_id = ?', [userId])
    await em.execute('delete from technician_certifications where user_id = ?', [userId])
    await em.execute('delete from technicians where user_id = ?', [userId])
  },
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

/** The API path of an earlier period's proof (inline; `?download=1` downloads it). */
export const periodProofPath = (p: CertificationPeriodEntity) => `/technician/certifications/${p.technicianCertificationId}/history/${p.id}/file`

/** An earlier period as the API shows it. */
export const toCertificationPeriod = (p: CertificationPeriodEntity): CertificationPeriod => ({
  id: p.id,
  user_certification_id: p.technicianCertificationId,
  certification_id: p.certificationId,
  certification_number: p.certificationNumber ?? null,
  obtained_date: p.obtainedDate ?? null,
  expiration_date: p.expirationDate ?? null,
  notes: p.notes ?? null,
  file_path: p.fileKey ? periodProofPath(p) : null,
  file_name: p.fileName ?? null,
  file_size: p.fileSize ?? null,
  file_type: p.fileType ?? null,
  uploaded_at: p.uploadedAt?.toISOString() ?? null,
  verified_at: p.verifiedAt?.toISOString() ?? null,
  ended_at: p.endedAt.toISOString(),
  ended_by: { id: p.endedById, name: p.endedByName },
  reason: p.reason,
})

/**
 * A technician's certification as the API shows it, its status and badge by the contracts' rules
 * on `today`; with `history` (its type's kept periods, newest first) when given.
 */
export function toUserCertification(c: TechnicianCertificationEntity, t: CertificationTypeEntity, today: string, history?: CertificationPeriodEntity[]): UserCertification {
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
    ...(history ? { history: history.map(toCertificationPeriod) } : {}),
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
