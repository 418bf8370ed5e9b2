import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COURSE_MESSAGES, Course, CourseSummary } from '@portal/contracts'
import { listen, UNSTORABLE_TEXT_MESSAGE } from '@portal/server-kit'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { megabytes } from './uploads/multipart.ts'
import { courseForm, pdfFile, send, zipFile } from './course-forms.test-support.ts'
import { storedFiles } from '../storage.test-support.ts'

const LIMITS = { maxFileBytes: 64 * 1024, maxRequestBytes: 150 * 1024, maxFiles: 3 }
let h: Harness
let admin: TestUser
let tech: TestUser
let other: TestUser

beforeAll(async () => {
  h = await createHarness({ uploadLimits: LIMITS })
  admin = await h.user({ admin: true })
  tech = await h.user()
  other = await h.user()
})
afterAll(async () => {
  await h?.close()
})

const newCourse = async (fields: Record<string, unknown> = {}, files?: File[]) => {
  const res = await send(
    h,
    'POST',
    '/courses',
    courseForm({ title: 'Ladder Basics', is_assigned_to_all: 'false', moduleData: [{ title: 'Intro', order: 1 }], ...fields }, files ?? [pdfFile()]),
    admin.token,
  )
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return Course.parse(res.body)
}

const snapshot = async () => ({
  courses: await h.sql('select * from courses order by id'),
  modules: await h.sql('select * from course_modules order by id'),
  garbage: await h.sql('select * from storage_garbage order by key'),
  files: await storedFiles(h),
})

const editForm = (fields: Record<string, unknown>, files: File[] = []) => courseForm({ title: 'Ladder Basics', is_assigned_to_all: 'false', ...fields }, files, 'newModuleFiles')

