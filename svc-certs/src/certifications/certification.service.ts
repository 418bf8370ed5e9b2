import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { LockMode, type EntityManager } from '@mikro-orm/postgresql'
import { z } from 'zod'
import {
  AddCertificationBody,
  CERT_MESSAGES,
  UpdateCertificationBody,
  UploadCertificationFields,
  computeExpiration,
  renewedExpiration,
  type AvailableCertificationsResponse,
  type UserCertification,
} from '@portal/contracts'
import {
  AppError,
  badRequest,
  conflict,
  forgetGarbage,
  assertStorableInput,
  notFound,
  recordEvent,
  recordGarbage,
  validationFailed,
  type Actor,
  type ProjectedUser,
  type UploadRequest,
} from '@portal/server-kit'
import { toCertificationBrief, type CertificationTypeEntity } from '../certification-types/certification-type.entity.ts'
import { certificationTypeRepository } from '../certification-types/certification-type.repository.ts'
import { typeNotFound } from '../certification-types/certification-type.service.ts'
import type { CertsContext } from '../context.ts'
import { revenueRepository } from '../revenue/revenue.repository.ts'
import { appliesToDepartment } from '../technicians/compliance.ts'
import { requireCompleteProfile, requireEdit, requireEditableUser, requireReadableCertification, requireReadableUser } from '../technicians/access.ts'
import { TechnicianCertificationEntity } from './certification.entity.ts'
import { certificationFacts, certificationRepository, toUserCertification } from './certification.repository.ts'
import { receiveProof, type ReceivedProof } from './proof-file.ts'

type AddBody = z.output<typeof AddCertificationBody>
type UpdateBody = z.output<typeof UpdateCertificationBody>

const unavailable = (message: string) => badRequest(message, 'certification_unavailable')
/** The field of an upload that names whose certification it is. */
const UploadTarget = z.object({ user_id: UploadCertificationFields.shape.user_id })

/** Dates a certification can carry (and PostgreSQL store): calendar dates from 1900 to 2199. */
function requirePlausibleDates(...dates: (string | null | undefined)[]) {
  for (const d of dates)
    if (d && (d < '1900-01-01' || d > '2199-12-31')) throw badRequest('Use a date between 1900 and 2199', 'date_out_of_range')
}
const uploadExpired = () => new AppError(409, 'upload_expired', 'The upload took too long; please upload the file again')
const fileNotFound = () => notFound(CERT_MESSAGES.fileNotFound, 'file_not_found')

/** A proof file as it is served. */
export interface ProofDownload {
  body: Readable
  name: string
  type: string
  size: number | null
}

/**
 * Technicians' certifications and their proofs (learner §3, §5, §7): add, upload, edit, replace,
 * view, download and delete, each after the access check of `technicians/access.ts`, each change
 * announced through the outbox (`certs.certification.added/updated/deleted.v1`; proof changes are
 * updates). Proof files follow the storage rule of decision 0006: an upload's key is recorded as
 * garbage before a byte is written and forgotten by the transaction that stores its row, a
 * replaced or deleted proof is recorded in the transaction that lets go of it, so neither a failed
 * upload nor a crash leaves a file nothing refers to.
 */
