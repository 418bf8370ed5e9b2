import { COURSE_MESSAGES, COURSE_UPLOAD, type Course, type CourseModule } from '@portal/contracts'
import { ApiError, errorMessage, neighbourAfterRemoval } from '@portal/ui-kit'

/**
 * A module row of the Upload New Course / Edit Course form (admin §4): an existing (stored) module
 * or a new one with its file. Existing rows can be marked for deletion (and restored).
 */
export interface ModuleRow {
  /** Identifies the row in the list (stable across moves). */
  key: number
  kind: 'existing' | 'new'
  /** Stored id (existing rows). */
  id?: number
  title: string
  /** 1-based position among the rows that stay; kept as it was while marked for deletion. */
  order: number
  /** The file to upload (new rows). */
  file?: File
  /** Original file name. */
  fileName: string
  size: number
  isScorm: boolean
  markedForDeletion: boolean
  /** A new SCORM package whose file the pre-upload editor rewrote (shows "Pre-edited"). */
  preEdited?: boolean
  /** What the server says about a stored module (processing, SCORM version, whether it holds a Captivate project). */
  stored?: Pick<CourseModule, 'processing_status' | 'processing_error' | 'scorm_version' | 'scorm_edition' | 'scorm_editable'>
}

export interface CourseFormState {
  title: string
  isAssignedToAll: boolean
  /** In display order. */
  modules: ModuleRow[]
  nextKey: number
  /** Files skipped when they were picked, with the reason (e.g. "File type not supported: a.txt"). */
  fileErrors: string[]
  /** Set by the first submit: from then on every error shows. */
  submitted: boolean
}

export const emptyCourseForm = (): CourseFormState => ({
  title: '',
  isAssignedToAll: false,
  modules: [],
  nextKey: 1,
  fileErrors: [],
  submitted: false,
})

/** The form filled with a stored course (Edit Course). */
export const formFromCourse = (course: Course): CourseFormState => {
  const modules = [...course.modules]
    .sort((a, b) => a.order - b.order)
    .map((m, i): ModuleRow => ({
      key: i + 1,
      kind: 'existing',
      id: m.id,
      title: m.title,
      order: i + 1,
      fileName: m.file_path,
      size: m.size,
      isScorm: m.is_scorm,
      markedForDeletion: false,
      stored: {
        processing_status: m.processing_status,
        processing_error: m.processing_error,
        scorm_version: m.scorm_version,
        scorm_edition: m.scorm_edition,
        scorm_editable: m.scorm_editable,
      },
    }))
  return { ...emptyCourseForm(), title: course.title, isAssignedToAll: course.is_assigned_to_all, modules, nextKey: modules.length + 1 }
}

/** The lower-case extension of a file name ('' when it has none). */
export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.')
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : ''
}

/** The default module title: the file name without its extension (admin §5). */
export const defaultModuleTitle = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.')
  return dot > 0 ? fileName.slice(0, dot) : fileName
}

/** The file picker's accept list: ".pdf,.pptx,.mp4,.webm,.mp3,.wav,.zip". */
export const ACCEPT = COURSE_UPLOAD.allowedExtensions.map((e) => `.${e}`).join(',')

const MAX_FILE_MB = Math.round(COURSE_UPLOAD.maxFileBytes / (1024 * 1024))

/** Why a picked file is skipped, or null when it can be a module (type by extension, size). */
export const fileProblem = (file: Pick<File, 'name' | 'size'>): string | null => {
  if (!(COURSE_UPLOAD.allowedExtensions as readonly string[]).includes(extensionOf(file.name))) return COURSE_MESSAGES.fileTypeNotSupported(file.name)
  if (file.size > COURSE_UPLOAD.maxFileBytes) return COURSE_MESSAGES.fileTooLarge(file.name, MAX_FILE_MB)
  return null
}

/** A module is a package if it is a zip (admin §5), or a cmi5.xml alone (issue 26). */
export const isScormFile = (fileName: string): boolean => ['zip', 'xml'].includes(extensionOf(fileName))

