import { z } from 'zod'
import { CERT_MESSAGES, CertificationTypeInput, TierRequirementInput, type CertificationType, type TierRequirement } from '@portal/contracts'
import { AppError, auditTrail, badRequest, conflict, notFound, type Actor } from '@portal/server-kit'
import type { CertsContext } from '../context.ts'
import { CertificationTypeEntity, toCertificationType, type RenewingItem } from './certification-type.entity.ts'
import { certificationTypeRepository, toTierRequirement } from './certification-type.repository.ts'

type TypeInput = z.output<typeof CertificationTypeInput>
type RequirementInput = z.output<typeof TierRequirementInput>

export const typeNotFound = () => notFound(CERT_MESSAGES.certificationTypeNotFound, 'certification_type_not_found')
const codeTaken = () => conflict(CERT_MESSAGES.codeTaken, 'code_taken')
/** Decision 0012: a type someone holds is not deleted (their records need it); it can be made inactive. */
const typeInUse = (holders: number) =>
  new AppError(409, 'certification_in_use', `This certification is held by ${holders} technician${holders === 1 ? '' : 's'}; mark it inactive to stop offering it instead.`)

/**
 * 400 naming `renewed_by` when a course or exam is listed twice (the schema checks each entry).
 * Certs keeps no copy of learning's catalogue: the ids are the ones the admin picked from it.
 */
function requireDistinctRenewals(items: RenewingItem[]) {
  const seen = new Set<string>()
  for (const [i, r] of items.entries()) {
    const key = `${r.item_kind}:${r.item_id}`
    if (seen.has(key)) {
      const message = `The ${r.item_kind} “${r.item_title}” is listed more than once among the courses and exams that renew this certification`
      throw badRequest(message, 'renewed_by_duplicate', { details: [{ path: `renewed_by.${i}`, message }] })
    }
    seen.add(key)
  }
}

/** What the audit trail keeps of a type (decision 0036), with the courses and exams renewing it (issue 24). */
const typeFacts = (t: CertificationTypeEntity, renewedBy: RenewingItem[]) => ({
  name: t.name,
  code: t.code,
  tier_level: t.tierLevel,
  department: t.department,
  validity_period: t.validityPeriod,
  upload_required: t.uploadRequired,
  is_active: t.isActive,
  renewed_by: renewedBy.map((r) => `${r.item_kind} ${r.item_id}: ${r.item_title}`),
})

/**
 * Certification types and tier requirements (admin §2, §3, §7). Admin only: the routes check it.
 * Every change is recorded in the audit trail in its transaction (decisions 0030, 0036).
 */
export function createCertificationTypeService(ctx: CertsContext) {
  const { orm, now } = ctx

  const apply = (t: CertificationTypeEntity, input: TypeInput) => {
    t.name = input.name
    t.code = input.code
    t.tierLevel = input.tier_level
    t.department = input.department
    t.trainingLink = input.training_link
    t.validityPeriod = input.validity_period
    t.uploadRequired = input.upload_required
    t.isActive = input.is_active
    t.description = input.description
    t.updatedAt = now()
  }

  return {
    async list(): Promise<CertificationType[]> {
      const em = orm.em.fork()
      const [holders, renewals] = await Promise.all([certificationTypeRepository.holders(em), certificationTypeRepository.renewals(orm.em.fork())])
      return (await certificationTypeRepository.listAll(em)).map((t) => toCertificationType(t, holders.get(t.id) ?? 0, renewals.get(t.id)))
    },

    async create(actor: Actor, given: TypeInput): Promise<CertificationType> {
      const input = { ...given, renewed_by: given.renewed_by ?? [] }
      requireDistinctRenewals(input.renewed_by)
      return orm.em.fork().transactional(async (em) => {
        if (await certificationTypeRepository.codeTaken(em, input.code)) throw codeTaken()
        const at = now()
        const t = em.create(CertificationTypeEntity, {
          name: input.name,
          code: input.code,
          tierLevel: input.tier_level,
          department: input.department,
          trainingLink: input.training_link,
          validityPeriod: input.validity_period,
          uploadRequired: input.upload_required,
          isActive: input.is_active,
          description: input.description,
          createdAt: at,
          updatedAt: at,
        })
        await em.flush()
        await certificationTypeRepository.setRenewals(em, t.id, input.renewed_by)
        await auditTrail.record(em, actor, 'certification_type.created', t.code, typeFacts(t, input.renewed_by))
        return toCertificationType(t, 0, input.renewed_by)
      })
    },

    /** PUT: every field of the form; a `renewed_by` given replaces the list kept, an absent one keeps it. */
    async update(actor: Actor, id: number, given: TypeInput): Promise<CertificationType> {
      if (given.renewed_by) requireDistinctRenewals(given.renewed_by)
      return orm.em.fork().transactional(async (em) => {
        const t = await certificationTypeRepository.findById(em, id)
        if (!t) throw typeNotFound()
        if (await certificationTypeRepository.codeTaken(em, given.code, id)) throw codeTaken()
        const kept = (await certificationTypeRepository.renewals(em, [id])).get(id) ?? []
        const input = { ...given, renewed_by: given.renewed_by ?? kept }
        const before = typeFacts(t, kept)
        apply(t, input)
        await em.flush()
        await certificationTypeRepository.setRenewals(em, id, input.renewed_by)
        await auditTrail.record(em, actor, 'certification_type.updated', t.code, { before, after: typeFacts(t, input.renewed_by) })
        return toCertificationType(t, (await certificationTypeRepository.holders(em)).get(id) ?? 0, input.renewed_by)
      })
    },

    /** Deletes a type nobody holds, with its tier requirements; 409 `certification_in_use` otherwise. */
    async remove(actor: Actor, id: number): Promise<{ message: string }> {
      return orm.em.fork().transactional(async (em) => {
        // Locked: a technician adding this type meanwhile waits, then finds it gone.
        const row = await certificationTypeRepository.lockForDelete(em, id)
        if (!row) throw typeNotFound()
        const held = await certificationTypeRepository.holdersOf(em, id)
        if (held > 0) throw typeInUse(held)
        await certificationTypeRepository.delete(em, id)
        await auditTrail.record(em, actor, 'certification_type.deleted', row.code, { name: row.name })
        return { message: 'Certification deleted' }
      })
    },

    async requirements(): Promise<TierRequirement[]> {
      return (await certificationTypeRepository.requirements(orm.em.fork())).map(toTierRequirement)
    },

    /** Adds the type to the tier, or changes whether it is required there. */
    async putRequirement(actor: Actor, input: RequirementInput): Promise<TierRequirement[]> {
      await orm.em.fork().transactional(async (em) => {
        const t = await certificationTypeRepository.findById(em, input.certification_id)
        if (!t) throw typeNotFound()
        await certificationTypeRepository.saveRequirement(em, input, now())
        await auditTrail.record(em, actor, 'tier_requirement.saved', `Tier ${input.tier_level}: ${t.code}`, { tier_level: input.tier_level, is_required: input.is_required })
      })
      return this.requirements()
    },

    async removeRequirement(actor: Actor, id: number): Promise<TierRequirement[]> {
      await orm.em.fork().transactional(async (em) => {
        const removed = await certificationTypeRepository.removeRequirement(em, id)
        if (!removed) throw notFound('Tier requirement not found', 'tier_requirement_not_found')
        await auditTrail.record(em, actor, 'tier_requirement.removed', `Tier ${removed.tier_level}: ${removed.code}`, { tier_level: removed.tier_level })
      })
      return this.requirements()
    },
  }
}
export type CertificationTypeService = ReturnType<typeof createCertificationTypeService>
