import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { CertificationBrief, CertificationType, Department, TierLevel } from '@portal/contracts'

/** A certification type (admin §3): what technicians hold, with its tier, department and validity. */
export const CertificationTypeEntity = defineEntity({
  name: 'CertificationTypeEntity',
  tableName: 'certification_types',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string(),
    code: p.string(),
    tierLevel: p.smallint().$type<TierLevel>(),
    /** null: every department. */
    department: p.string().$type<Department>().nullable(),
    trainingLink: p.string().nullable(),
    /** Months; null: lifetime. */
    validityPeriod: p.integer().nullable(),
    uploadRequired: p.boolean(),
    isActive: p.boolean(),
    description: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
})
export type CertificationTypeEntity = InferEntity<typeof CertificationTypeEntity>

/** Which type a tier asks for, required or optional (unique per tier and type). */
export const TierRequirementEntity = defineEntity({
  name: 'TierRequirementEntity',
  tableName: 'tier_requirements',
  properties: {
    id: p.integer().primary().autoincrement(),
    tierLevel: p.smallint().$type<TierLevel>(),
    certificationId: p.integer(),
    isRequired: p.boolean(),
    createdAt: p.datetime(),
  },
})
export type TierRequirementEntity = InferEntity<typeof TierRequirementEntity>

/** A course or exam whose completion renews a type (issue 24). */
export type RenewingItem = CertificationType['renewed_by'][number]

export function toCertificationType(t: CertificationTypeEntity, holders?: number, renewedBy: RenewingItem[] = []): CertificationType {
  return {
    ...toCertificationBrief(t),
    is_active: t.isActive,
    description: t.description ?? null,
    ...(holders === undefined ? {} : { holders }),
    renewed_by: renewedBy,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  }
}

export function toCertificationBrief(t: CertificationTypeEntity): CertificationBrief {
  return {
    id: t.id,
    name: t.name,
    code: t.code,
    tier_level: t.tierLevel,
    department: t.department ?? null,
    upload_required: t.uploadRequired,
    training_link: t.trainingLink ?? null,
    validity_period: t.validityPeriod ?? null,
  }
}
