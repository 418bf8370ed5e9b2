import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Course, SCORM_EDITOR_MESSAGES as M } from '@portal/contracts'
import { captivateFixture } from '@portal/contracts/test-support/captivate-fixture'
import { silentLogger } from '@portal/server-kit/testing'
import { courseForm, fixtureFile, pdfFile, send } from '../course-forms.test-support.ts'
import { createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'
import { createIngestWorker } from './ingest-worker.ts'

// Whether a stored package holds a Captivate project (issue 30 item 4): real packages, the
// Captivate fixture and a SCORM 1.2 course made with another tool, through upload and ingest.

let h: Harness
let admin: TestUser

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
})
afterAll(async () => {
  await h?.close()
})

const worker = () => createIngestWorker({ ...h.ctx, logger: silentLogger })
const captivateFile = () => new File([new Uint8Array(captivateFixture())], 'pump-station-safety.zip', { type: 'application/zip' })

const upload = async (title: string, files: File[]) => {
  const res = await send(h, 'POST', '/courses', courseForm({ title, moduleData: files.map((f, i) => ({ title: f.name, order: i + 1 })) }, files), admin.token)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return Course.parse(res.body)
}
const listed = async (id: number) => {
  const res = await h.call('GET', '/admin/courses', { token: admin.token })
  expect(res.status).toBe(200)
  return Course.array()
    .parse(res.body)
    .find((c) => c.id === id)!
}
const editable = async (id: number) => (await listed(id)).modules.map((m) => [m.file_path, m.processing_status, m.scorm_editable])
const analyze = (moduleId: number) => h.call('POST', '/scorm-editor/analyze', { token: admin.token, body: { moduleId } })

describe('scorm_editable of a stored module', () => {
  it('is recorded when a package is ingested: true for the Captivate project, false for another package and for a PDF', async () => {
    const course = await upload('Packages', [captivateFile(), await fixtureFile('golf-scorm12-RuntimeBasicCalls.zip'), pdfFile()])
    // Not known while the packages wait; a PDF is no package.
    expect(await editable(course.id)).toEqual([
      ['pump-station-safety.zip', 'processing', null],
      ['golf-scorm12-RuntimeBasicCalls.zip', 'processing', null],
      ['intro.pdf', 'ready', false],
    ])
    expect(await worker().drain()).toBe(2)
    expect(await editable(course.id)).toEqual([
      ['pump-station-safety.zip', 'ready', true],
      ['golf-scorm12-RuntimeBasicCalls.zip', 'ready', false],
      ['intro.pdf', 'ready', false],
    ])
    // The Timing Editor agrees: it opens the one and finds no project in the other.
    const [captivate, golf] = course.modules
    expect((await analyze(captivate!.id)).status).toBe(200)
    expect(await analyze(golf!.id)).toMatchObject({ status: 422, body: { code: 'project_unreadable', message: M.unreadable } })
  })

  it('is found for packages stored before the check, in the background, and stays true once the project is edited', async () => {
    const course = await upload('Stored before', [captivateFile(), await fixtureFile('golf-scorm12-RuntimeBasicCalls.zip')])
    const w = worker()
    await w.drain()
    const [captivate] = course.modules
    const edited = await h.call('POST', '/scorm-editor/edit-timing', { token: admin.token, body: { moduleId: captivate!.id, slideId: 'Slide1002', slideName: 'Pump basics' } })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    // As the migration leaves every package it finds: not known.
    await h.sql('update course_modules set scorm_editable = null where course_id = ?', [course.id])
    expect(await editable(course.id)).toEqual([
      ['pump-station-safety.zip', 'ready', null],
      ['golf-scorm12-RuntimeBasicCalls.zip', 'ready', null],
    ])
    expect(await w.checkStored()).toBe(2)
    expect(await editable(course.id)).toEqual([
      ['pump-station-safety.zip', 'ready', true],
      ['golf-scorm12-RuntimeBasicCalls.zip', 'ready', false],
    ])
    // Nothing left to check.
    expect(await w.checkStored()).toBe(0)
  })
})
