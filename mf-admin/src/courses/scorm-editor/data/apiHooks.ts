import type { EditTimingResponse } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { analyzeModule, editTiming, fetchBackups, restoreBackup, verifyModule, type TimingEdit } from '../api.ts'

/** Query keys of the timing editor (per module). */
export const scormEditorKeys = {
  all: ['scorm-editor'] as const,
  analysis: (moduleId: number) => [...scormEditorKeys.all, moduleId, 'analysis'] as const,
  backups: (moduleId: number) => [...scormEditorKeys.all, moduleId, 'backups'] as const,
  verification: (moduleId: number) => [...scormEditorKeys.all, moduleId, 'verification'] as const,
}

/** Fetches the editor's analyses and backups again (after an edit or a restore). */
const useRefreshScormEditor = () => {
  const queryClient = useQueryClient()
  return async () => {
    await queryClient.invalidateQueries({ queryKey: scormEditorKeys.all })
  }
}

/** The stored package's analysis (its video slides, frame rate); a failure shows at once, without retries. */
export const useScormAnalysis = (moduleId: number) => useQuery({ queryKey: scormEditorKeys.analysis(moduleId), queryFn: () => analyzeModule(moduleId), retry: false })

/** The module's package backups, newest first as the server gives them; no retries. */
export const useScormBackups = (moduleId: number) => useQuery({ queryKey: scormEditorKeys.backups(moduleId), queryFn: () => fetchBackups(moduleId), retry: false })

/** Edits a slide's timing, name or video; `onEdited` runs before the analysis and backups are fetched again. */
export const useEditTiming = (onEdited: (r: EditTimingResponse) => void) => {
  const refresh = useRefreshScormEditor()
  return useMutation({
    mutationFn: (edit: TimingEdit) => editTiming(edit),
    onSuccess: async (r) => {
      onEdited(r)
      await refresh()
    },
  })
}

/** Restores a backup of the module's package; `onRestored` runs before the analysis and backups are fetched again. */
export const useRestoreBackup = (moduleId: number, onRestored: (r: Awaited<ReturnType<typeof restoreBackup>>) => void) => {
  const refresh = useRefreshScormEditor()
  return useMutation({
    mutationFn: (backupId: number) => restoreBackup(moduleId, backupId),
    onSuccess: async (r) => {
      onRestored(r)
      await refresh()
    },
  })
}

/** Checks the module's files in storage (on request). */
export const useVerifyModule = (moduleId: number) => useMutation({ mutationFn: () => verifyModule(moduleId) })
