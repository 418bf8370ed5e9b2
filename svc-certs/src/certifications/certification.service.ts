import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql'
import { z } from 'zod'
import {
  AddCertificationBody,
  CERT_MESSAGES,
  UpdateCertificationBody,
  UploadCertificationFields,
  computeExpiration,
  renewedExpiration,
  type AvailableCertificationsResponse,
  type CertificationHistoryResponse,
  type PeriodEndReason,
  type UserCertification,
} from '@portal/contracts'
import {
  AppError,
  badRequest,
  conflict,
  forgetGarbage,
  assertStorableInput,
  auditTrail,
  notFound,
  projectedUsers,
  recordEvent,
  recordGarbage,
  validationFailed,
  type Actor,
  type ProjectedUser,
  type UploadRequest,
} from '@portal/server-kit'
import { type CertificationTypeEntity, certificationTypeRepository, toCertificationBrief, typeNotFound } from '../certification-types/index.ts'
import type { CertsContext } from '../context.ts'
import { revenueRepository } from '../revenue/index.ts'
import { appliesToDepartment } from '../compliance/index.ts'
import { requireCompleteProfile, requireEdit, requireEditableUser, requireReadableCertification, requireReadableHistory, requireReadableUser } from './access.ts'
import { CertificationPeriodEntity, TechnicianCertificationEntity } from './certification.entity.ts'
import { certificationFacts, certificationRepository, toCertificationPeriod, toUserCertification } from './certification.repository.ts'
import { receiveProof, type ReceivedProof } from './proof-file.ts'
import { buildCompletionCertificate, completionCertificateName } from './completion-certificate.ts'

type AddBody = z.output<typeof AddCertificationBody>
type UpdateBody = z.output<typeof UpdateCertificationBody>

const unavailable = (message: string) => badRequest(message, 'certification_unavailable')
/** The field of an upload that names whose certification it is. */
const UploadTarget = z.object({ user_id: UploadCertificationFields.shape.user_id })

/** The date fields of a certification, as the forms name them. */
const DATE_LABELS = { obtained_date: 'Obtained date', expiration_date: 'Expiration date' } as const
type DateField = keyof typeof DATE_LABELS

/** 400 naming `field` in the error shape's details, as a failed validation does. */
const fieldError = (field: string, message: string, code: string) => badRequest(message, code, { details: [{ path: field, message }] })

/** How far from today a certification's dates may lie: further is a typo (issue 23), and past it PostgreSQL and the validity arithmetic stay safe. */
const PLAUSIBLE_YEARS = 100
/** `date` moved by whole years (the day clamped at the month's end). */
const yearsFrom = (date: string, years: number) => computeExpiration(date, years * 12)!

/** 400 `date_out_of_range` naming the first date given more than 100 years from `today`. */
function requirePlausibleDates(today: string, dates: Partial<Record<DateField, string | null>>) {
  const earliest = yearsFrom(today, -PLAUSIBLE_YEARS)
  const latest = yearsFrom(today, PLAUSIBLE_YEARS)
  for (const field of Object.keys(DATE_LABELS) as DateField[]) {
    const d = dates[field]
    if (d && (d < earliest || d > latest))
      throw fieldError(field, `${DATE_LABELS[field]} must be within ${PLAUSIBLE_YEARS} years of today (${earliest} to ${latest})`, 'date_out_of_range')
  }
}
const changedMeanwhile = () => conflict(CERT_MESSAGES.changedMeanwhile, 'certification_changed')

/** Where a certification row is: by id, or as the technician's certification of a type. */
type RowKey = { id: number } | { userId: string; certificationId: number }

/**
 * The row's version as a request found it: PostgreSQL's `xmin`, which every update of the row
 * renews (null: no such row). Taken before the row is locked and compared once it is, it tells
 * that a concurrent request changed the row meanwhile (decision 0044).
 */
const versionOf = (em: EntityManager, key: RowKey) => certificationRepository.version(em, key)

/** 409 `certification_changed` unless the (locked) row is as the request first found it. */
async function requireUnchanged(em: EntityManager, key: RowKey, seen: string | null) {
  if ((await versionOf(em, key)) !== seen) throw changedMeanwhile()
}

/** The audit trail's action for a period kept for each reason. */
const PERIOD_ACTIONS: Record<PeriodEndReason, string> = {
  renewed: 'certification.renewed',
  replaced: 'certification.proof_replaced',
  deleted: 'certification.deleted',
}
const uploadExpired = () => new AppError(409, 'upload_expired', 'The upload took too long; please upload the file again')
const fileNotFound = () => notFound(CERT_MESSAGES.fileNotFound, 'file_not_found')

