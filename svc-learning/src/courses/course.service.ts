import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { LockMode, type EntityManager } from '@mikro-orm/postgresql'
import type { z } from 'zod'
import { COURSE_MESSAGES, CreateCourseFields, UpdateCourseFields, assignedMessage, type AssignResponse, type Course, type CourseSummary } from '@portal/contracts'
import { AppError, assertStorableInput, badRequest, conflict, recordEvent, type Actor } from '@portal/server-kit'
import type { LearningContext } from '../context.ts'
import { forgetGarbage, recordGarbage, type GarbageCleaner, type GarbageEntry } from '@portal/server-kit'
import { requireAssignable } from '../users/index.ts'
import { courseNotFound, toCourseModule } from './access.ts'
import { SNIFF_BYTES, checkUploadHeaders, receiveUpload, type ReceivedUpload, type StoredFile, type UploadRequest } from './uploads/multipart.ts'
import { contentMatches, contentTypeOf, extensionOf, isAllowedExtension, isPackageExtension } from './uploads/sniff.ts'
import { CourseAssignmentEntity, CourseEntity, CourseModuleEntity, toCourseDto, toCourseSummary } from './course.entity.ts'
import { courseRepository } from './course.repository.ts'
import { deleteRulesOfItem, keepAccessOfRules, usersKeptByRules } from '../assignments/index.ts'

/** Storage a module leaves behind: its uploaded file and everything under `modules/<id>` (extracted package, edits). */
export function moduleGarbage(m: Pick<CourseModuleEntity, 'id' | 'storageKey' | 'contentPrefix'>): GarbageEntry[] {
  const own = `modules/${m.id}`
  const entries: GarbageEntry[] = [
    { key: m.storageKey, isPrefix: false },
    { key: own, isPrefix: true },
  ]
  if (m.contentPrefix && m.contentPrefix !== own && !m.contentPrefix.startsWith(`${own}/`)) entries.push({ key: m.contentPrefix, isPrefix: true })
  return entries
}

/** A new module's row: non-packages are ready at once; zips (and a cmi5.xml alone) wait for the ingest worker. */
export function newModuleRow(courseId: number, title: string, position: number, file: StoredFile, at: Date) {
  const isScorm = isPackageExtension(file.extension)
  return {
    courseId,
    title,
    position,
    originalName: file.originalName,
    contentType: contentTypeOf(file.extension),
    size: file.size,
    isScorm,
    storageKey: file.key,
    processingStatus: isScorm ? ('processing' as const) : ('ready' as const),
    processingError: null,
    leaseUntil: null,
    scormVersion: null,
    scormEdition: null,
    manifest: null,
    contentPrefix: null,
    scoCount: 0,
    hasEdits: false,
    scormEditable: null,
    createdAt: at,
    updatedAt: at,
  }
}

// ---------- multipart fields ----------

const lastValue = (fields: Map<string, string[]>, name: string) => fields.get(name)?.at(-1)

function jsonField(fields: Map<string, string[]>, name: string): unknown {
  const value = lastValue(fields, name)
  if (value === undefined || value.trim() === '') return undefined
  try {
    return JSON.parse(value)
  } catch {
    throw badRequest(`Invalid ${name}`, 'invalid_field')
  }
}

const booleanField = (value: string | undefined) => (value === 'true' ? true : value === 'false' ? false : value)

/** `modulesToDelete` as one JSON list, or repeated fields of ids (`modulesToDelete` / `modulesToDelete[]`). */
function idListField(fields: Map<string, string[]>, name: string): unknown {
  const values = [...(fields.get(name) ?? []), ...(fields.get(`${name}[]`) ?? [])].filter((v) => v.trim() !== '')
  if (values.length === 0) return undefined
  const ids: unknown[] = []
  for (const value of values) {
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      throw badRequest(`Invalid ${name}`, 'invalid_field')
    }
    if (Array.isArray(parsed)) ids.push(...parsed)
    else ids.push(parsed)
  }
  return ids
}

/** Parses multipart fields with a contract schema, answering like `validate()` does. */
function parseWith<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const result = schema.safeParse(raw)
  if (result.success) {
    assertStorableInput(result.data)
    return result.data
  }
  const details = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
  throw new AppError(400, 'validation_failed', details[0]!.message, { details })
}

/** The n-th file belongs to the n-th entry; every entry needs one and no file may be left over. */
function matchFiles<E extends { title: string }>(entries: E[], files: StoredFile[]): StoredFile[] {
  if (files.length < entries.length) throw badRequest(COURSE_MESSAGES.moduleFileMissing(entries[files.length]!.title), 'module_file_missing')
  if (files.length > entries.length) throw badRequest(`Received ${files.length} files for ${entries.length} modules`, 'module_files_mismatch')
  return files
}

