import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { MikroORM } from '@mikro-orm/postgresql'
import yazl from 'yazl'
import { type CourseService, courseRepository } from '../courses/index.ts'
import { buildPdf, type PdfPage } from '@portal/server-kit/demo'

export const DEMO_COURSE_TITLE = 'Field Safety Essentials'

/** Folder of the demo SCORM 1.2 lesson (manifest, launch page, pages, one script). */
export const DEMO_SCORM_DIR = fileURLToPath(new URL('./scorm-demo/', import.meta.url))

/** The demo lesson zipped at seed time, entries in a stable order with `/` separators. */
export async function buildDemoPackage(dir = DEMO_SCORM_DIR): Promise<Buffer> {
  const files: string[] = []
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name))
      else files.push(relative(dir, join(d, e.name)).split('\\').join('/'))
    }
  }
  await walk(dir)
  files.sort()
  const zip = new yazl.ZipFile()
  const mtime = new Date('2026-01-01T00:00:00Z')
  for (const name of files) zip.addBuffer(await readFile(join(dir, ...name.split('/'))), name, { mtime })
  zip.end()
  const chunks: Buffer[] = []
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

const HANDBOOK: PdfPage[] = [
  {
    heading: 'Field Safety Handbook',
    paragraphs: [
      'This handbook goes with the Field Safety Essentials lesson. Keep it with you on site and read it again before any job that is new to you.',
      'Before work: walk the site, identify energy sources, heights, traffic and weather. Agree on a plan with everyone working in the area.',
      'During work: keep the area tidy, use the right tool for the job, and keep guards and barriers in place. If conditions change, stop and reassess.',
      'After work: remove your locks and tags only when everyone is clear, restore guards, and report anything that went wrong or nearly did.',
    ],
  },
  {
    heading: 'Protective Equipment Checklist',
    paragraphs: [
      'Hard hat: no cracks or dents, suspension intact, within its service date.',
      'Eye and face protection: clean, unscratched lenses; a face shield for grinding, cutting and arc-flash risk.',
      'Gloves: rated for the task; voltage-rated gloves air-tested before each use.',
      'Fall protection: harness webbing, stitching and buckles inspected; lanyard and anchor rated for the load.',
      'High-visibility clothing: worn wherever vehicles or mobile plant move.',
      'When in doubt, do not use it: tag it out of service and get a replacement.',
    ],
  },
]

/** The demo handbook (two pages of text). */
export const buildDemoHandbook = () => buildPdf('Field Safety Handbook', HANDBOOK)

/**
 * Creates the demo course (assigned to everyone) when there is no course yet, through the same
 * storage and module path as an upload: the lesson package is then ingested by the worker.
 * Resolves with the title created, or null. Demo data is seeded by the single-node launcher only
 * (one process), so no lock is taken: holding a transaction open here would also deadlock the
 * embedded database, whose single connection the upload path needs for its own transactions.
 */
export async function seedDemoCourse(orm: MikroORM, courses: CourseService): Promise<string | null> {
  if ((await courseRepository.countAll(orm.em.fork())) > 0) return null
  await courses.createFromFiles({
    title: DEMO_COURSE_TITLE,
    isAssignedToAll: true,
    announce: false,
    modules: [
      { title: 'Field Safety Essentials: interactive lesson', order: 1, fileName: 'field-safety-essentials-scorm12.zip', data: await buildDemoPackage() },
      { title: 'Field Safety Handbook', order: 2, fileName: 'field-safety-handbook.pdf', data: buildDemoHandbook() },
    ],
  })
  return DEMO_COURSE_TITLE
}
