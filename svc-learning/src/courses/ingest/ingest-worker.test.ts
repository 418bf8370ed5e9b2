import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CMI5_MESSAGES, Course } from '@portal/contracts'
import { silentLogger } from '@portal/server-kit/testing'
import { courseForm, fixtureFile, pdfFile, send, zipFile } from '../course-forms.test-support.ts'
import { storedFiles } from '../../storage.test-support.ts'
import { ingestPackage } from '../scorm-packages/index.ts'
import { cmi5Xml, rawZip, readFixtureManifest } from '../scorm-packages/zips.test-support.ts'
import { createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'
import { createIngestWorker, modulePackagePrefix } from './ingest-worker.ts'

let h: Harness
let admin: TestUser

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
})
afterAll(async () => {
  await h?.close()
})

const worker = (opts: Parameters<typeof createIngestWorker>[1] = {}) => createIngestWorker({ ...h.ctx, logger: silentLogger }, opts)

const upload = async (title: string, files: File[]) => {
  const res = await send(h, 'POST', '/courses', courseForm({ title, moduleData: files.map((f, i) => ({ title: f.name, order: i + 1 })) }, files), admin.token)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return Course.parse(res.body)
}
const moduleRow = async (id: number) => (await h.sql('select * from course_modules where id = ?', [id]))[0]!

