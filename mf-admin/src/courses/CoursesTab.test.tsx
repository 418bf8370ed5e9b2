import type { Course, CourseModule } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { courseKeys } from './data/apiHooks.ts'
import { CourseForm } from './CourseForm.tsx'
import { CoursesTab } from './CoursesTab.tsx'

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
  const client = new QueryClient()
  if (courses) client.setQueryData(courseKeys.list(), courses)
  return renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}

describe('Courses tab', () => {
  it('lists courses with their module states, SCORM badges, processing error and assignment', () => {
    const html = render(<CoursesTab />, [course])
    // Title, Modules and Assignment sort the table (a button in the header); Actions does not.
    for (const col of ['Title', 'Modules', 'Assignment']) expect(html).toContain(`<button type="button" class="pk-sort">${col}<`)
    expect(html).toContain('<th scope="col">Actions</th>')
    expect(html).toContain('Search courses')
    expect(html).toContain('3 modules · 1 processing · 1 failed')
    expect(html).toContain('SCORM 2004 4th Edition')
    expect(html).toContain('Failed: The package has no imsmanifest.xml at its root (not a SCORM package)')
    expect(html).toContain('Processing…')
    expect(html).toContain('2 users')
    expect(html).toContain('This list updates by itself')
    for (const b of ['Edit', 'Assign', 'Delete', 'Upload New Course']) expect(html).toMatch(new RegExp(`>${b}</button>`))
  })

  it('keeps an empty status region for its notices, so the first one is read too', () => {
    expect(render(<CoursesTab />, [course])).toContain('<div role="status" class="pk-live"></div>')
  })

  it('shows an empty state without courses', () => {
    expect(render(<CoursesTab />, [])).toContain('No courses yet. Use Upload New Course to create one.')
  })
})

describe('Course form', () => {
  const noop = () => undefined

  it('offers title, assign-to-all and the file picker with the allowed types on Upload New Course', () => {
    const html = render(<CourseForm course={null} onDone={noop} onCancel={noop} />)
    expect(html).toContain('>Upload New Course</h2>')
    expect(html).toContain('>Course Title</label>')
    expect(html.match(/autofocus=""/g)).toHaveLength(1)
    expect(html).toMatch(/<input[^>]*autofocus=""[^>]*value=""/)
    expect(html).toContain('Assign to all users')
    // The picker is named by the field's label and drawn as a button.
    expect(html).toContain('aria-labelledby="course-module-files-label"')
    expect(html).toContain('>Module Files</span>')
    expect(html).toContain('class="pk-btn pk-btn--secondary" aria-hidden="true">Choose Files…</label>')
    expect(html).toContain('accept=".pdf,.pptx,.mp4,.webm,.mp3,.wav,.zip"')
    expect(html).toContain('multiple=""')
    expect(html).toMatch(/type="submit"[^>]*>Upload<\/button>/)
    // Moves and removals are announced in a region that is there before the first one.
    expect(html).toContain('role="status" aria-live="polite" aria-atomic="true" class="pk-visually-hidden"></div>')
    expect(html).toContain('aria-describedby="course-module-files-hint"')
  })

  it('lists the stored modules in order with move, delete and rename on Edit Course', () => {
    const html = render(<CourseForm course={course} onDone={noop} onCancel={noop} />)
    expect(html).toContain('>Edit Course</h2>')
    expect(html).toMatch(/<input[^>]*autofocus=""[^>]*value="Golf Basics"/)
    expect(html).toContain('>Add Module Files</span>')
    expect(html).toContain('>Module 1 title</label>')
    expect(html).toMatch(/aria-label="Move up Module 1" disabled=""/)
    expect(html).toMatch(/aria-label="Move down Module 3" disabled=""/)
    expect(html).not.toMatch(/aria-label="Move up Module 2" disabled=""/)
    expect(html).toContain('aria-label="Delete Module 2"')
    expect(html).toMatch(/type="submit"[^>]*>Update Course<\/button>/)
  })
})
