import { SCORM_EDITOR_MESSAGES as M, type Course, type CourseModule } from '@portal/contracts'
// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render as renderDom, screen, within } from '@testing-library/react'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { courseKeys } from './data/apiHooks.ts'
import { CourseForm } from './CourseForm.tsx'
import { CoursesTab } from './CoursesTab.tsx'
import { cmi5Xml } from './cmi5.test-support.ts'
import { zipSync } from 'fflate'

const mod = (id: number, order: number, over: Partial<CourseModule> = {}): CourseModule => ({
  id,
  course_id: 1,
  title: `Module title ${id}`,
  order,
  file_path: `m${id}.pdf`,
  size: 1024 * 1024,
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
  id: 1,
  title: 'Golf Basics',
  is_assigned_to_all: false,
  assigned_user_ids: ['a', 'b'],
  modules: [
    mod(1, 1, { is_scorm: true, file_path: 'golf.zip', scorm_version: '2004', scorm_edition: '2004 4th Edition', sco_count: 5 }),
    mod(2, 2, { is_scorm: true, file_path: 'site.zip', processing_status: 'failed', processing_error: 'The package has no imsmanifest.xml at its root (not a SCORM package)' }),
    mod(3, 3, { is_scorm: true, file_path: 'new.zip', processing_status: 'processing' }),
  ],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
}

const render = (node: ReactNode, courses?: Course[]) => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  if (courses) client.setQueryData(courseKeys.list(), courses)
  return renderDom(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}

// The list polls while a package is processed: such requests stay unanswered here.
beforeEach(() => {
  vi.stubGlobal('fetch', () => new Promise(() => undefined))
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Courses tab', () => {
  it('lists courses with their module states, SCORM badges, processing error and assignment', () => {
    render(<CoursesTab />, [course])
    const table = screen.getByRole('table', { name: 'Courses' })
    const headers = within(table).getAllByRole('columnheader')
    expect(headers).toHaveLength(4)
    // Title, Modules and Assignment sort the table (a button in the header, its arrow hidden from the name); Actions does not.
    for (const [i, name] of ['Title', 'Modules', 'Assignment'].entries()) expect(within(headers[i]!).getByRole('button', { name })).toBeTruthy()
    expect(headers[3]!.textContent).toBe('Actions')
    expect(within(headers[3]!).queryByRole('button')).toBeNull()
    expect(screen.getByRole('searchbox', { name: 'Search courses' })).toBeTruthy()
    const row = within(table).getByRole('row', { name: /^Golf Basics/ })
    expect(within(row).getByRole('rowheader', { name: 'Golf Basics' })).toBeTruthy()
    expect(row.textContent).toContain('3 modules · 1 processing · 1 failed')
    expect(within(row).getByText('SCORM 2004 4th Edition')).toBeTruthy()
    expect(row.textContent).toContain('Failed: The package has no imsmanifest.xml at its root (not a SCORM package)')
    expect(within(row).getByText(/Processing…/)).toBeTruthy()
    expect(within(row).getByRole('cell', { name: '2 users' })).toBeTruthy()
    for (const b of ['Edit', 'Assign', 'Delete']) expect(within(row).getByRole('button', { name: b, description: 'Golf Basics' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Upload New Course' })).toBeTruthy()
    expect(screen.getAllByRole('status').some((s) => s.textContent === 'Some SCORM packages are still being processed. This list updates by itself.')).toBe(true)
  })

  it('keeps an empty status region for its notices, so the first one is read too', () => {
    const { container } = render(<CoursesTab />, [course])
    const live = container.querySelector('.pk-live')
    expect(live && screen.getAllByRole('status').includes(live as HTMLElement)).toBe(true)
    expect(live!.textContent).toBe('')
  })

  it('shows an empty state without courses', () => {
    render(<CoursesTab />, [])
    expect(screen.getByText('No courses yet. Use Upload New Course to create one.')).toBeTruthy()
    expect(screen.queryByRole('table')).toBeNull()
  })
})

describe('Course form', () => {
  const noop = () => undefined

  it('offers title, assign-to-all and the file picker with the allowed types on Upload New Course', () => {
    render(<CourseForm course={null} onDone={noop} onCancel={noop} />)
    const form = screen.getByRole('form', { name: 'Upload New Course' })
    expect(within(form).getByRole('heading', { level: 2, name: 'Upload New Course' })).toBeTruthy()
    const title = within(form).getByRole('textbox', { name: 'Course Title' }) as HTMLInputElement
    // The form takes the list's place and focus goes to its first field, empty.
    expect(document.activeElement).toBe(title)
    expect(title.value).toBe('')
    expect(within(form).getByRole('checkbox', { name: 'Assign to all users' })).toBeTruthy()
    // The picker is the native control named by the field's label, described by its hint, and drawn as a button.
    const picker = within(form).getByLabelText('Module Files') as HTMLInputElement
    expect(picker.type).toBe('file')
    expect(picker.accept).toBe('.pdf,.pptx,.mp4,.webm,.mp3,.wav,.zip,.xml')
    expect(picker.multiple).toBe(true)
    expect(picker.getAttribute('aria-describedby')).toBe('course-module-files-hint')
    expect(document.getElementById('course-module-files-hint')!.textContent).toMatch(/^PDF, PowerPoint \(pptx\)/)
    const drawn = within(form).getByText('Choose Files…')
    expect([drawn.getAttribute('aria-hidden'), drawn.className]).toEqual(['true', 'pk-btn pk-btn--secondary'])
    expect(within(form).getByRole('button', { name: 'Upload' }).getAttribute('type')).toBe('submit')
    // Moves and removals are announced in a region that is there before the first one.
    const status = within(form).getByRole('status')
    expect([status.getAttribute('aria-live'), status.getAttribute('aria-atomic'), status.className, status.textContent]).toEqual(['polite', 'true', 'pk-visually-hidden', ''])
  })

  it('lists the stored modules in order with move, delete and rename on Edit Course', () => {
    render(<CourseForm course={course} onDone={noop} onCancel={noop} />)
    const form = screen.getByRole('form', { name: 'Edit Course' })
    const title = within(form).getByRole('textbox', { name: 'Course Title' }) as HTMLInputElement
    expect(document.activeElement).toBe(title)
    expect(title.value).toBe('Golf Basics')
    expect((within(form).getByLabelText('Add Module Files') as HTMLInputElement).type).toBe('file')
    expect(within(form).getByRole('textbox', { name: 'Module 1 title' })).toBeTruthy()
    expect((within(form).getByRole('button', { name: 'Move up Module 1' }) as HTMLButtonElement).disabled).toBe(true)
    expect((within(form).getByRole('button', { name: 'Move down Module 3' }) as HTMLButtonElement).disabled).toBe(true)
    expect((within(form).getByRole('button', { name: 'Move up Module 2' }) as HTMLButtonElement).disabled).toBe(false)
    expect(within(form).getByRole('button', { name: 'Delete Module 2' })).toBeTruthy()
    expect(within(form).getByRole('button', { name: 'Update Course' }).getAttribute('type')).toBe('submit')
  })
})

describe('Edit SCORM is offered where there is a Captivate project', () => {
  const noop = () => undefined
  // Real packages: the Captivate fixture, and a SCORM 1.2 course made with another tool.
  // (Read from the shared folder beside the checkout by path: a DOM test's bundler would try to serve a `new URL(…, import.meta.url)`.)
  const fixture = (path: string, name: string) =>
    new File([readFileSync(resolve(process.env.SHARED_DIR ?? resolve(process.cwd(), '../shared'), 'fixtures', path))], name, { type: 'application/zip' })
  const captivate = () => fixture('captivate/captivate-video-slides.zip', 'pump-station-safety.zip')
  const golf = () => fixture('scorm/golf-scorm12-RuntimeBasicCalls.zip', 'golf.zip')
  const choose = (form: HTMLElement, ...files: File[]) => fireEvent.change(within(form).getByLabelText('Module Files'), { target: { files } })

  it('offers it for a Captivate package once the analysis finds the project, and says in plain words why not for another package', async () => {
    render(<CourseForm course={null} onDone={noop} onCancel={noop} />)
    const form = screen.getByRole('form', { name: 'Upload New Course' })
    choose(form, captivate(), golf())
    const captivateRow = within(form).getByRole('listitem', { name: 'Module 1' })
    const golfRow = within(form).getByRole('listitem', { name: 'Module 2' })
    // Both wait for the analysis before anything is offered.
    expect(within(golfRow).getByText(M.checkingProject)).toBeTruthy()
    expect(await within(captivateRow).findByRole('button', { name: 'Edit SCORM package Module 1' }, { timeout: 5000 })).toBeTruthy()
    expect(await within(golfRow).findByText(M.notCaptivateFile, {}, { timeout: 5000 })).toBeTruthy()
    expect(within(golfRow).queryByRole('button', { name: /Edit SCORM/ })).toBeNull()
    expect(within(captivateRow).queryByText(M.checkingProject)).toBeNull()
    // The row writes the package's size as the editor's dialog does (the one formatter).
    expect(golfRow.textContent).toContain('golf.zip · 349.5 KB')
  })

  it('shows a cmi5 zip and a cmi5.xml alone as cmi5 courses with their AU counts, with nothing to edit', async () => {
    render(<CourseForm course={null} onDone={noop} onCancel={noop} />)
    const form = screen.getByRole('form', { name: 'Upload New Course' })
    const zipped = zipSync({ 'cmi5.xml': new TextEncoder().encode(cmi5Xml(3)), 'au0.html': new TextEncoder().encode('<p>x</p>') })
    choose(form, new File([zipped], 'rocks.zip', { type: 'application/zip' }), new File([cmi5Xml(2)], 'cmi5.xml', { type: 'text/xml' }))
    const zipRow = within(form).getByRole('listitem', { name: 'Module 1' })
    const xmlRow = within(form).getByRole('listitem', { name: 'Module 2' })
    expect(await within(zipRow).findByText('cmi5 course “Rocks & stones” · 3 assignable units', {}, { timeout: 5000 })).toBeTruthy()
    expect(await within(xmlRow).findByText('cmi5 course “Rocks & stones” · 2 assignable units', {}, { timeout: 5000 })).toBeTruthy()
    for (const row of [zipRow, xmlRow]) {
      expect(within(row).getByText('cmi5', { selector: '.pk-badge' })).toBeTruthy()
      expect(within(row).queryByRole('button', { name: /Edit SCORM/ })).toBeNull()
      expect(within(row).queryByText(M.notCaptivateFile)).toBeNull()
    }
  })

  it('says a file that is no zip at all has nothing to edit', async () => {
    render(<CourseForm course={null} onDone={noop} onCancel={noop} />)
    const form = screen.getByRole('form', { name: 'Upload New Course' })
    choose(form, new File(['not a zip'], 'notes.zip', { type: 'application/zip' }))
    const row = within(form).getByRole('listitem', { name: 'Module 1' })
    expect(await within(row).findByText(M.notAZip, {}, { timeout: 5000 })).toBeTruthy()
    expect(within(row).queryByRole('button', { name: /Edit SCORM/ })).toBeNull()
  })
})

describe('Edit SCORM on a stored package is offered where the server found a Captivate project', () => {
  const noop = () => undefined
  const stored: Course = {
    ...course,
    title: 'Stored packages',
    modules: [
      mod(11, 1, { title: 'pump-station-safety', is_scorm: true, file_path: 'pump-station-safety.zip', scorm_version: '1.2', sco_count: 1, scorm_editable: true }),
      mod(12, 2, { title: 'golf', is_scorm: true, file_path: 'golf.zip', scorm_version: '1.2', sco_count: 1, scorm_editable: false }),
      mod(13, 3, { title: 'older', is_scorm: true, file_path: 'older.zip', scorm_version: '1.2', sco_count: 1, scorm_editable: null }),
      mod(14, 4, { title: 'handbook', scorm_editable: false }),
    ],
  }

  it('in the course list: the button for the project, the plain words for the other package, word of the check for one not yet checked', () => {
    render(<CoursesTab />, [stored])
    const row = within(screen.getByRole('table', { name: 'Courses' })).getByRole('row', { name: /^Stored packages/ })
    const items = within(row).getAllByRole('listitem')
    expect(within(items[0]!).getByRole('button', { name: 'Edit SCORM module pump-station-safety' })).toBeTruthy()
    expect(within(items[0]!).queryByText(M.notCaptivateModule)).toBeNull()
    expect(within(items[1]!).queryByRole('button', { name: /Edit SCORM/ })).toBeNull()
    expect(within(items[1]!).getByText(M.notCaptivateModule)).toBeTruthy()
    expect(within(items[2]!).queryByRole('button', { name: /Edit SCORM/ })).toBeNull()
    expect(within(items[2]!).getByText(M.checkingProject)).toBeTruthy()
    // A PDF is no package: nothing said about Captivate.
    expect(items[3]!.textContent).toBe('handbookPDF')
    expect(within(row).getAllByRole('button', { name: /Edit SCORM/ })).toHaveLength(1)
  })

  it('in the Edit Course form: the button for the project, the plain words in place of it for the other package', () => {
    render(<CourseForm course={stored} onDone={noop} onCancel={noop} />)
    const form = screen.getByRole('form', { name: 'Edit Course' })
    const project = within(form).getByRole('listitem', { name: 'Module 1' })
    const golf = within(form).getByRole('listitem', { name: 'Module 2' })
    expect(within(project).getByRole('button', { name: 'Edit SCORM package Module 1' })).toBeTruthy()
    expect(within(project).queryByText(M.notCaptivateModule)).toBeNull()
    expect(within(golf).queryByRole('button', { name: /Edit SCORM/ })).toBeNull()
    expect(within(golf).getByText(M.notCaptivateModule)).toBeTruthy()
    expect(within(within(form).getByRole('listitem', { name: 'Module 3' })).getByText(M.checkingProject)).toBeTruthy()
  })

  it('shows a stored cmi5 course as cmi5, in the list and the form, with nothing to edit', () => {
    const cmi5 = mod(21, 1, { title: 'rocks', is_scorm: true, file_path: 'rocks.zip', scorm_version: 'cmi5', scorm_edition: null, sco_count: 3, scorm_editable: false })
    const courses = [{ ...stored, title: 'cmi5 course', modules: [cmi5] }]
    const { unmount } = render(<CoursesTab />, courses)
    const item = within(within(screen.getByRole('table', { name: 'Courses' })).getByRole('row', { name: /^cmi5 course/ })).getByRole('listitem')
    expect(item.textContent).toBe('rockscmi5')
    unmount()
    render(<CourseForm course={courses[0]!} onDone={noop} onCancel={noop} />)
    const row = within(screen.getByRole('form', { name: 'Edit Course' })).getByRole('listitem', { name: 'Module 1' })
    expect(within(row).getByText('cmi5', { selector: '.pk-badge' })).toBeTruthy()
    expect(within(row).queryByRole('button', { name: /Edit SCORM/ })).toBeNull()
    expect(within(row).queryByText(M.notCaptivateModule)).toBeNull()
  })

  it('offers it as before when the server does not say (a server from before the check)', () => {
    const older: CourseModule = { ...stored.modules[0]! }
    delete older.scorm_editable
    render(<CoursesTab />, [{ ...stored, modules: [older] }])
    expect(screen.getByRole('button', { name: 'Edit SCORM module pump-station-safety' })).toBeTruthy()
  })
})
