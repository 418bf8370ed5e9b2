import {
  CompleteModuleResponse,
  CourseModulesProgress,
  CourseWithProgress,
  ModuleLaunch,
  ModuleProgressResponse,
  ScormEditState,
  ScormLaunch,
  ScormProcessing,
  type CompletionTrigger,
} from '@portal/contracts'
import { api, ApiError, getToken } from '@portal/ui-kit'

const CoursesWithProgress = CourseWithProgress.array()

export const fetchCoursesWithProgress = () => api.get('/courses/with-progress', CoursesWithProgress)

export const fetchCourseModules = async (courseId: number) => (await api.get(`/modules/course/${courseId}/progress`, CourseModulesProgress)).data

export const saveModuleProgress = (moduleId: number, courseId: number, progress: number) => api.put(`/modules/${moduleId}/progress`, { progress, courseId }, ModuleProgressResponse)

export const completeModule = (moduleId: number, courseId: number, trigger: CompletionTrigger) =>
  api.put(`/modules/${moduleId}/complete`, { courseId, trigger }, CompleteModuleResponse)

/**
 * The same completion while the page goes away (pagehide): a keepalive request outlives the page;
 * nobody reads its answer.
 */
export const completeModuleOnExit = (moduleId: number, courseId: number, trigger: CompletionTrigger): void => {
  const token = getToken()
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  void fetch(`/api/modules/${moduleId}/complete`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ courseId, trigger }),
    keepalive: true,
  }).catch(() => undefined)
}

export type ScormLaunchResult = { kind: 'ready'; launch: ScormLaunch } | { kind: 'processing'; message: string }

/** GET /scorm/{id}/launch: the launch, or "still processing" (202, which the client counts as ok). */
export const fetchScormLaunch = async (moduleId: number): Promise<ScormLaunchResult> => {
  const body = await api.get<unknown>(`/scorm/${moduleId}/launch`)
  const processing = ScormProcessing.safeParse(body)
  if (processing.success) return { kind: 'processing', message: processing.data.message }
  if (!body || typeof body !== 'object' || typeof (body as { url?: unknown }).url !== 'string' || !(body as { url: string }).url) throw new LaunchUrlMissing()
  const launch = ScormLaunch.safeParse(body)
  if (!launch.success) throw new ApiError(200, 'invalid_response', 'Unexpected response from server', body)
  return { kind: 'ready', launch: launch.data }
}

/** The launch answer had no URL ('SCORM launch URL not found in response'). */
export class LaunchUrlMissing extends Error {
  constructor() {
    super('SCORM launch URL not found in response')
    this.name = 'LaunchUrlMissing'
  }
}

export const fetchModuleLaunch = (moduleId: number) => api.get(`/modules/${moduleId}/launch`, ModuleLaunch)

/** Whether the package has editor changes; on any failure it counts as not edited (learner §7). */
export const fetchHasEdits = async (moduleId: number): Promise<boolean> => {
  try {
    return (await api.get(`/scorm-editor/edit/${moduleId}`, ScormEditState)).hasEdits
  } catch {
    return false
  }
}
