import JSZip from 'jszip'
import {
  CAPTIVATE_MESSAGES,
  CaptivateError,
  editCaptivateProject,
  parseCaptivateProject,
  projectFilePaths,
  type CaptivateEdit,
  type CaptivateFiles,
  type CaptivateProject,
} from '@portal/contracts/captivate'
import { cmi5Summary, xmlText, type Cmi5Summary } from '../cmi5-summary.ts'

/**
 * The pre-upload editor's work on a package file (admin §2, §7: "performed on the admin's side by
 * rewriting the package's project data files inside the archive before upload"). Runs in a Web
 * Worker (`package-worker.ts`) so a package of hundreds of MB does not freeze the page.
 */

const decoder = new TextDecoder('utf-8', { fatal: true })

async function readProject(zip: JSZip) {
  const paths = projectFilePaths(Object.keys(zip.files).filter((n) => !zip.files[n]!.dir))
  const text = async (path: string | null) => {
    if (!path) return null
    try {
      return decoder.decode(await zip.file(path)!.async('uint8array'))
    } catch {
      throw new CaptivateError(CAPTIVATE_MESSAGES.unreadable, 'unreadable')
    }
  }
  const files: CaptivateFiles = { projectTxt: await text(paths.projectTxt), projectJs: await text(paths.projectJs) }
  return { paths, files, project: parseCaptivateProject(files) }
}

/** Not a zip (or a broken one): the analysis fails. */
export class NotAZipError extends Error {}

async function open(data: Blob | Uint8Array | ArrayBuffer): Promise<JSZip> {
  try {
    return await JSZip.loadAsync(data, { createFolders: false })
  } catch (err) {
    throw new NotAZipError(err instanceof Error ? err.message : String(err))
  }
}

/** The project a package file describes; throws NotAZipError or CaptivateError. */
export async function analyzePackage(data: Blob | Uint8Array | ArrayBuffer): Promise<CaptivateProject> {
  return (await readProject(await open(data))).project
}

/**
 * cmi5.xml of a cmi5 package: at the zip's root or in its single top folder, when there is no
 * imsmanifest.xml beside it (as the server reads packages: a manifest makes a SCORM package).
 */
function cmi5StructureOf(zip: JSZip): JSZip.JSZipObject | null {
  const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir && !n.startsWith('__MACOSX/'))
  const tops = new Set(names.map((n) => (n.includes('/') ? n.slice(0, n.indexOf('/') + 1) : '')))
  for (const root of tops.size === 1 && !tops.has('') ? ['', [...tops][0]!] : ['']) {
    const atRoot = names.filter((n) => n.startsWith(root) && !n.slice(root.length).includes('/'))
    const named = (file: string) => atRoot.find((n) => n.slice(root.length).toLowerCase() === file)
    if (named('imsmanifest.xml')) return null
    const structure = named('cmi5.xml')
    if (structure) return zip.file(structure)
  }
  return null
}

/** What a package chosen for upload is: a cmi5 course (its summary), else the Captivate project it holds (throws as analyzePackage). */
export async function inspectPackage(data: Blob | Uint8Array | ArrayBuffer): Promise<{ cmi5: Cmi5Summary } | { project: CaptivateProject }> {
  const zip = await open(data)
  const structure = cmi5StructureOf(zip)
  if (structure) return { cmi5: cmi5Summary(xmlText(await structure.async('uint8array'))) }
  return { project: (await readProject(zip)).project }
}

/** The compression method an entry was stored with ('\x08\x00' deflate, '\x00\x00' stored), from jszip's loaded data. */
const storedMethod = (entry: JSZip.JSZipObject): 'STORE' | 'DEFLATE' => {
  const magic = (entry as unknown as { _data?: { compression?: { magic?: string } } })._data?.compression?.magic
  return magic === '\x08\x00' ? 'DEFLATE' : 'STORE'
}

/**
 * The package with `edits` applied to its project files, as a new zip: the two project files are
 * rewritten (and read back before anything is written); every other entry keeps its compression
 * and its compressed bytes are copied as they are (videos are never inflated or compressed again).
 */
export async function rewritePackage(data: Blob | Uint8Array | ArrayBuffer, edits: CaptivateEdit[]): Promise<{ blob: Blob; project: CaptivateProject }> {
  const zip = await open(data)
  const { paths, files: original, project: before } = await readProject(zip)
  let files = original
  let project = before
  for (const edit of edits) {
    const out = editCaptivateProject(files, edit)
    files = out.files
    project = out.project
  }
  for (const entry of Object.values(zip.files)) if (!entry.dir) entry.options.compression = storedMethod(entry)
  for (const which of ['projectTxt', 'projectJs'] as const) {
    const path = paths[which]
    const text = files[which]
    if (path && text !== null && text !== original[which]) zip.file(path, text, { compression: 'DEFLATE', date: zip.files[path]!.date, createFolders: false })
  }
  const blob = await zip.generateAsync({ type: 'blob', mimeType: 'application/zip', compression: 'STORE' })
  return { blob, project }
}

/** The edits that turn `before` into the slides' typed values (only what changed). */
export function editsFrom(before: CaptivateProject, after: { id: string; name: string; durationInFrames: number }[]): CaptivateEdit[] {
  return after.flatMap((s) => {
    const was = before.slides.find((b) => b.id === s.id)
    if (!was) return []
    const edit: CaptivateEdit = { slideId: s.id }
    if (s.name.trim() !== was.name) edit.name = s.name.trim()
    if (s.durationInFrames !== was.durationInFrames) edit.durationInFrames = s.durationInFrames
    return edit.name === undefined && edit.durationInFrames === undefined ? [] : [edit]
  })
}