const uploadExpired = () => conflict('The upload took too long and was discarded. Please try again.', 'upload_expired')

export interface CourseServiceDeps {
  garbage: Pick<GarbageCleaner, 'collect'>
  /** Told when packages wait for ingestion. */
  ingest: { kick(): void }
}

/** A new course as stored files plus their module entries. */
export interface NewCourse {
  title: string
  isAssignedToAll: boolean
  modules: { title: string; order: number; file: StoredFile }[]
}

export function createCourseService(ctx: LearningContext, deps: CourseServiceDeps) {
  const { orm, now, storage, logger } = ctx

  const loadFull = async (em: EntityManager, courses: CourseEntity[]): Promise<Course[]> => {
    const ids = courses.map((c) => c.id)
    const [modules, assignments] = await Promise.all([courseRepository.moduleRowsOf(em, ids), courseRepository.assignmentsOf(em, ids)])
    return courses.map((c) =>
      toCourseDto(
        c,
        modules.filter((m) => m.course_id === c.id).map(toCourseModule),
        assignments.filter((a) => a.courseId === c.id).map((a) => a.userId),
      ),
    )
  }

  const getFull = async (id: number) => {
    const em = orm.em.fork()
    const course = await courseRepository.findById(em, id)
    if (!course) throw courseNotFound()
    return (await loadFull(em, [course]))[0]!
  }

  /**
   * Receives an upload under a fresh `uploads/<uuid>` prefix recorded as garbage first, then runs
   * `commit` (which must forget that row in its transaction). Any failure deletes the files.
   */
  const withUpload = async <T>(req: UploadRequest, fileField: string, commit: (upload: ReceivedUpload, prefix: string) => Promise<T>) => {
    checkUploadHeaders(req, ctx.uploadLimits)
    const prefix = `uploads/${randomUUID()}`
    await orm.em.fork().transactional((tx) => recordGarbage(tx, [{ key: prefix, isPrefix: true }], now()))
    try {
      const upload = await receiveUpload(req, { storage, prefix, limits: ctx.uploadLimits, fileFields: [fileField] })
      return await commit(upload, prefix)
    } catch (err) {
      await discard(prefix)
      throw err
    }
  }

  const discard = async (prefix: string) => {
    try {
      await storage.deletePrefix(prefix)
      await orm.em.fork().transactional((tx) => forgetGarbage(tx, prefix))
    } catch (err) {
      // The garbage row stays: the cleaner retries.
      logger.warn('failed upload not cleaned up yet', { prefix, err: err as Error })
    }
  }

  /** The ingest worker looks for new packages at once (the relay is kicked by the commit itself). */
  const afterCommit = (opts: { packages: boolean }) => {
    if (opts.packages) deps.ingest.kick()
  }

  /**
   * Creates the course and its modules from files already in storage under `prefix`, in one
   * transaction; `announce` records the assignment event of a course assigned to everyone.
   */
  const commitNew = async (data: NewCourse, prefix: string, announce = true) => {
    const id = await orm.em.fork().transactional(async (tx) => {
      const at = now()
      const course = tx.create(CourseEntity, { title: data.title, isAssignedToAll: data.isAssignedToAll, createdAt: at, updatedAt: at })
      await tx.flush()
      const ordered = data.modules.map((m, i) => ({ ...m, i })).sort((a, b) => a.order - b.order || a.i - b.i)
      ordered.forEach((m, i) => tx.create(CourseModuleEntity, newModuleRow(course.id, m.title, i + 1, m.file, at)))
      if (data.isAssignedToAll && announce) recordEvent(tx, 'learning.course.assigned.v1', { courseId: course.id, courseTitle: course.title, userIds: [], assignedToAll: true })
      if (!(await forgetGarbage(tx, prefix))) throw uploadExpired()
      return course.id
    })
    afterCommit({ packages: data.modules.some((m) => isPackageExtension(m.file.extension)) })
    return getFull(id)
  }

  return {
    /** What the caller may open (admins: every course), newest first. */
    async listForCaller(actor: Actor): Promise<CourseSummary[]> {
      const em = orm.em.fork()
      const courses = await courseRepository.listOpenable(em, actor)
      const counts = await courseRepository.moduleCounts(
        em,
        courses.map((c) => c.id),
      )
      return courses.map((c) => toCourseSummary(c, counts.get(c.id) ?? 0))
    },

    /** Every course with its modules (by order) and assigned users (admins). */
    async listAdmin(): Promise<Course[]> {
      const em = orm.em.fork()
      return loadFull(em, await courseRepository.listAll(em))
    },

    get: getFull,

    /** POST /courses: title, is_assigned_to_all, moduleData (JSON) and moduleFiles, streamed to storage. */
    async create(req: UploadRequest): Promise<Course> {
      return withUpload(req, 'moduleFiles', async ({ fields, files }, prefix) => {
        const data = parseWith(CreateCourseFields, {
          title: lastValue(fields, 'title') ?? '',
          is_assigned_to_all: booleanField(lastValue(fields, 'is_assigned_to_all')),
          moduleData: jsonField(fields, 'moduleData') ?? [],
        })
        const matched = matchFiles(data.moduleData, files)
        return commitNew(
          {
            title: data.title,
            isAssignedToAll: data.is_assigned_to_all,
            modules: data.moduleData.map((m, i) => ({ title: m.title, order: m.order, file: matched[i]! })),
          },
          prefix,
        )
      })
    },

    /**
     * A course from files held by the server (the demo seeding), through the upload's path: a
     * garbage-recorded `uploads/<uuid>` prefix, the same checks of type and content, one transaction.
     * With `announce: false` no assignment event is recorded (seeded data is nobody's news).
     */
    async createFromFiles(input: { title: string; isAssignedToAll: boolean; announce?: boolean; modules: { title: string; order: number; fileName: string; data: Buffer }[] }) {
      const prefix = `uploads/${randomUUID()}`
      await orm.em.fork().transactional((tx) => recordGarbage(tx, [{ key: prefix, isPrefix: true }], now()))
      try {
        const modules: NewCourse['modules'] = []
        for (const [i, m] of input.modules.entries()) {
          const extension = extensionOf(m.fileName)
          if (!isAllowedExtension(extension)) throw new AppError(415, 'unsupported_file_type', COURSE_MESSAGES.fileTypeNotSupported(m.fileName))
          if (!contentMatches(extension, m.data.subarray(0, SNIFF_BYTES))) throw new AppError(415, 'file_content_mismatch', COURSE_MESSAGES.fileContentMismatch(m.fileName))
          const key = `${prefix}/${i + 1}.${extension}`
          const { size } = await storage.put(key, Readable.from([m.data]))
          modules.push({ title: m.title, order: m.order, file: { field: 'moduleFiles', originalName: m.fileName, extension, key, size } })
        }
        return await commitNew({ title: input.title, isAssignedToAll: input.isAssignedToAll, modules }, prefix, input.announce ?? true)
      } catch (err) {
        await discard(prefix)
        throw err
      }
    },

    /**
     * PUT /courses/{id}: renames, reorders (renumbered 1..n by order), deletes and adds modules in one
     * transaction; the deleted modules' storage goes through the garbage table.
     */
    async update(id: number, req: UploadRequest): Promise<Course> {
      if (!(await courseRepository.findById(orm.em.fork(), id))) throw courseNotFound()
      const { garbage, packages } = await withUpload(req, 'newModuleFiles', async ({ fields, files }, prefix) => {
        const data = parseWith(UpdateCourseFields, {
          title: lastValue(fields, 'title') ?? '',
          is_assigned_to_all: booleanField(lastValue(fields, 'is_assigned_to_all')),
          existingModules: jsonField(fields, 'existingModules'),
          modulesToDelete: idListField(fields, 'modulesToDelete'),
          newModuleData: jsonField(fields, 'newModuleData'),
        })
        const matched = matchFiles(data.newModuleData, files)
        return orm.em.fork().transactional(async (tx) => {
          const at = now()
          const course = await tx.findOne(CourseEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
          if (!course) throw courseNotFound()
          const modules = await courseRepository.modulesOf(tx, [id])
          const byId = new Map(modules.map((m) => [m.id, m]))
          const unknown = [...data.existingModules.map((m) => m.id), ...data.modulesToDelete].find((mid) => !byId.has(mid))
          if (unknown !== undefined) throw badRequest(`Module ${unknown} does not belong to this course`, 'unknown_module')
          const edits = new Map<number, { title: string; order: number }>()
          for (const m of data.existingModules) {
            if (edits.has(m.id)) throw badRequest(`Module ${m.id} appears twice`, 'duplicate_module')
            edits.set(m.id, m)
          }
          const deleting = new Set(data.modulesToDelete)
          const kept = modules
            .filter((m) => !deleting.has(m.id))
            .map((m) => ({
              entity: m as CourseModuleEntity | null,
              title: edits.get(m.id)?.title ?? m.title,
              order: edits.get(m.id)?.order ?? m.position,
              file: null as StoredFile | null,
            }))
          const added = data.newModuleData.map((m, i) => ({ entity: null, title: m.title, order: m.order, file: matched[i]! }))
          // Stable sort: at equal order, existing modules keep their place before new ones.
          const ordered = [...kept, ...added].sort((a, b) => a.order - b.order)
          if (ordered.length === 0)
            throw new AppError(400, 'validation_failed', COURSE_MESSAGES.atLeastOneModule, { details: [{ path: 'modules', message: COURSE_MESSAGES.atLeastOneModule }] })

          const removed = modules.filter((m) => deleting.has(m.id))
          const garbage = removed.flatMap(moduleGarbage)
          await recordGarbage(tx, garbage, at)
          for (const m of removed) tx.remove(m)
          ordered.forEach((m, i) => {
            if (m.entity) {
              if (m.entity.title !== m.title || m.entity.position !== i + 1) tx.assign(m.entity, { title: m.title, position: i + 1, updatedAt: at })
            } else tx.create(CourseModuleEntity, newModuleRow(id, m.title, i + 1, m.file!, at))
          })
          if (data.is_assigned_to_all && !course.isAssignedToAll)
            recordEvent(tx, 'learning.course.assigned.v1', { courseId: id, courseTitle: data.title, userIds: [], assignedToAll: true })
          // No longer everyone's: the people its assignment rules assign keep it (issue 24).
          if (!data.is_assigned_to_all && course.isAssignedToAll) await keepAccessOfRules(tx, 'course', id, at)
          tx.assign(course, { title: data.title, isAssignedToAll: data.is_assigned_to_all, updatedAt: at })
          if (!(await forgetGarbage(tx, prefix))) throw uploadExpired()
          return { garbage: garbage.map((g) => g.key), packages: added.some((m) => isPackageExtension(m.file.extension)) }
        })
      })
      afterCommit({ packages })
      await deps.garbage.collect(garbage)
      return getFull(id)
    },

    /** Deletes the course, its modules, assignments and learners' progress; its files go through the garbage table. */
    async remove(id: number) {
      const garbage = await orm.em.fork().transactional(async (tx) => {
        const course = await courseRepository.findById(tx, id)
        if (!course) throw courseNotFound()
        const entries = (await courseRepository.modulesOf(tx, [id])).flatMap(moduleGarbage)
        await recordGarbage(tx, entries, now())
        // Its assignment rules go with it (issue 24), announced while its title is still there.
        await deleteRulesOfItem(tx, 'course', id, now())
        await tx.nativeDelete(CourseEntity, { id })
        return entries.map((e) => e.key)
      })
      await deps.garbage.collect(garbage)
      return { message: 'Course deleted successfully' }
    },

    /**
     * Sets who the course is assigned to: the selected users (existing non-admins) replace the
     * previous selection, except that people a live assignment rule gives the course keep it (issue
     * 24): the answer names them. The event names only the users who did not have it before.
     */
    async assign(id: number, userIds: string[]): Promise<AssignResponse> {
      const unique = [...new Set(userIds)]
      const { total, kept } = await orm.em.fork().transactional(async (tx) => {
        // The row locked: a rule save or a user joining gives access after this, or is seen by it.
        const course = await tx.findOne(CourseEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        if (!course) throw courseNotFound()
        await requireAssignable(tx, unique)
        const chosen = new Set(unique)
        const kept = (await usersKeptByRules(tx, 'course', id)).filter((u) => !chosen.has(u))
        const all = [...unique, ...kept]
        // Read without loading entities: the rows re-created below must not meet managed copies of the deleted ones.
        const before = new Set(await courseRepository.assignedUserIds(tx, id))
        await tx.nativeDelete(CourseAssignmentEntity, { courseId: id })
        const at = now()
        for (const userId of all) tx.create(CourseAssignmentEntity, { courseId: id, userId, assignedAt: at })
        const added = all.filter((u) => !before.has(u))
        if (added.length > 0) recordEvent(tx, 'learning.course.assigned.v1', { courseId: id, courseTitle: course.title, userIds: added, assignedToAll: false })
        return { total: all.length, kept }
      })
      return { message: assignedMessage('Course', total, kept.length), assigned: total, kept_by_rules: kept }
    },
  }
}
export type CourseService = ReturnType<typeof createCourseService>