/** The type badge of a row: SCORM (cmi5 for a cmi5.xml alone), PDF, Slides, Video or Audio. */
export const moduleTypeLabel = (row: Pick<ModuleRow, 'fileName' | 'isScorm'>): string => {
  if (row.isScorm) return extensionOf(row.fileName) === 'xml' ? 'cmi5' : 'SCORM'
  switch (extensionOf(row.fileName)) {
    case 'pdf':
      return 'PDF'
    case 'pptx':
      return 'Slides'
    case 'mp4':
    case 'webm':
      return 'Video'
    case 'mp3':
    case 'wav':
      return 'Audio'
    default:
      return 'File'
  }
}

/** Orders 1..n for the rows that stay, in display order; rows marked for deletion keep theirs. */
export const renumber = (rows: readonly ModuleRow[]): ModuleRow[] => {
  let n = 0
  return rows.map((r) => (r.markedForDeletion ? r : { ...r, order: ++n }))
}

/** The rows that stay (not marked for deletion). */
export const activeModules = (rows: readonly ModuleRow[]): ModuleRow[] => rows.filter((r) => !r.markedForDeletion)

/**
 * Moves a row one place up or down among the rows that stay (rows marked for deletion are stepped
 * over) and renumbers; at either end nothing changes.
 */
export const moveModule = (rows: readonly ModuleRow[], key: number, direction: 'up' | 'down'): ModuleRow[] => {
  const from = rows.findIndex((r) => r.key === key)
  if (from < 0 || rows[from]!.markedForDeletion) return [...rows]
  const step = direction === 'up' ? -1 : 1
  let to = from + step
  while (to >= 0 && to < rows.length && rows[to]!.markedForDeletion) to += step
  if (to < 0 || to >= rows.length) return [...rows]
  const next = [...rows]
  next[from] = rows[to]!
  next[to] = rows[from]!
  return renumber(next)
}

/** Drops a new row; marks a stored one for deletion. Renumbers. */
export const removeModule = (rows: readonly ModuleRow[], key: number): ModuleRow[] =>
  renumber(rows.flatMap((r) => (r.key !== key ? [r] : r.kind === 'new' ? [] : [{ ...r, markedForDeletion: true }])))

/** Undo of a deletion: the stored row stays after all. Renumbers. */
export const restoreModule = (rows: readonly ModuleRow[], key: number): ModuleRow[] => renumber(rows.map((r) => (r.key === key ? { ...r, markedForDeletion: false } : r)))

/** Whether a row can move up / down (for disabling the buttons). */
export const canMove = (rows: readonly ModuleRow[], key: number, direction: 'up' | 'down'): boolean => {
  const active = activeModules(rows)
  const i = active.findIndex((r) => r.key === key)
  if (i < 0) return false
  return direction === 'up' ? i > 0 : i < active.length - 1
}

/** Focus target names in the form: a module row's controls, the file picker and the message area. */
export const FOCUS = {
  move: (key: number, direction: 'up' | 'down') => `module-${key}-${direction}`,
  /** Remove (a new row) or Delete (a stored one). */
  remove: (key: number) => `module-${key}-remove`,
  undo: (key: number) => `module-${key}-undo`,
  files: 'files',
  summary: 'summary',
} as const

/** A module as messages name it: its title, else its file name. */
export const moduleName = (row: Pick<ModuleRow, 'title' | 'fileName'>): string => row.title.trim() || row.fileName

const modulesCount = (n: number) => `${n === 0 ? 'no' : n} module${n === 1 ? '' : 's'}`

/** Where a row stands among the rows that stay: "position 2 of 3". */
const positionOf = (rows: readonly ModuleRow[], key: number): string => {
  const active = activeModules(rows)
  return `position ${active.findIndex((r) => r.key === key) + 1} of ${active.length}`
}

/**
 * What a move leaves for the keyboard: the move button that keeps focus (the one pressed while the
 * row can still go that way, else the other one: a disabled button loses focus) and the message
 * for the live region. Null when the row cannot move that way.
 */
export const afterMove = (rows: readonly ModuleRow[], key: number, direction: 'up' | 'down'): { focus: string; message: string } | null => {
  if (!canMove(rows, key, direction)) return null
  const moved = moveModule(rows, key, direction)
  const row = moved.find((r) => r.key === key)!
  const again = canMove(moved, key, direction) ? direction : direction === 'up' ? 'down' : 'up'
  return {
    focus: FOCUS.move(key, again),
    message: `Module '${moduleName(row)}' moved to ${positionOf(moved, key)}`,
  }
}

