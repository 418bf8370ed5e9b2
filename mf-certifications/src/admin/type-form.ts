import {
  CERT_DEPARTMENT_TABS,
  CertificationTypeInput,
  DEPARTMENTS,
  TIER_LEVELS,
  tierLabel,
  VALIDITY_OPTIONS,
  validityLabel,
  type CertificationType,
  type TierLevel,
  type TierRequirement,
} from '@portal/contracts'

export type DepartmentTab = (typeof CERT_DEPARTMENT_TABS)[number]
export type Department = (typeof DEPARTMENTS)[number]

/** A course or an exam whose completion renews the type (issue 24), as the type stores it. */
export type RenewingItem = CertificationType['renewed_by'][number]

/** "Course: Lockout/Tagout", "Exam: Lockout/Tagout Final". */
export const renewingItemLabel = (item: RenewingItem): string => `${item.item_kind === 'exam' ? 'Exam' : 'Course'}: ${item.item_title}`

/** The key of a course or an exam in the picker ("course:3"). */
export const renewingItemKey = (item: Pick<RenewingItem, 'item_kind' | 'item_id'>): string => `${item.item_kind}:${item.item_id}`

/** The types list's Renewed by: each item in words, or "—" when no course or exam renews it. */
export const renewedByText = (t: Pick<CertificationType, 'renewed_by'>): string => (t.renewed_by.length === 0 ? '—' : t.renewed_by.map(renewingItemLabel).join('; '))

/** The create/edit form as typed (selects hold strings). */
export interface TypeForm {
  name: string
  code: string
  tier_level: string
  /** "" is every department. */
  department: string
  training_link: string
  /** "" is Lifetime. */
  validity_period: string
  description: string
  upload_required: boolean
  is_active: boolean
  /** Courses and exams whose completion (a pass, for exams) renews the certification. */
  renewed_by: RenewingItem[]
}

/** A new type with the defaults of admin §9 (tier 0, lifetime, upload required, active), in the open tab's department. */
export const emptyTypeForm = (tab: DepartmentTab): TypeForm => ({
  name: '',
  code: '',
  tier_level: '0',
  department: tab === 'All' ? '' : tab,
  training_link: '',
  validity_period: '',
  description: '',
  upload_required: true,
  is_active: true,
  renewed_by: [],
})

export const formFromType = (t: CertificationType): TypeForm => ({
  name: t.name,
  code: t.code,
  tier_level: String(t.tier_level),
  department: t.department ?? '',
  training_link: t.training_link ?? '',
  validity_period: t.validity_period === null ? '' : String(t.validity_period),
  description: t.description ?? '',
  upload_required: t.upload_required,
  is_active: t.is_active,
  renewed_by: t.renewed_by.map((r) => ({ ...r })),
})

/** The contracts' payload, or the first message of each field in error. */
export function validateTypeForm(form: TypeForm): { body: CertificationTypeInput } | { errors: Partial<Record<keyof TypeForm, string>> } {
  const parsed = CertificationTypeInput.safeParse({
    name: form.name,
    code: form.code,
    tier_level: Number(form.tier_level),
    department: form.department === '' ? null : form.department,
    training_link: form.training_link,
    validity_period: form.validity_period === '' ? null : Number(form.validity_period),
    description: form.description,
    upload_required: form.upload_required,
    is_active: form.is_active,
    renewed_by: form.renewed_by,
  })
  if (parsed.success) return { body: parsed.data }
  const errors: Partial<Record<keyof TypeForm, string>> = {}
  for (const issue of parsed.error.issues) errors[String(issue.path[0]) as keyof TypeForm] ??= issue.message
  return { errors }
}

/** Validity choices of admin §9 (Lifetime, 1, 2, 3, 5 years), plus a stored value outside them ("18 months"). */
export function validityOptions(current: string): { value: string; label: string }[] {
  const options = VALIDITY_OPTIONS.map((m) => ({ value: m === null ? '' : String(m), label: validityLabel(m) }))
  if (current !== '' && !options.some((o) => o.value === current)) options.push({ value: current, label: validityLabel(Number(current)) })
  return options
}

export const TIER_OPTIONS = TIER_LEVELS.map((t) => ({ value: String(t), label: tierSectionLabel(t) }))
export const DEPARTMENT_OPTIONS = [{ value: '', label: 'All departments' }, ...DEPARTMENTS.map((d) => ({ value: d, label: d }))]

/** "Tier 0 · New Hire", "Tier 1" ... (admin §2: tier sections 0 to 3). */
export function tierSectionLabel(tier: TierLevel): string {
  return tier === 0 ? `Tier 0 · ${tierLabel(0)}` : tierLabel(tier)
}

/** Whether a type or requirement shows under a department tab: its department or every department; All shows everything. */
export const inTab = (department: string | null, tab: DepartmentTab): boolean => tab === 'All' || department === null || department === tab

/** The tab's types of one tier, by name. */
export const typesOfTier = (types: readonly CertificationType[], tab: DepartmentTab, tier: TierLevel): CertificationType[] =>
  types.filter((t) => t.tier_level === tier && inTab(t.department, tab)).sort((a, b) => a.name.localeCompare(b.name))

/** The tab's requirements of one tier: required first, then by name. */
export const requirementsOfTier = (reqs: readonly TierRequirement[], tab: DepartmentTab, tier: TierLevel): TierRequirement[] =>
  reqs
    .filter((r) => r.tier_level === tier && inTab(r.certification.department, tab))
    .sort((a, b) => Number(b.is_required) - Number(a.is_required) || a.certification.name.localeCompare(b.certification.name))

/** Types that can still be added to a tier under the tab: active, in the tab, not yet listed for that tier. */
export const addableToTier = (types: readonly CertificationType[], reqs: readonly TierRequirement[], tab: DepartmentTab, tier: TierLevel) =>
  types
    .filter((t) => t.is_active && inTab(t.department, tab) && !reqs.some((r) => r.tier_level === tier && r.certification_id === t.id))
    .sort((a, b) => a.name.localeCompare(b.name))

/** Focus target names of Certification Management (decision 0010). */
export const ADMIN_FOCUS = {
  add: 'add-type',
  edit: (id: number) => `edit-${id}`,
  remove: (id: number) => `delete-${id}`,
  requirementRemove: (id: number) => `req-remove-${id}`,
  requirementPicker: (tier: TierLevel) => `req-picker-${tier}`,
}
