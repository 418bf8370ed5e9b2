import {
  CertificationTypeResponse,
  CertificationTypesResponse,
  ConsistencyReport,
  CourseSummary,
  ExamSummary,
  TierRequirementsResponse,
  type CertificationTypeInput,
} from '@portal/contracts'
import { api } from '@portal/ui-kit'
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
 * Every course and exam, courses first, each by title, for the type form's "Renewed by": GET /courses
 * and GET /exams, which list everything to an admin.
 */
export const fetchRenewingItems = async (): Promise<RenewingItem[]> => {
  const [courses, exams] = await Promise.all([api.get('/courses', CourseSummary.array()), api.get('/exams', ExamSummary.array())])
  const byTitle = (a: RenewingItem, b: RenewingItem) => a.item_title.localeCompare(b.item_title)
  return [
    ...courses.map((c): RenewingItem => ({ item_kind: 'course', item_id: c.id, item_title: c.title })).sort(byTitle),
    ...exams.map((e): RenewingItem => ({ item_kind: 'exam', item_id: e.id, item_title: e.name })).sort(byTitle),
  ]
}
