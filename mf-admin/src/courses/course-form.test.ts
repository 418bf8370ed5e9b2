import type { Course, CourseModule } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'
import { describe, expect, it } from 'vitest'
import {
  ACCEPT,
  addedMessage,
  afterMove,
  afterRemove,
  afterUndo,
  buildCreateForm,
  buildUpdateForm,
  canMove,
  courseFormReducer,
  defaultModuleTitle,
  emptyCourseForm,
  FOCUS,
  formFromCourse,
  fileProblem,
  isScormFile,
  moduleTypeLabel,
  moveModule,
  renumber,
  uploadErrorText,
  validateCourseForm,
  UPLOAD_CANCELLED,
  type CourseFormState,
} from './course-form.ts'

const file = (name: string, bytes = 10) => new File([new Uint8Array(bytes)], name)

const withFiles = (state: CourseFormState, ...names: string[]) => courseFormReducer(state, { type: 'addFiles', files: names.map((n) => file(n)) })

const mod = (id: number, order: number, over: Partial<CourseModule> = {}): CourseModule => ({
  id,
  course_id: 9,
  title: `Stored ${id}`,
  order,
  file_path: `stored-${id}.pdf`,
  size: 2 * 1024 * 1024,
  is_scorm: false,
  content_type: 'application/pdf',
  processing_status: 'ready',
  processing_error: null,
  scorm_version: null,
  scorm_edition: null,
  sco_count: 0,
  ...over,
})

const course: Course = {
  id: 9,
  title: 'Safety',
  is_assigned_to_all: true,
  assigned_user_ids: [],
  // Out of order on purpose: the form shows them by order.
  modules: [mod(12, 2), mod(11, 1), mod(13, 3, { is_scorm: true, file_path: 'pkg.zip', scorm_version: '1.2' })],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
}

const titles = (s: CourseFormState) => s.modules.map((r) => `${r.order}:${r.title}${r.markedForDeletion ? ' (deleted)' : ''}`)

describe('course form: picking files', () => {
  it('accepts the allowed types in the file picker', () => {
    expect(ACCEPT).toBe('.pdf,.pptx,.mp4,.webm,.mp3,.wav,.zip,.xml')
  })

  it('adds one module per allowed file, titled by the file name without its extension, numbered from 1', () => {
    const s = withFiles(emptyCourseForm(), 'Intro Video.mp4', 'handbook.v2.PDF', 'package.zip')
    expect(titles(s)).toEqual(['1:Intro Video', '2:handbook.v2', '3:package'])
    expect(s.modules.map((r) => r.isScorm)).toEqual([false, false, true])
    expect(s.modules.every((r) => r.kind === 'new' && r.file instanceof File)).toBe(true)
    expect(s.fileErrors).toEqual([])
  })

  it('skips a file of another type with the message "File type not supported: {file}"', () => {
    const s = withFiles(emptyCourseForm(), 'notes.txt', 'talk.mp3', 'noextension')
    expect(titles(s)).toEqual(['1:talk'])
    expect(s.fileErrors).toEqual(['File type not supported: notes.txt', 'File type not supported: noextension'])
  })

  it('skips a file over the size limit with the limit in the message', () => {
    const big = { name: 'huge.mp4', size: 513 * 1024 * 1024 } as File
    const s = courseFormReducer(emptyCourseForm(), { type: 'addFiles', files: [big] })
    expect(s.modules).toEqual([])
    expect(s.fileErrors).toEqual(['File too large: huge.mp4 (the limit is 512 MB)'])
  })

  it('appends later picks after the modules already listed', () => {
    const s = withFiles(withFiles(emptyCourseForm(), 'a.pdf'), 'b.wav')
    expect(titles(s)).toEqual(['1:a', '2:b'])
  })

  it('keeps a dotted file name without extension as the title', () => {
    expect(defaultModuleTitle('.zip')).toBe('.zip')
    expect(defaultModuleTitle('Lesson 1.pptx')).toBe('Lesson 1')
  })

  it('labels the type and the size of a row', () => {
    expect(moduleTypeLabel({ fileName: 'x.zip', isScorm: true })).toBe('SCORM')
    // A cmi5.xml alone is a package too: a cmi5 course whose AUs are hosted elsewhere.
    expect(moduleTypeLabel({ fileName: 'cmi5.xml', isScorm: isScormFile('cmi5.xml') })).toBe('cmi5')
    expect(isScormFile('course.ZIP')).toBe(true)
    expect(isScormFile('notes.pdf')).toBe(false)
    expect(fileProblem({ name: 'cmi5.xml', size: 2_000 })).toBeNull()
    expect(moduleTypeLabel({ fileName: 'x.pptx', isScorm: false })).toBe('Slides')
    expect(moduleTypeLabel({ fileName: 'x.webm', isScorm: false })).toBe('Video')
    expect(moduleTypeLabel({ fileName: 'x.wav', isScorm: false })).toBe('Audio')
    expect(moduleTypeLabel({ fileName: 'x.pdf', isScorm: false })).toBe('PDF')
  })
})

