import { CMI5_MESSAGES, MAX_CMI5_AUS, SCORM_EDITOR_MESSAGES as M } from '@portal/contracts'
import { useEffect, useState } from 'react'
import { cmi5Summary, xmlText, type Cmi5Summary } from '../cmi5-summary.ts'
import { extensionOf } from '../course-form.ts'
import { createPackageEditor, PackageEditError, type PackageEditor } from './package-worker-client.ts'

/**
 * Whether a package chosen for upload holds a Captivate project, the only kind Edit SCORM can edit;
 * or is a cmi5 course (a zip with cmi5.xml, or a cmi5.xml alone), which has nothing to edit.
 */
export type CaptivateCheck = { state: 'checking' } | { state: 'project' } | { state: 'cmi5'; title: string | null; auCount: number } | { state: 'none'; reason: string }

/** Why an .xml file cannot be a module: it is no cmi5 course structure. */
export const NOT_CMI5_XML = 'This XML file is not a cmi5 course structure (cmi5.xml), the only XML a module can be.'

/** A cmi5 course structure as the form shows it; one the server would refuse says why. */
export function cmi5Check(s: Cmi5Summary): CaptivateCheck {
  if (!s.course) return { state: 'none', reason: NOT_CMI5_XML }
  if (s.auCount === 0) return { state: 'none', reason: CMI5_MESSAGES.noAus }
  if (s.auCount > MAX_CMI5_AUS) return { state: 'none', reason: CMI5_MESSAGES.tooManyAus }
  return { state: 'cmi5', title: s.title, auCount: s.auCount }
}

/** What a file chosen as a package is: a cmi5.xml alone is read on the page, a zip in the package worker. */
async function checkFile(file: File, editor: () => PackageEditor): Promise<CaptivateCheck> {
  if (extensionOf(file.name) === 'xml') return cmi5Check(cmi5Summary(xmlText(new Uint8Array(await file.arrayBuffer()))))
  try {
    const found = await editor().inspect(file)
    return 'cmi5' in found ? cmi5Check(found.cmi5) : { state: 'project' }
  } catch (err) {
    return { state: 'none', reason: noProjectReason(err) }
  }
}

/** Why a failed analysis means there is nothing to edit, in plain words. */
export const noProjectReason = (err: unknown): string => (err instanceof PackageEditError && err.unreadable ? M.notCaptivateFile : M.notAZip)

/**
 * Analyzes `file` (a zip off the page's thread, as the editor does) to know whether to offer Edit
 * SCORM, or that it is a cmi5 course; null checks nothing.
 */
export function useCaptivateCheck(file: File | null): CaptivateCheck {
  const [checked, setChecked] = useState<{ file: File; result: CaptivateCheck } | null>(null)
  useEffect(() => {
    if (!file) return
    let live = true
    let editor: PackageEditor | null = null
    void checkFile(file, () => (editor = createPackageEditor())).then((result) => {
      if (live) setChecked({ file, result })
      editor?.close()
    })
    return () => {
      live = false
      editor?.close()
    }
  }, [file])
  return checked && checked.file === file ? checked.result : { state: 'checking' }
}