/** A completion that renews a certification type (issue 24): whose, what and when. */
export interface CompletionRenewal {
  /** The learner, from the projection (share-locked by the caller's transaction). */
  user: ProjectedUser
  certificationTypeId: number
  item: { item_kind: 'course' | 'exam'; item_id: number; item_title: string }
  /** The company's calendar day of the completion: the new period's obtained date. */
  day: string
  /** The completion record the certificate names (the exam attempt, the course completion's event). */
  recordId: string
  /** Where the certificate is stored: recorded as garbage before, forgotten when it becomes the proof. */
  key: string
}

/** What a completion did to a certification: recorded (added, renewed, or the day's period given its proof), or why not. */
export type CompletionOutcome = { recorded: true; change: 'added' | 'renewed' | 'proof_added'; certificationId: number } | { recorded: false; reason: string }

/** A proof file as it is served. */
export interface ProofDownload {
  body: Readable
  name: string
  type: string
  size: number | null
}

/**
 * Technicians' certifications and their proofs (learner §3, §5, §7): add, upload, edit, replace,
 * view, download and delete, each after the access check of `certifications/access.ts`, each change
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
    await certificationTypeRepository.shareLock(em, certificationId)
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
   * What a change with obtained date `obtained` does to the current period (decision 0044): a
   * later date than the period's renews it; the same date (or none on either side) corrects it. An
   * earlier date is refused (400 naming `obtained_date`) once the period is on record (it has a
   * proof, or earlier periods of it are kept); before that it corrects the date it was added with.
   */
  const periodChange = (cert: TechnicianCertificationEntity, obtained: string | null, history: CertificationPeriodEntity[]): 'renewal' | 'correction' => {
    const current = cert.obtainedDate ?? null
    if (!obtained || !current || obtained === current) return 'correction'
    if (obtained > current) return 'renewal'
    const onRecord = Boolean(cert.fileKey) || history.some((p) => p.technicianCertificationId === cert.id)
    if (!onRecord) return 'correction'
    throw fieldError('obtained_date', `Obtained date cannot be before the current period's (${current}): a renewal starts after it`, 'obtained_before_current_period')
  }

  /**
   * Keeps the certification's current period as history (issue 23 item 4): its dates, number,
   * notes, proof (the file stays in storage: the period refers to it) and verification, when and
   * by whom it ended and why. Flushed with the change that ends it.
   */
  const keepPeriod = async (em: EntityManager, actor: Actor, cert: TechnicianCertificationEntity, type: CertificationTypeEntity, reason: PeriodEndReason, at: Date) => {
    const endedByName = (await projectedUsers.findAny(em, actor.userId))?.name || actor.name || actor.email || actor.userId
    return em.create(CertificationPeriodEntity, {
      technicianCertificationId: cert.id,
      userId: cert.userId,
      certificationId: cert.certificationId,
      certificationCode: type.code,
      certificationName: type.name,
      certificationNumber: cert.certificationNumber ?? null,
      obtainedDate: cert.obtainedDate ?? null,
      expirationDate: cert.expirationDate ?? null,
      notes: cert.notes ?? null,
      fileKey: cert.fileKey ?? null,
      fileName: cert.fileName ?? null,
      fileSize: cert.fileSize ?? null,
      fileType: cert.fileType ?? null,
      uploadedAt: cert.uploadedAt ?? null,
      verifiedAt: cert.verifiedAt ?? null,
      endedAt: at,
      endedById: actor.userId,
      endedByName,
      reason,
    })
  }

  /** The audit trail's entry of a kept period: who ended it, whose it was, and the ids its history is found by. */
  const auditPeriod = (
    em: EntityManager,
    actor: Actor,
    ownerName: string | null | undefined,
    type: CertificationTypeEntity,
    period: CertificationPeriodEntity,
    next: Record<string, unknown> = {},
  ) =>
    auditTrail.record(em, actor, PERIOD_ACTIONS[period.reason], `${ownerName || period.userId}: ${type.code}`, {
      user_id: period.userId,
      user_certification_id: period.technicianCertificationId,
      certification_id: period.certificationId,
      period_id: period.id,
      obtained_date: period.obtainedDate ?? null,
      expiration_date: period.expirationDate ?? null,
      file_name: period.fileName ?? null,
      ...next,
    })

  /** The row's proof let go of (a renewal's new period starts without one; the old one is kept with its period). */
  const clearProof = (cert: TechnicianCertificationEntity) => {
    cert.fileKey = null
    cert.fileName = null
    cert.fileSize = null
    cert.fileType = null
    cert.uploadedAt = null
  }

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

  /** Sets the proof on the row; the one it replaces must have been kept with its period first. */
  const attachProof = async (em: EntityManager, cert: TechnicianCertificationEntity, proof: ReceivedProof, at: Date): Promise<void> => {
    cert.fileKey = proof.key
    cert.fileName = proof.name
    cert.fileSize = proof.size
    cert.fileType = proof.type
    cert.uploadedAt = at
    cert.updatedAt = at
    if (!(await forgetGarbage(em, proof.key))) throw uploadExpired()
  }

  /** Flushes, telling a certification created meanwhile by a concurrent request (the unique key) as such. */
  const flushCertification = async (em: EntityManager) => {
    try {
      await em.flush()
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw changedMeanwhile()
      throw err
    }
  }

  const collect = async (key: string | null) => {
    if (key) await ctx.garbage.collect([key]).catch((err: unknown) => logger.warn('deleted proof not removed yet', { key, err: err as Error }))
  }

  /** A stored proof as it is served; a key storage does not have is a logged 404, not a 500. */
  const proofDownload = async (
    key: string,
    f: { fileName?: string | null; fileType?: string | null; fileSize?: number | null },
    where: { certificationId: number; periodId?: number },
  ): Promise<ProofDownload> => {
    const body = await storage.get(key).catch((err: unknown) => {
      // The row names a file storage does not have (restored database, lost volume): say so, not 500.
      logger.error('proof file missing from storage', { ...where, key, err: err as Error })
      throw fileNotFound()
    })
    return { body, name: f.fileName ?? 'proof', type: f.fileType ?? 'application/octet-stream', size: f.fileSize ?? null }
  }

  return {
    /** POST /technician/certifications/add (learner §5). */
    async add(actor: Actor, body: AddBody): Promise<UserCertification> {
      const userId = body.user_id ?? actor.userId
      requirePlausibleDates(today(), body)
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
        await flushCertification(em)
        recordEvent(em, 'certs.certification.added.v1', certificationFacts(cert, type))
        // Added again after a deletion: the history kept then shows with it.
        return toUserCertification(cert, type, today(), await certificationRepository.historyOf(em, userId, type.id))
      })
    },

    /**
     * POST /technician/certifications/upload: a proof with its dates; creates the certification of
     * that type, or gives the one held its new proof and dates: a later obtained date renews it, the
     * same one replaces the proof of the current period, and either keeps the period or proof it
     * ends as history (decision 0044). Resolves with whether it was created.
     */
    async upload(actor: Actor, req: UploadRequest): Promise<{ created: boolean; certification: UserCertification }> {
      // The held certification as the upload began: a change made while the file streams in is a concurrent one.
      let seenAtStart: { key: string; version: string | null } | null = null
      // Checked as the file begins, before any of it is read: whose certification it is comes in the
      // fields before the file (as forms are sent), so nobody streams 10 MB into someone else's.
      // The transaction below checks again with every field.
      const mayUpload = async (fields: ReadonlyMap<string, string[]>) => {
        const target = UploadTarget.safeParse({ user_id: fields.get('user_id')?.[0] })
        if (!target.success) throw validationFailed(target.error)
        const userId = target.data.user_id ?? actor.userId
        const typeId = Number(fields.get('certification_id')?.[0])
        await orm.em.fork().transactional(async (em) => {
          requireCompleteProfile(actor, await requireEditableUser(em, actor, userId))
          if (Number.isSafeInteger(typeId) && typeId > 0 && typeId <= 2_147_483_647)
            seenAtStart = { key: `${userId}/${typeId}`, version: await versionOf(em, { userId, certificationId: typeId }) }
        })
      }
      return withProof(
        req,
        async ({ fields, proof }) => {
          const parsed = UploadCertificationFields.safeParse(Object.fromEntries([...fields].map(([k, v]) => [k, v[0]])))
          if (!parsed.success) throw validationFailed(parsed.error)
          assertStorableInput(parsed.data)
          const body = parsed.data
          requirePlausibleDates(today(), body)
          const userId = body.user_id ?? actor.userId
          return orm.em.fork().transactional(async (em) => {
            const user = await requireEditableUser(em, actor, userId)
            requireCompleteProfile(actor, user)
            const type = await offeredType(em, body.certification_id, user)
            const key = { userId, certificationId: type.id }
            const seen = seenAtStart as { key: string; version: string | null } | null
            const version = seen?.key === `${userId}/${type.id}` ? seen.version : await versionOf(em, key)
            const held = await em.findOne(TechnicianCertificationEntity, key, { lockMode: LockMode.PESSIMISTIC_WRITE })
            await requireUnchanged(em, key, version)
            const history = await certificationRepository.historyOf(em, userId, type.id)
            const at = now()
            let kept: CertificationPeriodEntity | null = null
            if (held && periodChange(held, body.obtained_date, history) === 'renewal') {
              kept = await keepPeriod(em, actor, held, type, 'renewed', at)
              held.verifiedAt = null
            } else if (held?.fileKey) kept = await keepPeriod(em, actor, held, type, 'replaced', at)
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
            await attachProof(em, cert, proof, at)
            await flushCertification(em)
            if (kept)
              await auditPeriod(
                em,
                actor,
                user?.name,
                type,
                kept,
                kept.reason === 'renewed' ? { new_obtained_date: cert.obtainedDate ?? null, new_expiration_date: cert.expirationDate ?? null } : {},
              )
            recordEvent(em, held ? 'certs.certification.updated.v1' : 'certs.certification.added.v1', certificationFacts(cert, type))
            return { created: !held, certification: toUserCertification(cert, type, today(), kept ? [kept, ...history] : history) }
          })
        },
        mayUpload,
      )
    },

    /**
     * PUT /technician/certifications/{id}: number (kept when absent), dates and notes (replaced). A
     * later obtained date renews: the period it ends is kept as history, its proof with it, and the
     * new period waits for its own proof; the same date corrects the current period in place.
     */
    async update(actor: Actor, id: number, body: UpdateBody): Promise<UserCertification> {
      requirePlausibleDates(today(), body)
      return orm.em.fork().transactional(async (em) => {
        const seen = await versionOf(em, { id })
        const access = await requireReadableCertification(em, actor, id, true)
        requireEdit(access)
        await requireUnchanged(em, { id }, seen)
        const { cert } = access
        const type = await typeOf(em, cert)
        const history = await certificationRepository.historyOf(em, cert.userId, cert.certificationId)
        const at = now()
        const renewal = periodChange(cert, body.obtained_date, history) === 'renewal'
        const kept = renewal ? await keepPeriod(em, actor, cert, type, 'renewed', at) : null
        if (renewal) {
          clearProof(cert)
          cert.verifiedAt = null
        }
        if (body.certification_number !== undefined) cert.certificationNumber = body.certification_number
        cert.expirationDate = expirationOf(body.expiration_date, body.obtained_date, type, cert)
        cert.obtainedDate = body.obtained_date
        cert.notes = body.notes
        cert.updatedAt = at
        await em.flush()
        if (kept) await auditPeriod(em, actor, access.owner?.name, type, kept, { new_obtained_date: cert.obtainedDate ?? null, new_expiration_date: cert.expirationDate ?? null })
        recordEvent(em, 'certs.certification.updated.v1', certificationFacts(cert, type))
        return toUserCertification(cert, type, today(), kept ? [kept, ...history] : history)
      })
    },

    /** POST /technician/certifications/{id}/file: replaces (or adds) the proof; a replaced proof is kept with the period (`replaced`). */
    async replaceFile(actor: Actor, id: number, req: UploadRequest): Promise<UserCertification> {
      // Checked before the body is read: nobody streams 10 MB into a certification they may not change.
      const seen = await orm.em.fork().transactional(async (em) => {
        requireEdit(await requireReadableCertification(em, actor, id))
        return versionOf(em, { id })
      })
      return withProof(req, ({ proof }) =>
        orm.em.fork().transactional(async (em) => {
          const access = await requireReadableCertification(em, actor, id, true)
          requireEdit(access)
          await requireUnchanged(em, { id }, seen)
          const { cert } = access
          const type = await typeOf(em, cert)
          const history = await certificationRepository.historyOf(em, cert.userId, cert.certificationId)
          const at = now()
          const kept = cert.fileKey ? await keepPeriod(em, actor, cert, type, 'replaced', at) : null
          await attachProof(em, cert, proof, at)
          await em.flush()
          if (kept) await auditPeriod(em, actor, access.owner?.name, type, kept)
          recordEvent(em, 'certs.certification.updated.v1', certificationFacts(cert, type))
          return toUserCertification(cert, type, today(), kept ? [kept, ...history] : history)
        }),
      )
    },

    /** GET /technician/certifications/{id}/file: the proof for the owner, admins and managers in scope. */
    async file(actor: Actor, id: number): Promise<ProofDownload> {
      const { cert } = await requireReadableCertification(orm.em.fork(), actor, id)
      if (!cert.fileKey) throw fileNotFound()
      return proofDownload(cert.fileKey, cert, { certificationId: id })
    },

    /**
     * GET /technician/certifications/{id}/history: the earlier periods of its type for its
     * technician, newest first, for whoever may read the certification (also once it was deleted).
     */
    async history(actor: Actor, id: number): Promise<CertificationHistoryResponse> {
      const em = orm.em.fork()
      const readable = await requireReadableHistory(em, actor, id)
      const [periods, type] = await Promise.all([
        certificationRepository.historyOf(em, readable.userId, readable.certificationId),
        certificationTypeRepository.findById(em, readable.certificationId),
      ])
      return {
        user_id: readable.userId,
        user_certification_id: id,
        certification_id: readable.certificationId,
        name: type?.name ?? periods[0]?.certificationName ?? '',
        code: type?.code ?? periods[0]?.certificationCode ?? '',
        held: readable.cert !== null,
        history: periods.map(toCertificationPeriod),
      }
    },

    /** GET /technician/certifications/{id}/history/{periodId}/file: an earlier period's proof, for whoever may read the history. */
    async periodFile(actor: Actor, id: number, periodId: number): Promise<ProofDownload> {
      const em = orm.em.fork()
      await requireReadableHistory(em, actor, id)
      const period = await em.findOne(CertificationPeriodEntity, { id: periodId, technicianCertificationId: id })
      if (!period) throw notFound('No such earlier period of this certification', 'period_not_found')
      if (!period.fileKey) throw fileNotFound()
      return proofDownload(period.fileKey, period, { certificationId: id, periodId })
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
        clearProof(cert)
        cert.updatedAt = now()
        const type = await typeOf(em, cert)
        await em.flush()
        recordEvent(em, 'certs.certification.updated.v1', certificationFacts(cert, type))
        return toUserCertification(cert, type, today())
      })
      await collect(removed)
      return result
    },

    /**
     * DELETE /technician/certifications/{id}: the certification leaves the profile and every figure;
     * its last period, proof included, is kept as its history for the audit trail (decision 0044).
     */
    async remove(actor: Actor, id: number): Promise<{ message: string; history_path: string }> {
      await orm.em.fork().transactional(async (em) => {
        const seen = await versionOf(em, { id })
        const access = await requireReadableCertification(em, actor, id, true)
        requireEdit(access)
        await requireUnchanged(em, { id }, seen)
        const { cert } = access
        const type = await typeOf(em, cert)
        const kept = await keepPeriod(em, actor, cert, type, 'deleted', now())
        recordEvent(em, 'certs.certification.deleted.v1', { certificationId: cert.id, userId: cert.userId, certificationTypeId: cert.certificationId })
        em.remove(cert)
        await em.flush()
        await auditPeriod(em, actor, access.owner?.name, type, kept)
      })
      return { message: CERT_MESSAGES.deleted, history_path: `/technician/certifications/${id}/history` }
    },

    /** GET /technician/certifications/available/{userId}: active types for the user's department not held yet. */
    async available(actor: Actor, userId: string): Promise<z.input<typeof AvailableCertificationsResponse>> {
      const em = orm.em.fork()
      const user = await requireReadableUser(em, actor, userId)
      const held = new Set((await certificationRepository.listOf(em, userId)).map((c) => c.certificationId))
      const types = (await certificationTypeRepository.listAll(em)).filter((t) => t.isActive && !held.has(t.id) && appliesToDepartment(t, user?.department ?? null))
      return { certifications: types.map((t) => ({ ...toCertificationBrief(t), description: t.description ?? null })) }
    },

    /**
     * A completion of a course or exam that renews the type (issue 24), in the completion
     * consumer's transaction `em`: records a new period of the learner's certification as an upload
     * with that obtained date would (decision 0044): added when not held; renewed when held with an
     * earlier obtained date, the ended period kept as history and the expiry by the type's validity
     * (`renewedExpiration`: from the old expiry within the recertification window); the day's period
     * given its proof when it has none. The proof is a generated "Certificate of Completion" PDF,
     * stored at `key`. Nothing happens for an inactive type, one for another department, a period
     * that already starts later, or one of that day that has a proof (a completion is no reason to
     * replace a proof someone uploaded).
     */
    async renewByCompletion(em: EntityManager, c: CompletionRenewal): Promise<CompletionOutcome> {
      await certificationTypeRepository.shareLock(em, c.certificationTypeId)
      const type = await certificationTypeRepository.findById(em, c.certificationTypeId)
      if (!type?.isActive) return { recorded: false, reason: 'the certification type is no longer offered' }
      if (!appliesToDepartment(type, c.user.department ?? null)) return { recorded: false, reason: `the certification is for the ${type.department} department` }
      const key = { userId: c.user.id, certificationId: type.id }
      const held = await em.findOne(TechnicianCertificationEntity, key, { lockMode: LockMode.PESSIMISTIC_WRITE })
      const current = held?.obtainedDate ?? null
      if (current !== null && c.day < current) return { recorded: false, reason: `the current period starts later (${current})` }
      if (held && current === c.day && held.fileKey) return { recorded: false, reason: 'the period of that day has its proof already' }
      // The learner's own completion renews it: they are who ended the period (and the audit trail's actor).
      const actor: Actor = {
        userId: c.user.id,
        email: c.user.email ?? '',
        name: c.user.name ?? '',
        isAdmin: false,
        isManager: false,
        managerScope: { branches: [], departments: [] },
      }
      const history = await certificationRepository.historyOf(em, c.user.id, type.id)
      const at = now()
      let kept: CertificationPeriodEntity | null = null
      if (held && periodChange(held, c.day, history) === 'renewal') {
        kept = await keepPeriod(em, actor, held, type, 'renewed', at)
        held.verifiedAt = null
      } else if (held?.fileKey) kept = await keepPeriod(em, actor, held, type, 'replaced', at)
      const cert =
        held ??
        em.create(TechnicianCertificationEntity, {
          userId: c.user.id,
          certificationId: type.id,
          certificationNumber: null,
          notes: null,
          verifiedAt: null,
          createdAt: at,
          updatedAt: at,
        })
      cert.expirationDate = expirationOf(null, c.day, type, held)
      cert.obtainedDate = c.day
      const pdf = buildCompletionCertificate({
        learner: c.user.name ?? c.user.email ?? c.user.id,
        itemKind: c.item.item_kind,
        itemTitle: c.item.item_title,
        completedOn: c.day,
        certification: { name: type.name, code: type.code },
        expiresOn: cert.expirationDate ?? null,
        recordId: c.recordId,
      })
      const stored = await storage.put(c.key, Readable.from([pdf]))
      await attachProof(em, cert, { key: c.key, name: completionCertificateName(type.code, c.day), size: stored.size, type: 'application/pdf' }, at)
      await flushCertification(em)
      if (kept)
        await auditPeriod(em, actor, c.user.name, type, kept, {
          ...(kept.reason === 'renewed' ? { new_obtained_date: cert.obtainedDate ?? null, new_expiration_date: cert.expirationDate ?? null } : {}),
          renewed_by: c.item,
          completion_record: c.recordId,
        })
      recordEvent(em, held ? 'certs.certification.updated.v1' : 'certs.certification.added.v1', certificationFacts(cert, type))
      return { recorded: true, change: !held ? 'added' : kept?.reason === 'renewed' ? 'renewed' : 'proof_added', certificationId: cert.id }
    },

    /**
     * A deleted user's certifications and their history go with them (their proofs to the garbage
     * cleaner), each certification announced as deleted; called in the projection's deletion transaction.
     */
    async dropUser(em: EntityManager, userId: string): Promise<void> {
      for (const cert of await certificationRepository.listOf(em, userId)) {
        if (cert.fileKey) await recordGarbage(em, [{ key: cert.fileKey, isPrefix: false }], new Date(0))
        recordEvent(em, 'certs.certification.deleted.v1', { certificationId: cert.id, userId, certificationTypeId: cert.certificationId })
      }
      // Their kept history goes too: a deleted user's records are not kept (the audit trail keeps its entries).
      for (const period of await certificationRepository.historiesOf(em, userId))
        if (period.fileKey) await recordGarbage(em, [{ key: period.fileKey, isPrefix: false }], new Date(0))
      await certificationRepository.dropHolder(em, userId)
      await revenueRepository.dropUser(em, userId)
    },
  }
}
export type CertificationService = ReturnType<typeof createCertificationService>