describe('course form: validation', () => {
  it('shows nothing before the first submit, then the title and module messages', () => {
    const s = emptyCourseForm()
    expect(validateCourseForm(s).count).toBe(0)
    const all = validateCourseForm(courseFormReducer(s, { type: 'submitted' }))
    expect(all.title).toBe('Course title is required')
    expect(all.modules).toBe('At least one module is required')
    expect(all.count).toBe(2)
  })

  it('requires every module title that stays', () => {
    let s = withFiles(emptyCourseForm(), 'a.pdf', 'b.pdf')
    s = courseFormReducer(s, { type: 'title', value: 'Course' })
    s = courseFormReducer(s, { type: 'moduleTitle', key: s.modules[1]!.key, value: '   ' })
    const errors = validateCourseForm(s, true)
    expect(errors.moduleTitles).toEqual({ [s.modules[1]!.key]: 'Module title is required' })
    expect(errors.count).toBe(1)
  })

  it('counts a course whose modules are all marked for deletion as having none', () => {
    let s = formFromCourse({ ...course, modules: [mod(11, 1)] })
    s = courseFormReducer(s, { type: 'remove', key: s.modules[0]!.key })
    expect(validateCourseForm(s, true).modules).toBe('At least one module is required')
    s = courseFormReducer(s, { type: 'undoRemove', key: s.modules[0]!.key })
    expect(validateCourseForm(s, true).count).toBe(0)
  })

  it('ignores a blank title of a module marked for deletion', () => {
    let s = formFromCourse(course)
    const key = s.modules[0]!.key
    s = courseFormReducer(s, { type: 'moduleTitle', key, value: '' })
    expect(validateCourseForm(s, true).moduleTitles[key]).toBe('Module title is required')
    s = courseFormReducer(s, { type: 'remove', key })
    expect(validateCourseForm(s, true).count).toBe(0)
  })
})

describe('course form: ordering', () => {
  it('moves a module up and down and renumbers from 1', () => {
    const s = withFiles(emptyCourseForm(), 'a.pdf', 'b.pdf', 'c.pdf')
    const [a, , c] = s.modules.map((r) => r.key) as [number, number, number]
    expect(titles(courseFormReducer(s, { type: 'move', key: c, direction: 'up' }))).toEqual(['1:a', '2:c', '3:b'])
    expect(titles(courseFormReducer(s, { type: 'move', key: a, direction: 'down' }))).toEqual(['1:b', '2:a', '3:c'])
  })

  it('leaves the list as it is when moving past either end', () => {
    const s = withFiles(emptyCourseForm(), 'a.pdf', 'b.pdf')
    const [a, b] = s.modules.map((r) => r.key) as [number, number]
    expect(titles({ ...s, modules: moveModule(s.modules, a, 'up') })).toEqual(['1:a', '2:b'])
    expect(titles({ ...s, modules: moveModule(s.modules, b, 'down') })).toEqual(['1:a', '2:b'])
    expect(canMove(s.modules, a, 'up')).toBe(false)
    expect(canMove(s.modules, a, 'down')).toBe(true)
    expect(canMove(s.modules, b, 'down')).toBe(false)
  })

  it('steps over modules marked for deletion and leaves them out of the numbering', () => {
    let s = formFromCourse(course)
    expect(titles(s)).toEqual(['1:Stored 11', '2:Stored 12', '3:Stored 13'])
    s = courseFormReducer(s, { type: 'remove', key: s.modules[1]!.key })
    expect(titles(s)).toEqual(['1:Stored 11', '2:Stored 12 (deleted)', '2:Stored 13'])
    const last = s.modules[2]!.key
    expect(canMove(s.modules, s.modules[0]!.key, 'down')).toBe(true)
    s = courseFormReducer(s, { type: 'move', key: last, direction: 'up' })
    expect(titles(s)).toEqual(['1:Stored 13', '2:Stored 12 (deleted)', '2:Stored 11'])
    expect(canMove(s.modules, s.modules[1]!.key, 'up')).toBe(false)
  })

  it('renumbers orders from 1 in display order', () => {
    const s = withFiles(emptyCourseForm(), 'a.pdf', 'b.pdf')
    const scrambled = s.modules.map((r, i) => ({ ...r, order: 10 - i }))
    expect(renumber(scrambled).map((r) => r.order)).toEqual([1, 2])
  })

  it('drops a new module outright but marks an existing one for deletion, with undo', () => {
    let s = withFiles(formFromCourse({ ...course, modules: [mod(11, 1)] }), 'new.mp4')
    s = courseFormReducer(s, { type: 'remove', key: s.modules[1]!.key })
    expect(titles(s)).toEqual(['1:Stored 11'])
    s = courseFormReducer(s, { type: 'remove', key: s.modules[0]!.key })
    expect(titles(s)).toEqual(['1:Stored 11 (deleted)'])
    s = courseFormReducer(s, { type: 'undoRemove', key: s.modules[0]!.key })
    expect(titles(s)).toEqual(['1:Stored 11'])
  })
})