/**
 * What removing a row leaves for the keyboard: focus on the Remove/Delete of the row that takes its
 * place, else of the row before, else the file picker; and the message. A stored row is only marked
 * for deletion: it stays in the list with Undo, which takes focus.
 */
export const afterRemove = (rows: readonly ModuleRow[], key: number): { focus: string[]; message: string } => {
  const row = rows.find((r) => r.key === key)!
  if (row.kind === 'existing') {
    return { focus: [FOCUS.undo(key)], message: `Module '${moduleName(row)}' will be deleted when you update the course. Undo keeps it.` }
  }
  const active = activeModules(rows)
  const next = neighbourAfterRemoval(
    active.map((r) => r.key),
    key,
  )
  return {
    focus: next === undefined ? [FOCUS.files] : [FOCUS.remove(next), FOCUS.files],
    message: `Module '${moduleName(row)}' removed; ${modulesCount(active.length - 1)} left.`,
  }
}

/** After Undo: focus on the row's Delete again (the Undo button goes) and its place said. */
export const afterUndo = (rows: readonly ModuleRow[], key: number): { focus: string; message: string } => {
  const restored = restoreModule(rows, key)
  return { focus: FOCUS.remove(key), message: `Module '${moduleName(restored.find((r) => r.key === key)!)}' kept at ${positionOf(restored, key)}` }
}

/** What picking files added, for the live region (skipped files have their own alert). */
export const addedMessage = (before: CourseFormState, after: CourseFormState): string | null => {
  const added = activeModules(after.modules).length - activeModules(before.modules).length
  return added > 0 ? `${modulesCount(added)} added; ${activeModules(after.modules).length} in the course.` : null
}

export type CourseFormAction =
  | { type: 'title'; value: string }
  | { type: 'assignAll'; value: boolean }
  | { type: 'addFiles'; files: readonly File[] }
  | { type: 'moduleTitle'; key: number; value: string }
  | { type: 'move'; key: number; direction: 'up' | 'down' }
  /** Drops a new row; marks an existing one for deletion (after the admin confirmed). */
  | { type: 'remove'; key: number }
  | { type: 'undoRemove'; key: number }
  | { type: 'dismissFileErrors' }
  | { type: 'submitted' }
  /** The pre-upload editor saved a rewritten package: it replaces the new row's file. */
  | { type: 'preEdited'; key: number; file: File }

export const courseFormReducer = (state: CourseFormState, action: CourseFormAction): CourseFormState => {
  switch (action.type) {
    case 'title':
      return { ...state, title: action.value }
    case 'assignAll':
      return { ...state, isAssignedToAll: action.value }
    case 'addFiles': {
      const fileErrors: string[] = []
      const added: ModuleRow[] = []
      let nextKey = state.nextKey
      for (const file of action.files) {
        const problem = fileProblem(file)
        if (problem) {
          fileErrors.push(problem)
          continue
        }
        added.push({
          key: nextKey++,
          kind: 'new',
          title: defaultModuleTitle(file.name),
          order: 0,
          file,
          fileName: file.name,
          size: file.size,
          isScorm: isScormFile(file.name),
          markedForDeletion: false,
        })
      }
      return { ...state, nextKey, fileErrors, modules: renumber([...state.modules, ...added]) }
    }
    case 'moduleTitle':
      return { ...state, modules: state.modules.map((r) => (r.key === action.key ? { ...r, title: action.value } : r)) }
    case 'move':
      return { ...state, modules: moveModule(state.modules, action.key, action.direction) }
    case 'remove':
      return { ...state, modules: removeModule(state.modules, action.key) }
    case 'undoRemove':
      return { ...state, modules: restoreModule(state.modules, action.key) }
    case 'dismissFileErrors':
      return { ...state, fileErrors: [] }
    case 'submitted':
      return { ...state, submitted: true }
    case 'preEdited':
      return {
        ...state,
        modules: state.modules.map((r) => (r.key === action.key && r.kind === 'new' ? { ...r, file: action.file, size: action.file.size, preEdited: true } : r)),
      }
  }
}

