import type { EntityManager } from '@mikro-orm/postgresql'
import type { TierRequirement } from '@portal/contracts'
import { CertificationTypeEntity, TierRequirementEntity, toCertificationBrief, type RenewingItem } from './certification-type.entity.ts'

/** A tier requirement with its type, as the rules and the API need it. */
export type RequirementRow = TierRequirement & { certification: TierRequirement['certification'] & { is_active: boolean } }

export const certificationTypeRepository = {
  findById: (em: EntityManager, id: number) => em.findOne(CertificationTypeEntity, { id }),
  findByIds: (em: EntityManager, ids: number[]) => (ids.length ? em.find(CertificationTypeEntity, { id: { $in: ids } }) : Promise.resolve([])),
  listAll: (em: EntityManager) => em.find(CertificationTypeEntity, {}, { orderBy: { tierLevel: 'asc', name: 'asc', id: 'asc' } }),
  /** Another type with this code (case-insensitive), if any. */
  async codeTaken(em: EntityManager, code: string, exceptId?: number): Promise<boolean> {
    const rows = (await em.execute('select 1 from certification_types where lower(code) = lower(?) and id <> ? limit 1', [code, exceptId ?? 0])) as unknown[]
    return rows.length > 0
  },
  /** How many technicians hold each type. */
  async holders(em: EntityManager): Promise<Map<number, number>> {
    const rows = (await em.execute('select certification_id, count(*)::int as n from technician_certifications group by certification_id')) as {
      certification_id: number
      n: number
    }[]
    return new Map(rows.map((r) => [Number(r.certification_id), Number(r.n)]))
  },
  /** Share-locks a type while a certification of it is added or renewed (its deletion waits). */
  async shareLock(em: EntityManager, id: number): Promise<void> {
    await em.execute('select id from certification_types where id = ? for share', [id])
  },
  /** A type locked for its deletion (a technician adding it meanwhile waits, then finds it gone). */
  async lockForDelete(em: EntityManager, id: number): Promise<{ id: number; name: string; code: string } | null> {
    const [row] = (await em.execute('select id, name, code from certification_types where id = ? for update', [id])) as { id: number; name: string; code: string }[]
    return row ?? null
  },
  /** How many technicians hold this type. */
  async holdersOf(em: EntityManager, id: number): Promise<number> {
    const [held] = (await em.execute('select count(*)::int as n from technician_certifications where certification_id = ?', [id])) as { n: number }[]
    return Number(held!.n)
  },
  async delete(em: EntityManager, id: number): Promise<void> {
    await em.execute('delete from certification_types where id = ?', [id])
  },
  /** The courses and exams renewing each type (of these ids, or of every type), in the admin's order. */
  async renewals(em: EntityManager, typeIds?: number[]): Promise<Map<number, RenewingItem[]>> {
    if (typeIds?.length === 0) return new Map()
    const rows = (await em.execute(
      `select certification_type_id, item_kind, item_id, item_title from certification_type_renewals
        ${typeIds ? 'where certification_type_id in (?)' : ''} order by certification_type_id, position`,
      typeIds ? [typeIds] : [],
    )) as { certification_type_id: number; item_kind: RenewingItem['item_kind']; item_id: number; item_title: string }[]
    const by = new Map<number, RenewingItem[]>()
    for (const r of rows) {
      const id = Number(r.certification_type_id)
      by.set(id, [...(by.get(id) ?? []), { item_kind: r.item_kind, item_id: Number(r.item_id), item_title: r.item_title }])
    }
    return by
  },

  /** Replaces the courses and exams renewing a type. */
  async setRenewals(em: EntityManager, typeId: number, items: RenewingItem[]): Promise<void> {
    await em.execute('delete from certification_type_renewals where certification_type_id = ?', [typeId])
    if (items.length === 0) return
    await em.execute(
      `insert into certification_type_renewals (certification_type_id, item_kind, item_id, item_title, position)
       select ?, e.item ->> 'item_kind', (e.item ->> 'item_id')::int, e.item ->> 'item_title', e.position - 1
         from jsonb_array_elements(?::jsonb) with ordinality as e(item, position)`,
      [typeId, JSON.stringify(items)],
    )
  },

  /** The active types a completion of this course or exam renews (their ids, in id order). */
  async renewedBy(em: EntityManager, item: { item_kind: RenewingItem['item_kind']; item_id: number }): Promise<number[]> {
    const rows = (await em.execute(
      `select t.id from certification_types t join certification_type_renewals r on r.certification_type_id = t.id
        where r.item_kind = ? and r.item_id = ? and t.is_active order by t.id`,
      [item.item_kind, item.item_id],
    )) as { id: number }[]
    return rows.map((r) => Number(r.id))
  },

  /** Adds the type to the tier, or changes whether it is required there. */
  async saveRequirement(em: EntityManager, r: { tier_level: number; certification_id: number; is_required: boolean }, at: Date): Promise<void> {
    await em.execute(
      `insert into tier_requirements (tier_level, certification_id, is_required, created_at) values (?, ?, ?, ?)
       on conflict (tier_level, certification_id) do update set is_required = excluded.is_required`,
      [r.tier_level, r.certification_id, r.is_required, at],
    )
  },
  /** Removes a tier requirement: its tier and type's code, or null when there is none. */
  async removeRequirement(em: EntityManager, id: number): Promise<{ tier_level: number; code: string } | null> {
    const [removed] = (await em.execute('delete from tier_requirements r using certification_types t where r.id = ? and t.id = r.certification_id returning r.tier_level, t.code', [
      id,
    ])) as { tier_level: number; code: string }[]
    return removed ?? null
  },
  /** Every tier requirement with its type, by tier, required first, then name. */
  async requirements(em: EntityManager): Promise<RequirementRow[]> {
    const reqs = await em.find(TierRequirementEntity, {})
    const types = new Map((await certificationTypeRepository.findByIds(em, [...new Set(reqs.map((r) => r.certificationId))])).map((t) => [t.id, t]))
    return reqs
      .flatMap((r) => {
        const t = types.get(r.certificationId)
        if (!t) return []
        return [
          {
            id: r.id,
            tier_level: r.tierLevel,
            certification_id: r.certificationId,
            is_required: r.isRequired,
            certification: { ...toCertificationBrief(t), is_active: t.isActive },
          },
        ]
      })
      .sort((a, b) => a.tier_level - b.tier_level || Number(b.is_required) - Number(a.is_required) || a.certification.name.localeCompare(b.certification.name) || a.id - b.id)
  },
}

/** A requirement as the API shows it (without the rules' `is_active`). */
export const toTierRequirement = ({ certification: { is_active: _active, ...certification }, ...r }: RequirementRow): TierRequirement => ({ ...r, certification })
