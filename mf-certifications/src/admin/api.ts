import {
  CertificationTypeResponse,
  CertificationTypesResponse,
  ConsistencyReport,
  TierRequirementsResponse,
  type CertificationTypeInput,
  type CourseSummary,
  type ExamSummary,
} from '@portal/contracts'
import { api, ApiError } from '@portal/ui-kit'
import type { RenewingItem } from './type-form.ts'

export const fetchTypes = () => api.get('/admin/certifications', CertificationTypesResponse).then((r) => r.certifications)
export const createType = (body: CertificationTypeInput) => api.post('/admin/certifications', body, CertificationTypeResponse)
export const updateType = (id: number, body: CertificationTypeInput) => api.put(`/admin/certifications/${id}`, body, CertificationTypeResponse)
export const deleteType = (id: number) => api.delete(`/admin/certifications/${id}`)

export const fetchRequirements = () => api.get('/admin/certifications/tier-requirements', TierRequirementsResponse).then((r) => r.requirements)
/** Adds a type to a tier, or changes whether it is required (one per tier and type). */
export const putRequirement = (body: { tier_level: number; certification_id: number; is_required: boolean }) => api.put('/admin/certifications/tier-requirements', body)
export const deleteRequirement = (id: number) => api.delete(`/admin/certifications/tier-requirements/${id}`)

/** Every figure recomputed from the ledger and compared with what the screens show (issue 23). */
export const fetchConsistency = () => api.get('/admin/certifications/consistency', ConsistencyReport)

/**
 * The id and title of each course or exam of a list answer (`titleKey`: a course's title, an exam's
 * name), checked by hand rather than with the contracts' CourseSummary and ExamSummary, so this
 * screen does not carry the schemas of the whole course and exam catalogue; the keys are tied to
 * those contracts by type (a renamed field breaks the build).
 */
function titlesOf(body: unknown, titleKey: keyof CourseSummary | keyof ExamSummary): { id: number; title: string }[] {
  const invalid = () => new ApiError(200, 'invalid_response', 'Unexpected response from server', body)
  if (!Array.isArray(body)) throw invalid()
  return body.map((row: unknown) => {
    const r = (row ?? {}) as Record<string, unknown>
    const id = r.id
    const title = r[titleKey]
    if (typeof id !== 'number' || !Number.isInteger(id) || typeof title !== 'string') throw invalid()
    return { id, title }
  })
}

/**
 * Every course and exam, courses first, each by title, for the type form's "Renewed by": GET /courses
 * and GET /exams, which list everything to an admin.
 */
export const fetchRenewingItems = async (): Promise<RenewingItem[]> => {
  const [courses, exams] = await Promise.all([api.get<unknown>('/courses'), api.get<unknown>('/exams')])
  const courseTitle: keyof CourseSummary = 'title'
  const examTitle: keyof ExamSummary = 'name'
  const byTitle = (a: RenewingItem, b: RenewingItem) => a.item_title.localeCompare(b.item_title)
  return [
    ...titlesOf(courses, courseTitle)
      .map((c): RenewingItem => ({ item_kind: 'course', item_id: c.id, item_title: c.title }))
      .sort(byTitle),
    ...titlesOf(exams, examTitle)
      .map((e): RenewingItem => ({ item_kind: 'exam', item_id: e.id, item_title: e.title }))
      .sort(byTitle),
  ]
}
