import { SCORM_EDITOR_MESSAGES as M } from '@portal/contracts'
import { useEffect, useState } from 'react'
import { createPackageEditor, PackageEditError } from './package-worker-client.ts'

/** Whether a package chosen for upload holds a Captivate project, the only kind Edit SCORM can edit. */
export type CaptivateCheck = { state: 'checking' } | { state: 'project' } | { state: 'none'; reason: string }

/** Why a failed analysis means there is nothing to edit, in plain words. */
export const noProjectReason = (err: unknown): string => (err instanceof PackageEditError && err.unreadable ? M.notCaptivateFile : M.notAZip)

/**
 * Analyzes `file` (off the page's thread, as the editor does) to know whether to offer Edit SCORM;
 * null checks nothing.
 */
export function useCaptivateCheck(file: File | null): CaptivateCheck {
  const [checked, setChecked] = useState<{ file: File; result: CaptivateCheck } | null>(null)
  useEffect(() => {
    if (!file) return
    let live = true
    const editor = createPackageEditor()
    editor
      .analyze(file)
      .then(
        () => ({ state: 'project' }) as const,
        (err: unknown) => ({ state: 'none', reason: noProjectReason(err) }) as const,
      )
      .then((result) => {
        if (live) setChecked({ file, result })
        editor.close()
      })
    return () => {
      live = false
      editor.close()
    }
  }, [file])
  return checked && checked.file === file ? checked.result : { state: 'checking' }
}