export function createCertificationService(ctx: CertsContext) {
  const { orm, storage, now, logger } = ctx
  const today = ctx.today

  /** The type, share-locked (a deletion of it waits), offered to this user: active and for their department. */
  const offeredType = async (em: EntityManager, certificationId: number, user: ProjectedUser | null): Promise<CertificationTypeEntity> => {
    await em.execute('select id from certification_types where id = ? for share', [certificationId])
    const type = await certificationTypeRepository.findById(em, certificationId)
    if (!type) throw typeNotFound()
    if (!type.isActive) throw unavailable('This certification is no longer offered')
    if (!appliesToDepartment(type, user?.department ?? null)) throw unavailable(`This certification is for the ${type.department} department`)
    return type
  }

  /**
   * The expiration given, else the obtained date plus the type's validity (null without an obtained
   * date or for lifetime types). A renewal (a later obtained date on a held certification) from 60
   * days before the old expiry runs from the old expiry instead (the recertification window).
   */
  const expirationOf = (given: string | null, obtained: string | null, type: CertificationTypeEntity, held?: TechnicianCertificationEntity | null) => {
    if (given !== null) return given
    if (!obtained) return null
    const renewal = held?.obtainedDate && held.expirationDate && obtained > held.obtainedDate
    return renewal ? renewedExpiration(held.expirationDate!, obtained, type.validityPeriod ?? null) : computeExpiration(obtained, type.validityPeriod ?? null)
  }

  const typeOf = async (em: EntityManager, cert: TechnicianCertificationEntity) => (await certificationTypeRepository.findById(em, cert.certificationId))!

  /**
   * Receives a proof under a fresh key recorded as garbage first; `commit` must forget it in its
   * transaction. Any failure deletes the file. `beforeFile` runs as the file begins (see `receiveProof`).
   */
  const withProof = async <T>(
    req: UploadRequest,
    commit: (received: { fields: Map<string, string[]>; proof: ReceivedProof }) => Promise<T>,
    beforeFile?: (fields: ReadonlyMap<string, string[]>) => Promise<void>,
  ): Promise<T> => {
    const key = `proofs/${randomUUID()}`
    await orm.em.fork().transactional((tx) => recordGarbage(tx, [{ key, isPrefix: false }], now()))
    try {
      return await commit(await receiveProof(req, storage, key, beforeFile))
    } catch (err) {
      await ctx.garbage.collect([key]).catch((e: unknown) => logger.warn('failed upload not cleaned up yet', { key, err: e as Error }))
      throw err
    }
  }

  /** Sets the proof on the row and records the one it replaces as garbage (collected after the commit). */
  const attachProof = async (em: EntityManager, cert: TechnicianCertificationEntity, proof: ReceivedProof, at: Date): Promise<string | null> => {
    const replaced = cert.fileKey ?? null
    if (replaced) await recordGarbage(em, [{ key: replaced, isPrefix: false }], new Date(0))
    cert.fileKey = proof.key
    cert.fileName = proof.name
    cert.fileSize = proof.size
    cert.fileType = proof.type
    cert.uploadedAt = at
    cert.updatedAt = at
    if (!(await forgetGarbage(em, proof.key))) throw uploadExpired()
    return replaced
  }

  const collect = async (key: string | null) => {
    if (key) await ctx.garbage.collect([key]).catch((err: unknown) => logger.warn('replaced proof not removed yet', { key, err: err as Error }))
  }

  return {
    /** POST /technician/certifications/add (learner §5). */
    async add(actor: Actor, body: AddBody): Promise<UserCertification> {
      const userId = body.user_id ?? actor.userId
      requirePlausibleDates(body.obtained_date, body.expiration_date)
      return orm.em.fork().transactional(async (em) => {
        const user = await requireEditableUser(em, actor, userId)
        requireCompleteProfile(actor, user)
        const type = await offeredType(em, body.certification_id, user)
        if (await certificationRepository.findHeld(em, userId, type.id)) throw conflict(CERT_MESSAGES.alreadyHeld, 'already_held')
        const at = now()
        const cert = em.create(TechnicianCertificationEntity, {
          userId,
          certificationId: type.id,
          certificationNumber: body.certification_number,
          obtainedDate: body.obtained_date,
          expirationDate: expirationOf(body.expiration_date, body.obtained_date, type),
          notes: body.notes,
          fileKey: null,
          fileName: null,
          fileSize: null,
          fileType: null,
          uploadedAt: null,
          verifiedAt: null,
          createdAt: at,
          updatedAt: at,
        })
        await em.flush()
        recordEvent(em, 'certs.certification.added.v1', certificationFacts(cert, type))
        return toUserCertification(cert, type, today())
      })
    },

    /**
     * POST /technician/certifications/upload: a proof with its dates; creates the certification of
     * that type, or gives the one held its new proof and dates. Resolves with whether it was created.
     */
    async upload(actor: Actor, req: UploadRequest): Promise<{ created: boolean; certification: UserCertification }> {
      let replaced: string | null = null
      // Checked as the file begins, before any of it is read: whose certification it is comes in the
      // fields before the file (as forms are sent), so nobody streams 10 MB into someone else's.
      // The transaction below checks again with every field.
      const mayUpload = async (fields: ReadonlyMap<string, string[]>) => {
        const target = UploadTarget.safeParse({ user_id: fields.get('user_id')?.[0] })
        if (!target.success) throw validationFailed(target.error)
        const userId = target.data.user_id ?? actor.userId
        await orm.em.fork().transactional(async (em) => requireCompleteProfile(actor, await requireEditableUser(em, actor, userId)))
      }
      const result = await withProof(req, async ({ fields, proof }) => {
        const parsed = UploadCertificationFields.safeParse(Object.fromEntries([...fields].map(([k, v]) => [k, v[0]])))
        if (!parsed.success) throw validationFailed(parsed.error)
        assertStorableInput(parsed.data)
        const body = parsed.data
        requirePlausibleDates(body.obtained_date, body.expiration_date)
        const userId = body.user_id ?? actor.userId
        return orm.em.fork().transactional(async (em) => {
          const user = await requireEditableUser(em, actor, userId)
          requireCompleteProfile(actor, user)
          const type = await offeredType(em, body.certification_id, user)
          const at = now()
          const held = await em.findOne(TechnicianCertificationEntity, { userId, certificationId: type.id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
          const cert =
            held ??
            em.create(TechnicianCertificationEntity, {
              userId,
              certificationId: type.id,
              certificationNumber: null,
              notes: null,
              verifiedAt: null,
              createdAt: at,
              updatedAt: at,
            })
          cert.expirationDate = expirationOf(body.expiration_date, body.obtained_date, type, held)
          cert.obtainedDate = body.obtained_date
          if (body.certification_number !== null) cert.certificationNumber = body.certification_number
          if (body.notes !== null) cert.notes = body.notes
          replaced = await attachProof(em, cert, proof, at)
          await em.flush()
          recordEvent(em, held ? 'certs.certification.updated.v1' : 'certs.certification.added.v1', certificationFacts(cert, type))
          return { created: !held, certification: toUserCertification(cert, type, today()) }
        })
      }, mayUpload)
      await collect(replaced)
      return result
    },

    /** PUT /technician/certifications/{id}: number (kept when absent), dates and notes (replaced). */
    async update(actor: Actor, id: number, body: UpdateBody): Promise<UserCertification> {
      requirePlausibleDates(body.obtained_date, body.expiration_date)
      return orm.em.fork().transactional(async (em) => {
        const access = await requireReadableCertification(em, actor, id, true)
        requireEdit(access)
        const { cert } = access
        const type = await typeOf(em, cert)
        if (body.certification_number !== undefined) cert.certificationNumber = body.certification_number
        cert.expirationDate = expirationOf(body.expiration_date, body.obtained_date, type, cert)
        cert.obtainedDate = body.obtained_date
        cert.notes = body.notes
        cert.updatedAt = now()
        await em.flush()
        recordEvent(em, 'certs.certification.updated.v1', certificationFacts(cert, type))
        return toUserCertification(cert, type, today())
      })
    },

    /** POST /technician/certifications/{id}/file: replaces (or adds) the proof. */
    async replaceFile(actor: Actor, id: number, req: UploadRequest): Promise<UserCertification> {
      // Checked before the body is read: nobody streams 10 MB into a certification they may not change.
      await orm.em.fork().transactional(async (em) => requireEdit(await requireReadableCertification(em, actor, id)))
      let replaced: string | null = null
      const result = await withProof(req, ({ proof }) =>
        orm.em.fork().transactional(async (em) => {
          const access = await requireReadableCertification(em, actor, id, true)
          requireEdit(access)
          const type = await typeOf(em, access.cert)
          replaced = await attachProof(em, access.cert, proof, now())
          await em.flush()
          recordEvent(em, 'certs.certification.updated.v1', certificationFacts(access.cert, type))
          return toUserCertification(access.cert, type, today())
        }),
      )
      await collect(replaced)
      return result
    },

    /** GET /technician/certifications/{id}/file: the proof for the owner, admins and managers in scope. */
    async file(actor: Actor, id: number): Promise<ProofDownload> {
      const { cert } = await requireReadableCertification(orm.em.fork(), actor, id)
      if (!cert.fileKey) throw fileNotFound()
      const body = await storage.get(cert.fileKey).catch((err: unknown) => {
        // The row names a file storage does not have (restored database, lost volume): say so, not 500.
        logger.error('proof file missing from storage', { certificationId: id, key: cert.fileKey, err: err as Error })
        throw fileNotFound()
      })
      return { body, name: cert.fileName ?? 'proof', type: cert.fileType ?? 'application/octet-stream', size: cert.fileSize ?? null }
    },

    /** DELETE /technician/certifications/{id}/file: the owner, admins and managers in scope (learner §6). */
    async deleteFile(actor: Actor, id: number): Promise<UserCertification> {
      let removed: string | null = null
      const result = await orm.em.fork().transactional(async (em) => {
        const access = await requireReadableCertification(em, actor, id, true)
        if (!access.canDeleteFile) requireEdit(access)
        const { cert } = access
        if (!cert.fileKey) throw fileNotFound()
        removed = cert.fileKey
        await recordGarbage(em, [{ key: cert.fileKey, isPrefix: false }], new Date(0))
        cert.fileKey = null
        cert.fileName = null
        cert.fileSize = null
        cert.fileType = null
        cert.uploadedAt = null
        cert.updatedAt = now()
        const type = await typeOf(em, cert)
        await em.flush()
        recordEvent(em, 'certs.certification.updated.v1', certificationFacts(cert, type))
        return toUserCertification(cert, type, today())
      })
      await collect(removed)
      return result
    },

    /** DELETE /technician/certifications/{id}: the certification and its proof. */
    async remove(actor: Actor, id: number): Promise<{ message: string }> {
      let removed: string | null = null
      await orm.em.fork().transactional(async (em) => {
        const access = await requireReadableCertification(em, actor, id, true)
        requireEdit(access)
        const { cert } = access
        removed = cert.fileKey ?? null
        if (removed) await recordGarbage(em, [{ key: removed, isPrefix: false }], new Date(0))
        recordEvent(em, 'certs.certification.deleted.v1', { certificationId: cert.id, userId: cert.userId, certificationTypeId: cert.certificationId })
        em.remove(cert)
        await em.flush()
      })
      await collect(removed)
      return { message: 'Certification deleted' }
    },

    /** GET /technician/certifications/available/{userId}: active types for the user's department not held yet. */
    async available(actor: Actor, userId: string): Promise<z.input<typeof AvailableCertificationsResponse>> {
      const em = orm.em.fork()
      const user = await requireReadableUser(em, actor, userId)
      const held = new Set((await certificationRepository.listOf(em, userId)).map((c) => c.certificationId))
      const types = (await certificationTypeRepository.listAll(em)).filter(
        (t) => t.isActive && !held.has(t.id) && appliesToDepartment(t, user?.department ?? null),
      )
      return { certifications: types.map((t) => ({ ...toCertificationBrief(t), description: t.description ?? null })) }
    },

    /**
     * A deleted user's certifications go with them (their proofs to the garbage cleaner), each
     * announced as deleted; called in the projection's deletion transaction.
     */
    async dropUser(em: EntityManager, userId: string): Promise<void> {
      for (const cert of await certificationRepository.listOf(em, userId)) {
        if (cert.fileKey) await recordGarbage(em, [{ key: cert.fileKey, isPrefix: false }], new Date(0))
        recordEvent(em, 'certs.certification.deleted.v1', { certificationId: cert.id, userId, certificationTypeId: cert.certificationId })
      }
      await em.execute('delete from technician_certifications where user_id = ?', [userId])
      await em.execute('delete from technicians where user_id = ?', [userId])
      await revenueRepository.dropUser(em, userId)
    },
  }
}
export type CertificationService = ReturnType<typeof createCertificationService>