describe('POST /courses', () => {
  it('streams the files to storage and creates the course with its modules in order', async () => {
    const res = await send(
      h,
      'POST',
      '/courses',
      courseForm(
        {
          title: '  Field Safety ',
          is_assigned_to_all: 'false',
          moduleData: [
            { title: 'Package', order: 2 },
            { title: 'Handbook', order: 1 },
          ],
        },
        [await zipFile('golf.zip'), pdfFile('handbook.pdf')],
      ),
      admin.token,
    )
    expect(res.status).toBe(201)
    const course = Course.parse(res.body)
    expect(course).toMatchObject({ title: 'Field Safety', is_assigned_to_all: false, assigned_user_ids: [] })
    expect(course.modules.map((m) => [m.title, m.order, m.file_path, m.is_scorm, m.content_type, m.processing_status])).toEqual([
      ['Handbook', 1, 'handbook.pdf', false, 'application/pdf', 'ready'],
      ['Package', 2, 'golf.zip', true, 'application/zip', 'processing'],
    ])
    expect(course.modules[0]!.size).toBe(pdfFile().size)
    const keys = (await h.sql<{ storage_key: string }>('select storage_key from course_modules where course_id = ?', [course.id])).map((r) => r.storage_key)
    const files = await storedFiles(h)
    for (const key of keys) expect(files).toContain(key)
    expect(await h.sql('select * from storage_garbage')).toEqual([])
  })

  it('records learning.course.assigned.v1 for a course assigned to everyone', async () => {
    const course = await newCourse({ title: 'For All', is_assigned_to_all: 'true' })
    const event = (await h.events('learning.course.assigned.v1')).find((e) => e.data.courseId === course.id)
    expect(event?.data).toEqual({ courseId: course.id, courseTitle: 'For All', userIds: [], assignedToAll: true })
  })

  it('enforces every rule of the course form, leaving no course, module or file behind', async () => {
    const before = await snapshot()
    const one = [{ title: 'Intro', order: 1 }]
    const cases: [Record<string, unknown>, File[], number, string, string][] = [
      [{ title: '  ' }, [pdfFile()], 400, 'validation_failed', COURSE_MESSAGES.titleRequired],
      [{ title: undefined }, [pdfFile()], 400, 'validation_failed', COURSE_MESSAGES.titleRequired],
      [{ moduleData: [] }, [], 400, 'validation_failed', COURSE_MESSAGES.atLeastOneModule],
      [{ moduleData: undefined }, [], 400, 'validation_failed', COURSE_MESSAGES.atLeastOneModule],
      [{ moduleData: [{ title: ' ', order: 1 }] }, [pdfFile()], 400, 'validation_failed', COURSE_MESSAGES.moduleTitleRequired],
      [{ moduleData: '[{oops' }, [pdfFile()], 400, 'invalid_field', 'Invalid moduleData'],
      // PostgreSQL cannot store U+0000: a 400 after the files were streamed, and nothing left behind
      [{ title: 'Ladder\u0000Basics' }, [pdfFile()], 400, 'invalid_text', UNSTORABLE_TEXT_MESSAGE],
      [{ moduleData: [{ title: 'In\u0000tro', order: 1 }] }, [pdfFile()], 400, 'invalid_text', UNSTORABLE_TEXT_MESSAGE],
      [{ is_assigned_to_all: 'maybe' }, [pdfFile()], 400, 'validation_failed', ''],
      [{ moduleData: [...one, { title: 'Second', order: 2 }] }, [pdfFile()], 400, 'module_file_missing', COURSE_MESSAGES.moduleFileMissing('Second')],
      [{ moduleData: one }, [pdfFile('a.pdf'), pdfFile('b.pdf')], 400, 'module_files_mismatch', 'Received 2 files for 1 modules'],
      [{ moduleData: one }, [new File(['hello'], 'notes.txt')], 415, 'unsupported_file_type', COURSE_MESSAGES.fileTypeNotSupported('notes.txt')],
      [{ moduleData: one }, [new File(['hello'], 'noextension')], 415, 'unsupported_file_type', COURSE_MESSAGES.fileTypeNotSupported('noextension')],
      [{ moduleData: one }, [await zipFile('fake.pdf')], 415, 'file_content_mismatch', COURSE_MESSAGES.fileContentMismatch('fake.pdf')],
      [{ moduleData: one }, [pdfFile('fake.zip')], 415, 'file_content_mismatch', COURSE_MESSAGES.fileContentMismatch('fake.zip')],
      [{ moduleData: one }, [new File([], 'empty.pdf')], 415, 'file_content_mismatch', COURSE_MESSAGES.fileContentMismatch('empty.pdf')],
      [{ moduleData: one }, [pdfFile('big.pdf', 64 * 1024)], 413, 'file_too_large', COURSE_MESSAGES.fileTooLarge('big.pdf', megabytes(LIMITS.maxFileBytes))],
      [
        { moduleData: [1, 2, 3, 4].map((order) => ({ title: `M${order}`, order })) },
        [1, 2, 3, 4].map((i) => pdfFile(`m${i}.pdf`)),
        413,
        'too_many_files',
        COURSE_MESSAGES.tooManyFiles(3),
      ],
      [
        { moduleData: [1, 2, 3].map((order) => ({ title: `M${order}`, order })) },
        // within the per-file limit each, over the per-request one together (counted while streaming)
        [1, 2, 3].map((i) => pdfFile(`m${i}.pdf`, 60 * 1024)),
        413,
        'upload_too_large',
        COURSE_MESSAGES.uploadTooLarge(megabytes(LIMITS.maxRequestBytes)),
      ],
    ]
    for (const [fields, files, status, code, message] of cases) {
      const form = courseForm({ title: 'Ladder Basics', is_assigned_to_all: 'false', moduleData: [{ title: 'Intro', order: 1 }], ...fields }, files)
      if ('title' in fields && fields.title === undefined) form.delete('title')
      if ('moduleData' in fields && fields.moduleData === undefined) form.delete('moduleData')
      const res = await send(h, 'POST', '/courses', form, admin.token)
      expect(res.status, JSON.stringify(fields)).toBe(status)
      expect(res.body.code, JSON.stringify(fields)).toBe(code)
      if (message) expect(res.body.message, JSON.stringify(fields)).toBe(message)
    }
    expect(await snapshot()).toEqual(before)
  })

  it('rejects at once an upload whose Content-Length is over the request limit', async () => {
    const before = await snapshot()
    const res = await send(h, 'POST', '/courses', 'x', admin.token, { 'content-type': 'multipart/form-data; boundary=abc', 'content-length': String(LIMITS.maxRequestBytes + 1) })
    expect(res).toMatchObject({ status: 413, body: { code: 'upload_too_large', message: COURSE_MESSAGES.uploadTooLarge(megabytes(LIMITS.maxRequestBytes)) } })
    expect(await snapshot()).toEqual(before)
  })

  it('answers 415 to a body that is not multipart and 400 to a malformed one', async () => {
    const json = await send(h, 'POST', '/courses', JSON.stringify({ title: 'x' }), admin.token, { 'content-type': 'application/json' })
    expect(json).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } })
    const broken = await send(h, 'POST', '/courses', '--abc\r\nContent-Disposition: form-data; name="title"\r\n\r\nNo end', admin.token, {
      'content-type': 'multipart/form-data; boundary=abc',
    })
    expect(broken).toMatchObject({ status: 400, body: { code: 'invalid_multipart' } })
    expect(await h.sql('select * from storage_garbage')).toEqual([])
  })

  it('leaves no course and no file when the client goes away in the middle of a file', async () => {
    const before = await snapshot()
    const form = courseForm(
      {
        title: 'Aborted',
        moduleData: [
          { title: 'A', order: 1 },
          { title: 'B', order: 2 },
        ],
      },
      [pdfFile('a.pdf'), pdfFile('b.pdf', 30_000)],
    )
    const whole = new Uint8Array(await new Response(form).arrayBuffer())
    const contentType = new Response(form).headers.get('content-type')!
    let sent = false
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true
          controller.enqueue(whole.subarray(0, whole.length - 10_000)) // the first file whole, the second one cut
        } else controller.error(new Error('client went away'))
      },
    })
    const res = await send(h, 'POST', '/courses', body, admin.token, { 'content-type': contentType })
    expect(res.status).toBe(400)
    expect(await snapshot()).toEqual(before)
  })

  it('is for admins only', async () => {
    const form = () => courseForm({ title: 'X', moduleData: [{ title: 'A', order: 1 }] }, [pdfFile()])
    expect((await send(h, 'POST', '/courses', form(), tech.token)).status).toBe(403)
    expect((await send(h, 'POST', '/courses', form())).status).toBe(401)
  })
})

