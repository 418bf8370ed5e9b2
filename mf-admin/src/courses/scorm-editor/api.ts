import { EditTimingResponse, RestoreScormResponse, ScormAnalyzeResponse, ScormBackupsResponse, ScormVerification } from '@portal/contracts'
import { api, uploadWithProgress } from '@portal/ui-kit'

export const analyzeModule = (moduleId: number) => api.post('/scorm-editor/analyze', { moduleId }, ScormAnalyzeResponse)
export const fetchBackups = (moduleId: number) => api.get(`/scorm-editor/backups/${moduleId}`, ScormBackupsResponse)
export const restoreBackup = (moduleId: number, backupId: number) => api.post('/scorm-editor/restore', { moduleId, backupId }, RestoreScormResponse)
export const verifyModule = (moduleId: number) => api.get(`/scorm-editor/verify/${moduleId}`, ScormVerification)

export interface TimingEdit {
  moduleId: number
  slideId: string
  slideName?: string
  duration?: string
  videoFile?: File | null
}

/** POST /scorm-editor/edit-timing: JSON, or multipart when a replacement video goes with it. */
export const editTiming = ({ videoFile, ...fields }: TimingEdit) => {
  if (!videoFile) return api.post('/scorm-editor/edit-timing', fields, EditTimingResponse)
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, String(v))
  form.set('videoFile', videoFile)
  return uploadWithProgress('POST', '/scorm-editor/edit-timing', form, { schema: EditTimingResponse })
}
