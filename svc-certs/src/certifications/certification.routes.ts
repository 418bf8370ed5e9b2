import { Hono } from 'hono'
import { Readable } from 'node:stream'
import { z } from 'zod'
import {
  AddCertificationBody,
  AvailableCertificationsResponse,
  CERT_MESSAGES,
  CertificationHistoryResponse,
  CertificationRemovedResponse,
  UpdateCertificationBody,
  UploadCertificationFields,
  UserCertificationResponse,
} from '@portal/contracts'
import { authenticate, contentDisposition, doc, ownBodyLimit, uploadRequestOf, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam, UserIdParam } from '../shared/index.ts'
import type { CertificationService, ProofDownload } from './certification.service.ts'

/** `/certifications/{id}/history/{periodId}/file`. */
const PeriodParam = IdParam.extend({ periodId: IdParam.shape.id })
/** `?download=1` serves a proof as an attachment (read by hand: any other value is inline). */
const ProofQuery = z.object({ download: z.string().optional() })

/** A proof as it is served: inline with its type, or (`?download=1`) as an attachment, under a name safe to save. */
function proofResponse(proof: ProofDownload, query: string | undefined): Response {
  const download = query === '1' || query === 'true'
  const headers: Record<string, string> = {
    'Content-Type': proof.type,
    // The name given, made safe to save: the stored type's extension, no control or bidi characters.
    'Content-Disposition': contentDisposition(download ? 'attachment' : 'inline', proof.name, proof.type, 'proof'),
    // A proof is someone's document: kept out of shared caches, never sniffed into another type.
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  }
  if (proof.size !== null) headers['Content-Length'] = String(proof.size)
  return new Response(Readable.toWeb(proof.body) as ReadableStream, { status: 200, headers })
}

const tags = ['Certifications']
const roles = 'the technician themself, an admin, or a manager whose scope covers them'
const editors = 'the technician themself or an admin'
const proof = { media: 'application/octet-stream', description: 'The proof, with its stored type (a PDF or an image); `?download=1` as an attachment' }
const upload = { media: 'multipart/form-data', schema: UploadCertificationFields, description: 'The fields, and the proof in `file` (PDF, JPEG or PNG)' }

/** `/technician/certifications/...`: a technician's certifications and proofs (learner §5, §7), and their earlier periods (decision 0044). */
export const certificationRoutes = (svc: CertificationService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .post(
      '/certifications/add',
      doc({ summary: 'Adds a certification held (without a proof)', tags, roles: editors, responses: { 201: UserCertificationResponse, 404: null, 409: null } }),
      validate('json', AddCertificationBody),
      async (c) => c.json({ message: CERT_MESSAGES.added, certification: await svc.add(c.get('actor'), c.req.valid('json')) }, 201),
    )
    // Proof uploads enforce their own body limit while streaming.
    .post(
      '/certifications/upload',
      doc({
        summary: 'Adds a certification with its proof, or the proof to the one held',
        tags,
        roles: editors,
        body: upload,
        responses: { 200: UserCertificationResponse, 201: UserCertificationResponse, 404: null, 409: null, 413: null },
      }),
      ownBodyLimit,
      async (c) => {
        const { created, certification } = await svc.upload(c.get('actor'), uploadRequestOf(c))
        return c.json({ message: CERT_MESSAGES.uploaded, certification }, created ? 201 : 200)
      },
    )
    .get(
      '/certifications/available/:userId',
      doc({ summary: 'The certification types a technician may add', tags, roles, responses: { 200: AvailableCertificationsResponse, 404: null } }),
      validate('param', UserIdParam),
      async (c) => c.json(await svc.available(c.get('actor'), c.req.valid('param').userId)),
    )
    .put(
      '/certifications/:id{[0-9]+}',
      doc({ summary: "Edits a held certification's details", tags, roles: editors, responses: { 200: UserCertificationResponse, 404: null } }),
      validate('param', IdParam),
      validate('json', UpdateCertificationBody),
      async (c) => c.json({ message: 'Certification updated', certification: await svc.update(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .delete(
      '/certifications/:id{[0-9]+}',
      doc({ summary: 'Deletes a held certification (its history is kept)', tags, roles: editors, responses: { 200: CertificationRemovedResponse, 404: null } }),
      validate('param', IdParam),
      async (c) => c.json(await svc.remove(c.get('actor'), c.req.valid('param').id)),
    )
    .post(
      '/certifications/:id{[0-9]+}/file',
      doc({
        summary: "Replaces a certification's proof",
        tags,
        roles: editors,
        body: { media: 'multipart/form-data', description: 'The proof in `file` (PDF, JPEG or PNG)' },
        responses: { 200: UserCertificationResponse, 404: null, 413: null },
      }),
      ownBodyLimit,
      validate('param', IdParam),
      async (c) => c.json({ message: CERT_MESSAGES.uploaded, certification: await svc.replaceFile(c.get('actor'), c.req.valid('param').id, uploadRequestOf(c)) }),
    )
    .delete(
      '/certifications/:id{[0-9]+}/file',
      doc({ summary: "Deletes a certification's proof", tags, roles: editors, responses: { 200: UserCertificationResponse, 404: null } }),
      validate('param', IdParam),
      async (c) => c.json({ message: 'File deleted', certification: await svc.deleteFile(c.get('actor'), c.req.valid('param').id) }),
    )
    .get(
      '/certifications/:id{[0-9]+}/file',
      doc({ summary: "A certification's proof", tags, roles, query: ProofQuery, responses: { 200: proof, 404: null } }),
      validate('param', IdParam),
      async (c) => proofResponse(await svc.file(c.get('actor'), c.req.valid('param').id), c.req.query('download')),
    )
    // The earlier periods kept by renewals, replaced proofs and deletions (issue 23), and their proofs.
    .get(
      '/certifications/:id{[0-9]+}/history',
      doc({ summary: "A certification's earlier periods", tags, roles, responses: { 200: CertificationHistoryResponse, 404: null } }),
      validate('param', IdParam),
      async (c) => c.json(await svc.history(c.get('actor'), c.req.valid('param').id)),
    )
    .get(
      '/certifications/:id{[0-9]+}/history/:periodId{[0-9]+}/file',
      doc({ summary: "An earlier period's proof", tags, roles, query: ProofQuery, responses: { 200: proof, 404: null } }),
      validate('param', PeriodParam),
      async (c) => {
        const { id, periodId } = c.req.valid('param')
        return proofResponse(await svc.periodFile(c.get('actor'), id, periodId), c.req.query('download'))
      },
    )