export interface CourseFormErrors {
  title?: string
  /** "At least one module is required" / too many files. */
  modules?: string
  /** Per row key. */
  moduleTitles: Record<number, string>
  count: number
}

/**
 * The form's errors (admin §5). Before the first submit only fields already typed in show theirs
 * (a blanked module title); after it every error shows.
 */
export const validateCourseForm = (state: CourseFormState, all = state.submitted): CourseFormErrors => {
  const errors: CourseFormErrors = { moduleTitles: {}, count: 0 }
  if (all && !state.title.trim()) errors.title = COURSE_MESSAGES.titleRequired
  const active = activeModules(state.modules)
  const newCount = active.filter((r) => r.kind === 'new').length
  if (all && active.length === 0) errors.modules = COURSE_MESSAGES.atLeastOneModule
  else if (newCount > COURSE_UPLOAD.maxFiles) errors.modules = COURSE_MESSAGES.tooManyFiles(COURSE_UPLOAD.maxFiles)
  for (const r of active) if (!r.title.trim()) errors.moduleTitles[r.key] = COURSE_MESSAGES.moduleTitleRequired
  errors.count = (errors.title ? 1 : 0) + (errors.modules ? 1 : 0) + Object.keys(errors.moduleTitles).length
  return errors
}

const newRows = (state: CourseFormState) => activeModules(state.modules).filter((r) => r.kind === 'new' && r.file)

/**
 * POST /courses multipart: title, is_assigned_to_all, moduleData (JSON [{title, order}]) and then
 * moduleFiles in the same order (text fields first, so the server reads them before the files).
 */
export const buildCreateForm = (state: CourseFormState): FormData => {
  const rows = newRows(state)
  const form = new FormData()
  form.append('title', state.title.trim())
  form.append('is_assigned_to_all', String(state.isAssignedToAll))
  form.append('moduleData', JSON.stringify(rows.map((r) => ({ title: r.title.trim(), order: r.order }))))
  for (const r of rows) form.append('moduleFiles', r.file!, r.fileName)
  return form
}

/**
 * PUT /courses/{id} multipart: title, is_assigned_to_all, existingModules (JSON [{id, title, order}]),
 * modulesToDelete (JSON ids), newModuleData (JSON [{title, order}]) and then newModuleFiles.
 */
export const buildUpdateForm = (state: CourseFormState): FormData => {
  const existing = activeModules(state.modules).filter((r) => r.kind === 'existing' && r.id !== undefined)
  const toDelete = state.modules.filter((r) => r.kind === 'existing' && r.markedForDeletion && r.id !== undefined)
  const rows = newRows(state)
  const form = new FormData()
  form.append('title', state.title.trim())
  form.append('is_assigned_to_all', String(state.isAssignedToAll))
  form.append('existingModules', JSON.stringify(existing.map((r) => ({ id: r.id!, title: r.title.trim(), order: r.order }))))
  form.append('modulesToDelete', JSON.stringify(toDelete.map((r) => r.id!)))
  form.append('newModuleData', JSON.stringify(rows.map((r) => ({ title: r.title.trim(), order: r.order }))))
  for (const r of rows) form.append('newModuleFiles', r.file!, r.fileName)
  return form
}

export const UPLOAD_CANCELLED = 'The upload was cancelled. Your course details are kept; you can upload again.'

export const COURSE_ERRORS = {
  create: 'Failed to create course. Please try again.',
  update: 'Failed to update course. Please try again.',
  delete: 'Failed to delete course. Please try again.',
  noData: 'No course data received from server',
  assign: 'Failed to assign course',
  load: 'Failed to fetch data',
} as const

/** The text for a failed upload: cancelled, no course in the answer, else the server message or the default (admin §8). */
export const uploadErrorText = (error: unknown, mode: 'create' | 'update'): string => {
  if (error instanceof ApiError && error.code === 'aborted') return UPLOAD_CANCELLED
  if (error instanceof ApiError && error.code === 'invalid_response') return COURSE_ERRORS.noData
  return errorMessage(error, mode === 'create' ? COURSE_ERRORS.create : COURSE_ERRORS.update)
}
