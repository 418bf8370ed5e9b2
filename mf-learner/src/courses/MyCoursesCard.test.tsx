import type { CourseModulesProgress, CourseWithProgress, LearnerModule } from '@portal/contracts'
import { ToastProvider } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { courseKeys } from './data/apiHooks.ts'
import CourseViewer from './CourseViewer.tsx'
import { MyCoursesCard } from './MyCoursesCard.tsx'

const mod = (id: number, over: Partial<LearnerModule> = {}): LearnerModule => ({
  id,
  course_id: 1,
  title: `Lesson ${id}`,
  order: id,
  file_path: 'lesson.zip',
  size: 10,
  is_scorm: true,
  content_type: 'application/zip',
  processing_status: 'ready',
  processing_error: null,
  scorm_version: '1.2',
  scorm_edition: null,
  sco_count: 1,
  is_unlocked: true,
  started_at: null,
  completed_at: null,
  progress: 0,
  last_accessed: null,
  ...over,
})

const course = (id: number, over: Partial<CourseWithProgress> = {}): CourseWithProgress => ({
  id,
  title: `Course ${id}`,
  status: 'not-started',
  progress: 0,
  is_assigned_to_all: true,
  completed_at: null,
  modules: [mod(1), mod(2)],
  ...over,
})

const render = (client: QueryClient, node: ReactNode) =>
  renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ToastProvider>{node}</ToastProvider>
    </QueryClientProvider>,
  )

const withCourses = (courses: CourseWithProgress[]) => {
  const client = new QueryClient()
  client.setQueryData(courseKeys.list(), courses)
  return client
}

describe('My Courses card', () => {
  it('shows each course with its status badge, module count and View Course', () => {
    const html = render(withCourses([course(1, { title: 'Ladder Safety' }), course(2, { status: 'completed', progress: 100, modules: [mod(3)] })]), (
      <MyCoursesCard onView={() => undefined} />
    ))
    expect(html).toContain('Ladder Safety')
    expect(html).toContain('Not Started')
    expect(html).toContain('2 modules')
    expect(html).toContain('Completed')
    expect(html).toContain('1 module')
    expect(html.match(/>View Course</g)).toHaveLength(2)
  })

  it('shows a progress bar only when progress is above 0', () => {
    const html = render(withCourses([course(1, { status: 'in-progress', progress: 42 }), course(2)]), <MyCoursesCard onView={() => undefined} />)
    expect(html).toContain('In Progress')
    expect(html.match(/role="progressbar"/g)).toHaveLength(1)
    expect(html).toContain('aria-valuenow="42"')
  })

  it('says so when no course is assigned', () => {
    expect(render(withCourses([]), <MyCoursesCard onView={() => undefined} />)).toContain('No courses assigned yet')
  })

  it('shows a loading state before the courses arrive', () => {
    expect(render(new QueryClient(), <MyCoursesCard onView={() => undefined} />)).toContain('Loading courses...')
  })
})

describe('course viewer', () => {
  const modules = (courseId: number, list: LearnerModule[]): CourseModulesProgress['data'] => ({
    courseId,
    title: 'Ladder Safety',
    status: 'in-progress',
    progress: 50,
    completed_at: null,
    modules: list,
  })

  it('lists the modules with number, status, type, progress and completion date, and how many are completed', () => {
    const client = new QueryClient()
    client.setQueryData(
      courseKeys.modules(7),
      modules(7, [
        mod(1, { title: 'Intro video', is_scorm: false, content_type: 'video/mp4', completed_at: '2026-11-20T10:00:00Z', progress: 100 }),
        mod(2, { title: 'Handbook', is_scorm: false, content_type: 'application/pdf', progress: 20 }),
        mod(3, { title: 'Quiz', is_unlocked: false }),
      ]),
    )
    const html = render(client, <CourseViewer courseId={7} onClose={() => undefined} />)
    expect(html).toContain('Ladder Safety')
    expect(html).toContain('Close Course')
    expect(html).toContain('1 of 3 modules completed')
    // Each module button is named by what it shows (no aria-label to disagree with it), its percent as hidden text.
    const buttons = [...html.matchAll(/<button[^>]*>(.*?)<\/button>/g)].map((b) => b[0]).filter((b) => b.includes('pk-badge'))
    expect(buttons).toHaveLength(3)
    for (const b of buttons) expect(b).not.toMatch(/^<button[^>]*aria-label/)
    const text = (b: string) => b.replace(/<div[^>]*role="progressbar".*?<\/div><\/div>/g, '').replace(/<[^>]+>/g, '').replace(/<!-- -->/g, '')
    expect(text(buttons[0]!)).toMatch(/^1\. Intro video Video Completed, 100% Completed /)
    expect(text(buttons[1]!)).toBe('2. Handbook PDF Available, 20% ')
    expect(text(buttons[2]!)).toBe('3. Quiz SCORM Locked, 0% ')
    expect(html).toMatch(/Completed [A-Z][a-z]{2} 20, 2026|Completed 20 [A-Z][a-z]{2} 2026/)
    // Course progress is the mean of the modules': (100 + 20 + 0) / 3.
    expect(html).toContain('aria-label="Course progress" aria-valuemin="0" aria-valuemax="100" aria-valuenow="40"')
    // Nothing is selected before the viewer picks the initial module.
    expect(html).toContain('No module selected')
  })

  it('says the course ID is missing instead of loading nothing', () => {
    const html = render(new QueryClient(), <CourseViewer courseId={0} onClose={() => undefined} />)
    expect(html).toContain('Error Loading Course')
    expect(html).toContain('Course ID not available')
    expect(html).toContain('Try Again')
    expect(html).toContain('Go Back')
  })
})
