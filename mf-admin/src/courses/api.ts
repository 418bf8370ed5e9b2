import { Course, COURSE_UPLOAD } from '@portal/contracts'
import { api, uploadWithProgress } from '@portal/ui-kit'

const Courses = Course.array()
const coursePath = (id: number) => `/courses/${encodeURIComponent(String(id))}`

/** Progress and cancel for a course upload. */
export interface UploadControls {
  onProgress: (loaded: number, total: number) => void
  signal: AbortSignal
}

export const fetchAdminCourses = () => api.get('/admin/courses', Courses)
export const createCourse = (form: FormData, c: UploadControls) => uploadWithProgress('POST', '/courses', form, { ...c, schema: Course, timeoutMs: COURSE_UPLOAD.timeoutMs })
export const updateCourse = (id: number, form: FormData, c: UploadControls) =>
  uploadWithProgress('PUT', coursePath(id), form, { ...c, schema: Course, timeoutMs: COURSE_UPLOAD.timeoutMs })
export const deleteCourse = (id: number) => api.delete(coursePath(id))
export const assignCourse = (id: number, userIds: string[]) => api.post(`${coursePath(id)}/assign`, { userIds })