describe('the ingest worker', () => {
  it('extracts an uploaded SCORM 1.2 package and marks its module ready with the manifest', async () => {
    const course = await upload('Golf', [await fixtureFile('golf-scorm12-RuntimeBasicCalls.zip'), pdfFile()])
    const zipModule = course.modules[0]!
    expect(zipModule.processing_status).toBe('processing')
    expect(await worker().drain()).toBe(1)

    const row = await moduleRow(zipModule.id)
    expect(row).toMatchObject({ processing_status: 'ready', processing_error: null, lease_until: null, scorm_version: '1.2', sco_count: 1 })
    expect(row.content_prefix).toBe(modulePackagePrefix(zipModule.id))
    const manifest = typeof row.manifest === 'string' ? JSON.parse(row.manifest) : row.manifest
    expect(manifest.title).toEqual(expect.any(String))
    expect(manifest.items[0]).toMatchObject({ href: 'shared/launchpage.html', children: [] })
    expect(await storedFiles(h)).toContain(`${modulePackagePrefix(zipModule.id)}/imsmanifest.xml`)

    const listed = (await h.call('GET', '/admin/courses', { token: admin.token })).body.find((c: Course) => c.id === course.id)
    expect(listed.modules[0]).toMatchObject({ processing_status: 'ready', scorm_version: '1.2', sco_count: 1 })
    expect(await worker().drain()).toBe(0)
  })

  it('ingests a cmi5 zip: scorm_version cmi5, no edition, one SCO per AU, the structure in the manifest, not editable', async () => {
    const zip = await zipFile('rocks.zip', { 'cmi5.xml': cmi5Xml, 'lesson/index.html': '<p>x</p>', 'summary.html': '<p>y</p>' })
    const course = await upload('cmi5 zip', [zip])
    const id = course.modules[0]!.id
    expect(await worker().drain()).toBe(1)
    const row = await moduleRow(id)
    expect(row).toMatchObject({ is_scorm: true, processing_status: 'ready', scorm_version: 'cmi5', scorm_edition: null, sco_count: 3, scorm_editable: false })
    const manifest = typeof row.manifest === 'string' ? JSON.parse(row.manifest) : row.manifest
    expect(manifest.title).toBe('Rocks, a cmi5 course')
    expect(manifest.cmi5).toMatchObject({ id: 'https://example.com/cmi5/course', children: [{ kind: 'block' }, { kind: 'au', id: 'https://example.com/cmi5/au/3' }] })
    expect(manifest.items[1]).toMatchObject({ identifier: 'https://example.com/cmi5/au/3', href: 'summary.html' })
    expect(await storedFiles(h)).toContain(`${modulePackagePrefix(id)}/summary.html`)
    const listed = (await h.call('GET', '/admin/courses', { token: admin.token })).body.find((c: Course) => c.id === course.id)
    expect(listed.modules[0]).toMatchObject({ is_scorm: true, scorm_version: 'cmi5', scorm_edition: null, scorm_editable: false, sco_count: 3 })
  })

  it('ingests a cmi5.xml uploaded alone whose AUs are hosted elsewhere, and refuses one with a relative url', async () => {
    const absolute = cmi5Xml.replace('lesson/index.html?page=1', 'https://aus.example.com/lesson.html').replace('summary.html', 'https://aus.example.com/summary.html')
    const course = await upload('cmi5 alone', [new File([absolute], 'cmi5.xml', { type: 'text/xml' }), new File([cmi5Xml], 'needs-package.xml', { type: 'text/xml' })])
    const [alone, relative] = course.modules
    expect(alone).toMatchObject({ is_scorm: true, processing_status: 'processing' })
    expect(await worker().drain()).toBe(2)
    const row = await moduleRow(alone!.id)
    expect(row).toMatchObject({ content_type: 'application/xml', processing_status: 'ready', scorm_version: 'cmi5', sco_count: 3, scorm_editable: false })
    const manifest = typeof row.manifest === 'string' ? JSON.parse(row.manifest) : row.manifest
    expect(manifest.items[0].children[0]).toMatchObject({ identifier: 'https://example.com/cmi5/au/1', href: 'https://aus.example.com/lesson.html' })
    expect(manifest.cmi5.id).toBe('https://example.com/cmi5/course')
    expect(await moduleRow(relative!.id)).toMatchObject({ processing_status: 'failed', processing_error: CMI5_MESSAGES.relativeUrlAlone('https://example.com/cmi5/au/1') })
  })

  it('refuses an upload named .xml that is no XML', async () => {
    const res = await send(h, 'POST', '/courses', courseForm({ title: 'Fake', moduleData: [{ title: 'x', order: 1 }] }, [new File(['%PDF-1.7'], 'cmi5.xml')]), admin.token)
    expect(res.status).toBe(415)
  })

  it('marks a zip without a manifest failed with the package library message', async () => {
    const course = await upload('Not SCORM', [await zipFile('photos.zip', { 'a.txt': 'hello' })])
    await worker().drain()
    const row = await moduleRow(course.modules[0]!.id)
    expect(row.processing_status).toBe('failed')
    expect(row.processing_error).toEqual(expect.any(String))
    expect(row.processing_error.length).toBeGreaterThan(0)
    const listed = (await h.call('GET', '/admin/courses', { token: admin.token })).body.find((c: Course) => c.id === course.id)
    expect(listed.modules[0]).toMatchObject({ processing_status: 'failed', processing_error: row.processing_error })
    expect((await storedFiles(h)).filter((f) => f.startsWith(`${modulePackagePrefix(course.modules[0]!.id)}/`))).toEqual([])
  })

  it('marks a package failed even when its message holds text the database cannot store (a NUL in an entry name)', async () => {
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: await readFixtureManifest('golf-scorm12-RuntimeBasicCalls.zip') },
      { name: 'shared/page\u0000.html', data: '<p>x</p>' },
      { name: 'shared/bad\ud800.html', data: '<p>x</p>' },
    ])
    const course = await upload('NUL in a name', [new File([new Uint8Array(zip)], 'nul.zip', { type: 'application/zip' })])
    const id = course.modules[0]!.id
    expect(await worker().drain()).toBe(1)
    const row = await moduleRow(id)
    expect(row).toMatchObject({ processing_status: 'failed', lease_until: null })
    expect(row.processing_error).toBe('Unsafe path in package: shared/page\ufffd.html')
    expect(await worker().drain()).toBe(0)
    const listed = (await h.call('GET', '/admin/courses', { token: admin.token })).body.find((c: Course) => c.id === course.id)
    expect(listed.modules[0]).toMatchObject({ processing_status: 'failed', processing_error: row.processing_error })
  })

  it('stores a manifest whose titles hold a NUL or a lone surrogate, with U+FFFD in their place', async () => {
    const manifest = (await readFixtureManifest('golf-scorm12-RuntimeBasicCalls.zip')).replace(/<title>([^<]*)<\/title>/, '<title>Golf\u0000 &#xD800;Basics</title>')
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: manifest },
      { name: 'shared/launchpage.html', data: '<p>x</p>' },
    ])
    const course = await upload('Odd title', [new File([new Uint8Array(zip)], 'odd.zip', { type: 'application/zip' })])
    expect(await worker().drain()).toBe(1)
    const row = await moduleRow(course.modules[0]!.id)
    expect(row.processing_status).toBe('ready')
    const stored = typeof row.manifest === 'string' ? JSON.parse(row.manifest) : row.manifest
    expect(stored.title).toBe('Golf\ufffd \ufffdBasics')
  })

  it('does not bring back a module deleted while its package was being extracted, and removes what it wrote', async () => {
    const course = await upload('Deleted meanwhile', [await fixtureFile('golf-scorm12-RuntimeBasicCalls.zip'), pdfFile()])
    const id = course.modules[0]!.id
    const w = worker({
      ingest: async (args) => {
        const info = await ingestPackage(args)
        const form = courseForm({ title: 'Deleted meanwhile', existingModules: [], modulesToDelete: [id], newModuleData: [] }, [], 'newModuleFiles')
        expect((await send(h, 'PUT', `/courses/${course.id}`, form, admin.token)).status).toBe(200)
        return info
      },
    })
    expect(await w.drain()).toBe(1)
    expect(await h.sql('select id from course_modules where id = ?', [id])).toEqual([])
    expect((await storedFiles(h)).filter((f) => f.startsWith(`modules/${id}/`))).toEqual([])
  })

  it('removes what it wrote when the module is deleted mid-way and extraction then fails (its upload went with it)', async () => {
    const course = await upload('Deleted mid-way', [await fixtureFile('golf-scorm12-RuntimeBasicCalls.zip'), pdfFile()])
    const id = course.modules[0]!.id
    const w = worker({
      ingest: async (args) => {
        const form = courseForm({ title: 'Deleted mid-way', existingModules: [], modulesToDelete: [id], newModuleData: [] }, [], 'newModuleFiles')
        expect((await send(h, 'PUT', `/courses/${course.id}`, form, admin.token)).status).toBe(200)
        // still writing after the delete cleaned up the module's files
        await args.storage.put(
          `${args.prefix}/half-written.html`,
          (async function* () {
            yield Buffer.from('<p>')
          })(),
        )
        throw new Error('ENOENT: the upload is gone')
      },
    })
    expect(await w.drain()).toBe(1)
    expect((await storedFiles(h)).filter((f) => f.startsWith(`modules/${id}/`))).toEqual([])
  })

  it('leaves a module another worker holds alone until its lease runs out, then takes it over', async () => {
    const course = await upload('Leased', [await fixtureFile('golf-scorm12-RuntimeBasicCalls.zip')])
    const id = course.modules[0]!.id
    await h.sql("update course_modules set lease_until = now() + interval '1 minute' where id = ?", [id])
    expect(await worker().drain()).toBe(0)
    await h.sql("update course_modules set lease_until = now() - interval '1 second' where id = ?", [id])
    expect(await worker().drain()).toBe(1)
    expect((await moduleRow(id)).processing_status).toBe('ready')
  })

  it('keeps a module for a retry when ingestion fails for another reason than the package', async () => {
    const course = await upload('Retry', [await fixtureFile('golf-scorm12-RuntimeBasicCalls.zip')])
    const id = course.modules[0]!.id
    const w = worker({ leaseMs: 60_000, ingest: async () => Promise.reject(new Error('storage is down')) })
    expect(await w.drain()).toBe(1)
    const row = await moduleRow(id)
    expect(row.processing_status).toBe('processing')
    expect(row.lease_until).not.toBeNull()
    await h.sql('update course_modules set lease_until = null where id = ?', [id])
    await worker().drain()
    expect((await moduleRow(id)).processing_status).toBe('ready')
  })

  it('once started, picks up a package when kicked, and stop() waits for the package in hand', async () => {
    const w = worker({ pollMs: 60_000 })
    w.start()
    const course = await upload('Kicked', [await fixtureFile('golf-scorm12-RuntimeBasicCalls.zip')])
    w.kick()
    const id = course.modules[0]!.id
    for (let i = 0; i < 100 && (await moduleRow(id)).processing_status === 'processing'; i++) await new Promise((r) => setTimeout(r, 50))
    await w.stop()
    expect((await moduleRow(id)).processing_status).toBe('ready')
  })
})