describe('course form: keyboard focus and announcements', () => {
  it('keeps focus on the pressed move button while the module can still go that way, and says where it went', () => {
    const s = withFiles(emptyCourseForm(), 'intro.pdf', 'b.pdf', 'c.pdf')
    const [intro] = s.modules.map((r) => r.key) as [number]
    expect(afterMove(s.modules, intro, 'down')).toEqual({ focus: FOCUS.move(intro, 'down'), message: "Module 'intro' moved to position 2 of 3" })
  })

  it('hands focus to the other move button of the same module when it reaches either end', () => {
    const s = withFiles(emptyCourseForm(), 'a.pdf', 'b.pdf')
    const [a, b] = s.modules.map((r) => r.key) as [number, number]
    expect(afterMove(s.modules, a, 'down')).toEqual({ focus: FOCUS.move(a, 'up'), message: "Module 'a' moved to position 2 of 2" })
    expect(afterMove(s.modules, b, 'up')).toEqual({ focus: FOCUS.move(b, 'down'), message: "Module 'b' moved to position 1 of 2" })
    expect(afterMove(s.modules, a, 'up')).toBeNull()
  })

  it('counts only the modules that stay when saying a position', () => {
    let s = formFromCourse(course)
    s = courseFormReducer(s, { type: 'remove', key: s.modules[1]!.key })
    expect(afterMove(s.modules, s.modules[2]!.key, 'up')?.message).toBe("Module 'Stored 13' moved to position 1 of 2")
  })

  it("sends focus to the next module's Remove after a removal, else the previous one's, else the file picker", () => {
    const s = withFiles(emptyCourseForm(), 'a.pdf', 'b.pdf', 'c.pdf')
    const [a, b, c] = s.modules.map((r) => r.key) as [number, number, number]
    expect(afterRemove(s.modules, a)).toEqual({ focus: [FOCUS.remove(b), FOCUS.files], message: "Module 'a' removed; 2 modules left." })
    expect(afterRemove(s.modules, c).focus).toEqual([FOCUS.remove(b), FOCUS.files])
    const one = withFiles(emptyCourseForm(), 'only.pdf')
    expect(afterRemove(one.modules, one.modules[0]!.key)).toEqual({ focus: [FOCUS.files], message: "Module 'only' removed; no modules left." })
  })

  it('names a module by its file when its title is blank', () => {
    const s = courseFormReducer(withFiles(emptyCourseForm(), 'a.pdf'), { type: 'moduleTitle', key: 1, value: ' ' })
    expect(afterRemove(s.modules, 1).message).toBe("Module 'a.pdf' removed; no modules left.")
  })

  it('keeps focus on a stored module marked for deletion (its Undo), and on its Delete after Undo', () => {
    let s = formFromCourse(course)
    const key = s.modules[1]!.key
    expect(afterRemove(s.modules, key)).toEqual({
      focus: [FOCUS.undo(key)],
      message: "Module 'Stored 12' will be deleted when you update the course. Undo keeps it.",
    })
    s = courseFormReducer(s, { type: 'remove', key })
    expect(afterUndo(s.modules, key)).toEqual({ focus: FOCUS.remove(key), message: "Module 'Stored 12' kept at position 2 of 3" })
  })

  it('says how many modules picking files added', () => {
    const before = withFiles(emptyCourseForm(), 'a.pdf')
    expect(addedMessage(before, withFiles(before, 'b.pdf', 'c.pdf', 'notes.txt'))).toBe('2 modules added; 3 in the course.')
    expect(addedMessage(before, withFiles(before, 'notes.txt'))).toBeNull()
  })
})