describe('GET /courses and /admin/courses', () => {
  it('lists what the caller may open, newest first; admins see every course', async () => {
    const forAll = await newCourse({ title: 'Everyone', is_assigned_to_all: 'true' })
    h.advance(1000)
    const mine = await newCourse({ title: 'Mine' })
    h.advance(1000)
    const theirs = await newCourse({ title: 'Theirs' })
    expect((await h.call('POST', `/courses/${mine.id}/assign`, { token: admin.token, body: { userIds: [tech.id] } })).status).toBe(200)
    expect((await h.call('POST', `/courses/${theirs.id}/assign`, { token: admin.token, body: { userIds: [other.id] } })).status).toBe(200)

    const techList = (await h.call('GET', '/courses', { token: tech.token })).body.map((c: unknown) => CourseSummary.parse(c))
    const ids = techList.map((c: CourseSummary) => c.id)
    expect(ids).toContain(forAll.id)
    expect(ids).toContain(mine.id)
    expect(ids).not.toContain(theirs.id)
    expect(ids.indexOf(mine.id)).toBeLessThan(ids.indexOf(forAll.id))
    expect(techList.find((c: CourseSummary) => c.id === mine.id)).toMatchObject({ title: 'Mine', module_count: 1, is_assigned_to_all: false })

    const adminIds = (await h.call('GET', '/courses', { token: admin.token })).body.map((c: CourseSummary) => c.id)
    expect(adminIds).toEqual(expect.arrayContaining([forAll.id, mine.id, theirs.id]))

    const all = (await h.call('GET', '/admin/courses', { token: admin.token })).body.map((c: unknown) => Course.parse(c))
    expect(all.find((c: Course) => c.id === theirs.id)!.assigned_user_ids).toEqual([other.id])
    expect(all.map((c: Course) => c.id).indexOf(theirs.id)).toBeLessThan(all.map((c: Course) => c.id).indexOf(forAll.id))
  })

  it('keeps the admin list from technicians and strangers', async () => {
    expect((await h.call('GET', '/admin/courses', { token: tech.token })).status).toBe(403)
    expect((await h.call('GET', '/admin/courses')).status).toBe(401)
    expect((await h.call('GET', '/courses')).status).toBe(401)
  })
})

