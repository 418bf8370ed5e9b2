import { z } from 'zod'
import { CERT_MESSAGES, CertificationTypeInput, TierRequirementInput, type CertificationType, type TierRequirement } from '@portal/contracts'
import { AppError, conflict, notFound } from '@portal/server-kit'
import type { CertsContext } from '../context.ts'
import { CertificationTypeEntity, TierRequirementEntity, toCertificationType } from './certification-type.entity.ts'
import { certificationTypeRepository, toTierRequirement } from './certification-type.repository.ts'

type TypeInput = z.output<typeof CertificationTypeInput>
type RequirementInput = z.output<typeof TierRequirementInput>

export const typeNotFound = () => notFound(CERT_MESSAGES.certificationTypeNotFound, 'certification_type_not_found')
const codeTaken = () => conflict(CERT_MESSAGES.codeTaken, 'code_taken')
/** Decision 0012: a type someone holds is not deleted (their records need it); it can be made inactive. */
const typeInUse = (holders: number) =>
  new AppError(
    409,
    'certification_in_use',
    `This certification is held by ${holders} technician${holders === 1 ? '' : 's'}; mark it inactive to stop offering it instead.`,
  )

/** Certification types and tier requirements (admin §2, §3, §7). Admin only: the routes check it. */
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
      const holders = await certificationTypeRepository.holders(em)
      return (await certificationTypeRepository.listAll(em)).map((t) => toCertificationType(t, holders.get(t.id) ?? 0))
    },

    async create(input: TypeInput): Promise<CertificationType> {
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
        return toCertificationType(t, 0)
      })
    },

    async update(id: number, input: TypeInput): Promise<CertificationType> {
      return orm.em.fork().transactional(async (em) => {
        const t = await certificationTypeRepository.findById(em, id)
        if (!t) throw typeNotFound()
        if (await certificationTypeRepository.codeTaken(em, input.code, id)) throw codeTaken()
        apply(t, input)
        await em.flush()
        return toCertificationType(t, (await certificationTypeRepository.holders(em)).get(id) ?? 0)
      })
    },

    /** Deletes a type nobody holds, with its tier requirements; 409 `certification_in_use` otherwise. */
    async remove(id: number): Promise<{ message: string }> {
      return orm.em.fork().transactional(async (em) => {
        // Locked: a technician adding this type meanwhile waits, then finds it gone.
        const [row] = (await em.execute('select id from certification_types where id = ? for update', [id])) as { id: number }[]
        if (!row) throw typeNotFound()
        const [held] = (await em.execute('select count(*)::int as n from technician_certifications where certification_id = ?', [id])) as { n: number }[]
        if (held!.n > 0) throw typeInUse(held!.n)
        await em.execute('delete from certification_types where id = ?', [id])
        return { message: 'Certification deleted' }
      })
    },

    async requirements(): Promise<TierRequirement[]> {
      return (await certificationTypeRepository.requirements(orm.em.fork())).map(toTierRequirement)
    },

    /** Adds the type to the tier, or changes whether it is required there. */
    async putRequirement(input: RequirementInput): Promise<TierRequirement[]> {
      await orm.em.fork().transactional(async (em) => {
        if (!(await certificationTypeRepository.findById(em, input.certification_id))) throw typeNotFound()
        await em.execute(
          `insert into tier_requirements (tier_level, certification_id, is_required, created_at) values (?, ?, ?, ?)
           on conflict (tier_level, certification_id) do update set is_required = excluded.is_required`,
          [input.tier_level, input.certification_id, input.is_required, now()],
        )
      })
      return this.requirements()
    },

    async removeRequirement(id: number): Promise<TierRequirement[]> {
      const em = orm.em.fork()
      const removed = await em.nativeDelete(TierRequirementEntity, { id })
      if (removed === 0) throw notFound('Tier requirement not found', 'tier_requirement_not_found')
      return this.requirements()
    },
  }
}
export type CertificationTypeService = ReturnType<typeof createCertificationTypeService>