describe('course form: what is sent', () => {
  it('builds the create form with the text fields first and the files in module order', () => {
    let s = withFiles(emptyCourseForm(), 'a.pdf', 'b.zip')
    s = courseFormReducer(s, { type: 'title', value: '  Onboarding  ' })
    s = courseFormReducer(s, { type: 'assignAll', value: true })
    s = courseFormReducer(s, { type: 'move', key: s.modules[1]!.key, direction: 'up' })
    s = courseFormReducer(s, { type: 'moduleTitle', key: s.modules[0]!.key, value: ' Package ' })
    const form = buildCreateForm(s)
    expect([...form.keys()]).toEqual(['title', 'is_assigned_to_all', 'moduleData', 'moduleFiles', 'moduleFiles'])
    expect(form.get('title')).toBe('Onboarding')
    expect(form.get('is_assigned_to_all')).toBe('true')
    expect(JSON.parse(form.get('moduleData') as string)).toEqual([
      { title: 'Package', order: 1 },
      { title: 'a', order: 2 },
    ])
    expect((form.getAll('moduleFiles') as File[]).map((f) => f.name)).toEqual(['b.zip', 'a.pdf'])
  })

  it('sends is_assigned_to_all as "false" when unticked', () => {
    const form = buildCreateForm(withFiles(emptyCourseForm(), 'a.pdf'))
    expect(form.get('is_assigned_to_all')).toBe('false')
  })

  it('builds the update form with existing modules, deletions and new modules in their orders', () => {
    let s = formFromCourse(course)
    s = withFiles(s, 'extra.mp4', 'more.zip')
    // Rows: 11, 12, 13, extra, more. Delete 12, rename 13, move "more" to the top.
    s = courseFormReducer(s, { type: 'remove', key: s.modules[1]!.key })
    s = courseFormReducer(s, { type: 'moduleTitle', key: s.modules[2]!.key, value: 'Renamed' })
    const more = s.modules[4]!.key
    for (let i = 0; i < 4; i++) s = courseFormReducer(s, { type: 'move', key: more, direction: 'up' })
    s = courseFormReducer(s, { type: 'title', value: 'Safety 2' })
    s = courseFormReducer(s, { type: 'assignAll', value: false })
    const form = buildUpdateForm(s)
    expect([...form.keys()]).toEqual(['title', 'is_assigned_to_all', 'existingModules', 'modulesToDelete', 'newModuleData', 'newModuleFiles', 'newModuleFiles'])
    expect(form.get('title')).toBe('Safety 2')
    expect(form.get('is_assigned_to_all')).toBe('false')
    expect(JSON.parse(form.get('existingModules') as string)).toEqual([
      { id: 11, title: 'Stored 11', order: 2 },
      { id: 13, title: 'Renamed', order: 3 },
    ])
    expect(JSON.parse(form.get('modulesToDelete') as string)).toEqual([12])
    expect(JSON.parse(form.get('newModuleData') as string)).toEqual([
      { title: 'more', order: 1 },
      { title: 'extra', order: 4 },
    ])
    expect((form.getAll('newModuleFiles') as File[]).map((f) => f.name)).toEqual(['more.zip', 'extra.mp4'])
  })

  it('sends empty lists when only the title changes', () => {
    const form = buildUpdateForm(formFromCourse(course))
    expect(JSON.parse(form.get('modulesToDelete') as string)).toEqual([])
    expect(JSON.parse(form.get('newModuleData') as string)).toEqual([])
    expect(form.getAll('newModuleFiles')).toEqual([])
    expect(form.get('is_assigned_to_all')).toBe('true')
  })
})

describe('course form: upload feedback', () => {
  it('explains a cancelled upload, a missing course in the answer and otherwise the server message or default', () => {
    expect(uploadErrorText(new ApiError(0, 'aborted', 'x', undefined), 'create')).toBe(UPLOAD_CANCELLED)
    expect(uploadErrorText(new ApiError(201, 'invalid_response', 'x', undefined), 'create')).toBe('No course data received from server')
    expect(uploadErrorText(new ApiError(415, 'unsupported', 'x', undefined, 'File type not supported: a.txt'), 'create')).toBe('File type not supported: a.txt')
    expect(uploadErrorText(new ApiError(0, 'timeout', 'x', undefined), 'create')).toBe('Failed to create course. Please try again.')
    expect(uploadErrorText(new Error('boom'), 'update')).toBe('Failed to update course. Please try again.')
  })
})

describe('course form: pre-edited SCORM packages', () => {
  it('a rewritten package replaces the new row’s file, marks it Pre-edited and is what is sent', async () => {
    const state = withFiles(emptyCourseForm(), 'lesson.zip')
    const key = state.modules[0]!.key
    const rewritten = new File([new Uint8Array(42)], 'lesson.zip', { type: 'application/zip' })
    const after = courseFormReducer({ ...state, title: 'Pumps' }, { type: 'preEdited', key, file: rewritten })
    expect(after.modules[0]).toMatchObject({ preEdited: true, size: 42, fileName: 'lesson.zip', title: 'lesson' })
    expect(buildCreateForm(after).getAll('moduleFiles')).toEqual([rewritten])
    // Stored modules have no file to replace.
    const stored = formFromCourse(course)
    expect(courseFormReducer(stored, { type: 'preEdited', key: stored.modules[2]!.key, file: rewritten }).modules[2]!.preEdited).toBeUndefined()
  })
})