describe('PUT /courses/{id}', () => {
  it('renames, reorders (renumbering from 1), deletes and adds modules in one go', async () => {
    const course = await newCourse(
      {
        title: 'Before',
        moduleData: [
          { title: 'One', order: 1 },
          { title: 'Two', order: 2 },
          { title: 'Three', order: 3 },
        ],
      },
      [pdfFile('one.pdf'), pdfFile('two.pdf'), pdfFile('three.pdf')],
    )
    const [one, two, three] = course.modules
    const twoKey = (await h.sql('select storage_key from course_modules where id = ?', [two!.id]))[0]!.storage_key
    expect(await storedFiles(h)).toContain(twoKey)
    const res = await send(
      h,
      'PUT',
      `/courses/${course.id}`,
      editForm(
        {
          title: 'After',
          existingModules: [
            { id: three!.id, title: 'Three renamed', order: 1 },
            { id: one!.id, title: 'One', order: 5 },
          ],
          modulesToDelete: [two!.id],
          newModuleData: [{ title: 'New', order: 3 }],
        },
        [pdfFile('new.pdf')],
      ),
      admin.token,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const updated = Course.parse(res.body)
    expect(updated.title).toBe('After')
    expect(updated.modules.map((m) => [m.title, m.order, m.file_path])).toEqual([
      ['Three renamed', 1, 'three.pdf'],
      ['New', 2, 'new.pdf'],
      ['One', 3, 'one.pdf'],
    ])
    expect(updated.modules[0]!.id).toBe(three!.id)
    expect(await storedFiles(h)).not.toContain(twoKey)
    expect(await h.sql('select * from storage_garbage')).toEqual([])
  })

  it('accepts modulesToDelete as repeated fields and records the event when switched to everyone', async () => {
    const course = await newCourse({ title: 'Repeat', moduleData: [1, 2, 3].map((order) => ({ title: `M${order}`, order })) }, [
      pdfFile('1.pdf'),
      pdfFile('2.pdf'),
      pdfFile('3.pdf'),
    ])
    const form = editForm({ title: 'Repeat', is_assigned_to_all: 'true' })
    form.append('modulesToDelete', String(course.modules[0]!.id))
    form.append('modulesToDelete', String(course.modules[2]!.id))
    const res = await send(h, 'PUT', `/courses/${course.id}`, form, admin.token)
    expect(res.status).toBe(200)
    expect(Course.parse(res.body).modules.map((m) => [m.title, m.order])).toEqual([['M2', 1]])
    const events = (await h.events('learning.course.assigned.v1')).filter((e) => e.data.courseId === course.id)
    expect(events.map((e) => e.data)).toEqual([{ courseId: course.id, courseTitle: 'Repeat', userIds: [], assignedToAll: true }])
  })

  it('keeps at least one module, refuses modules of other courses and changes nothing then', async () => {
    const course = await newCourse({ title: 'Keep' })
    const foreign = await newCourse({ title: 'Foreign' })
    const before = await snapshot()
    const cases: [Record<string, unknown>, File[], number, string, string][] = [
      [{ modulesToDelete: [course.modules[0]!.id] }, [], 400, 'validation_failed', COURSE_MESSAGES.atLeastOneModule],
      [{ modulesToDelete: [foreign.modules[0]!.id] }, [], 400, 'unknown_module', `Module ${foreign.modules[0]!.id} does not belong to this course`],
      [{ existingModules: [{ id: 999_999, title: 'X', order: 1 }] }, [], 400, 'unknown_module', 'Module 999999 does not belong to this course'],
      [{ existingModules: '{' }, [], 400, 'invalid_field', 'Invalid existingModules'],
      [{ modulesToDelete: 'abc' }, [], 400, 'invalid_field', 'Invalid modulesToDelete'],
      [{ title: '' }, [], 400, 'validation_failed', COURSE_MESSAGES.titleRequired],
      [{ newModuleData: [{ title: 'N', order: 2 }] }, [], 400, 'module_file_missing', COURSE_MESSAGES.moduleFileMissing('N')],
      [{ newModuleData: [{ title: 'N', order: 2 }] }, [new File(['x'], 'n.exe')], 415, 'unsupported_file_type', COURSE_MESSAGES.fileTypeNotSupported('n.exe')],
      [
        { modulesToDelete: [course.modules[0]!.id], newModuleData: [{ title: 'N', order: 2 }] },
        [pdfFile('n.pdf', 70_000)],
        413,
        'file_too_large',
        COURSE_MESSAGES.fileTooLarge('n.pdf', megabytes(LIMITS.maxFileBytes)),
      ],
    ]
    for (const [fields, files, status, code, message] of cases) {
      const res = await send(h, 'PUT', `/courses/${course.id}`, editForm({ title: 'Keep', ...fields }, files), admin.token)
      expect(res.status, JSON.stringify(fields)).toBe(status)
      expect(res.body, JSON.stringify(fields)).toMatchObject({ code, message })
    }
    expect(await snapshot()).toEqual(before)
  })

  it('answers 404 for an unknown course and 403/401 to others than admins', async () => {
    expect((await send(h, 'PUT', '/courses/999999', editForm({}), admin.token)).body).toMatchObject({ code: 'course_not_found', message: COURSE_MESSAGES.courseNotFound })
    expect((await send(h, 'PUT', '/courses/1', editForm({}), tech.token)).status).toBe(403)
    expect((await send(h, 'PUT', '/courses/1', editForm({}))).status).toBe(401)
  })
})

describe('DELETE /courses/{id}', () => {
  it('deletes the course, its modules and their files', async () => {
    const course = await newCourse(
      {
        title: 'Doomed',
        moduleData: [
          { title: 'A', order: 1 },
          { title: 'B', order: 2 },
        ],
      },
      [pdfFile('a.pdf'), await zipFile('b.zip')],
    )
    const keys = (await h.sql<{ storage_key: string }>('select storage_key from course_modules where course_id = ?', [course.id])).map((r) => r.storage_key)
    expect(await h.call('DELETE', `/courses/${course.id}`, { token: tech.token })).toMatchObject({ status: 403 })
    expect(await h.call('DELETE', `/courses/${course.id}`)).toMatchObject({ status: 401 })
    expect(await h.call('DELETE', `/courses/${course.id}`, { token: admin.token })).toEqual({ status: 200, body: { message: 'Course deleted successfully' } })
    expect(await h.sql('select id from course_modules where course_id = ?', [course.id])).toEqual([])
    const files = await storedFiles(h)
    for (const key of keys) expect(files).not.toContain(key)
    expect(await h.sql('select * from storage_garbage')).toEqual([])
    expect(await h.call('DELETE', `/courses/${course.id}`, { token: admin.token })).toMatchObject({ status: 404, body: { code: 'course_not_found' } })
  })
})

describe('POST /courses/{id}/assign', () => {
  it('replaces the selection and announces only the newly added users through the outbox', async () => {
    const course = await newCourse({ title: 'Assigned' })
    const [a, b, c] = [tech.id, other.id, (await h.user()).id]
    expect(await h.call('POST', `/courses/${course.id}/assign`, { token: admin.token, body: { userIds: [a, b, a] } })).toEqual({
      status: 200,
      body: { message: 'Course assigned to 2 user(s)', assigned: 2, kept_by_rules: [] },
    })
    expect((await h.call('POST', `/courses/${course.id}/assign`, { token: admin.token, body: { userIds: [b, c] } })).status).toBe(200)
    const listed = (await h.call('GET', '/admin/courses', { token: admin.token })).body.find((x: Course) => x.id === course.id)
    expect([...listed.assigned_user_ids].sort()).toEqual([b, c].sort())
    const events = (await h.events('learning.course.assigned.v1')).filter((e) => e.data.courseId === course.id).map((e) => e.data)
    expect(events).toEqual([
      { courseId: course.id, courseTitle: 'Assigned', userIds: [a, b], assignedToAll: false },
      { courseId: course.id, courseTitle: 'Assigned', userIds: [c], assignedToAll: false },
    ])
  })

  it('accepts only existing non-admin users: 400 naming the unknown ids and the admins, and nothing changes', async () => {
    const course = await newCourse({ title: 'Kept' })
    await h.call('POST', `/courses/${course.id}/assign`, { token: admin.token, body: { userIds: [tech.id] } })
    const before = { assignments: await h.sql('select * from course_assignments order by course_id, user_id'), events: await h.events() }
    const unknown = '00000000-0000-4000-8000-000000000000'
    const ada = await h.user({ admin: true, name: 'Ada Admin' })
    const res = await h.call('POST', `/courses/${course.id}/assign`, { token: admin.token, body: { userIds: [other.id, unknown, ada.id, admin.id] } })
    expect(res).toEqual({
      status: 400,
      body: {
        message: `Only existing non-admin users can be assigned. Unknown user id(s): ${unknown}. Admin(s): Ada Admin, Test User.`,
        code: 'invalid_assignees',
        details: [
          { path: 'userIds', userId: unknown, message: 'Unknown user' },
          { path: 'userIds', userId: ada.id, message: 'Admins cannot be assigned' },
          { path: 'userIds', userId: admin.id, message: 'Admins cannot be assigned' },
        ],
      },
    })
    expect((await h.call('POST', `/courses/${course.id}/assign`, { token: admin.token, body: { userIds: [admin.id] } })).body.code).toBe('invalid_assignees')
    expect({ assignments: await h.sql('select * from course_assignments order by course_id, user_id'), events: await h.events() }).toEqual(before)
  })

  it('needs at least one user, an existing course and an admin', async () => {
    expect(await h.call('POST', '/courses/1/assign', { token: admin.token, body: { userIds: [] } })).toMatchObject({
      status: 400,
      body: { message: COURSE_MESSAGES.selectAtLeastOneUser },
    })
    expect(await h.call('POST', '/courses/999999/assign', { token: admin.token, body: { userIds: [tech.id] } })).toMatchObject({ status: 404 })
    expect((await h.call('POST', '/courses/1/assign', { token: tech.token, body: { userIds: [tech.id] } })).status).toBe(403)
    expect((await h.call('POST', '/courses/1/assign', { body: { userIds: [tech.id] } })).status).toBe(401)
  })
})

describe('uploads over a real HTTP connection', () => {
  it('streams a file larger than the 1 MiB body limit of other routes', async () => {
    const big = await createHarness()
    try {
      const server = await listen(big.app, 0)
      try {
        const boss = await big.user({ admin: true })
        const form = courseForm({ title: 'Big', moduleData: [{ title: 'Manual', order: 1 }] }, [pdfFile('manual.pdf', 3 * 1024 * 1024)])
        const res = await fetch(`http://127.0.0.1:${server.port}/courses`, { method: 'POST', body: form, headers: { authorization: `Bearer ${boss.token}` } })
        expect(res.status).toBe(201)
        const course = Course.parse(await res.json())
        expect(course.modules[0]!.size).toBe(pdfFile('manual.pdf', 3 * 1024 * 1024).size)
        const json = await fetch(`http://127.0.0.1:${server.port}/courses/${course.id}/assign`, {
          method: 'POST',
          body: JSON.stringify({ userIds: [crypto.randomUUID()], padding: 'x'.repeat(2 * 1024 * 1024) }),
          headers: { authorization: `Bearer ${boss.token}`, 'content-type': 'application/json' },
        })
        expect(json.status).toBe(413)
      } finally {
        await server.close()
      }
    } finally {
      await big.close()
    }
  })
})
