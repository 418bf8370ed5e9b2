import { Hono } from 'hono'
import { Readable } from 'node:stream'
import { AddCertificationBody, CERT_MESSAGES, UpdateCertificationBody } from '@portal/contracts'
import { authenticate, contentDisposition, ownBodyLimit, uploadRequestOf, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam, UserIdParam } from '../shared/index.ts'
import type { CertificationService, ProofDownload } from './certification.service.ts'

/** `/certifications/{id}/history/{periodId}/file`. */
const PeriodParam = IdParam.extend({ periodId: IdParam.shape.id })

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

/** `/technician/certifications/...`: a technician's certifications and proofs (learner §5, §7), and their earlier periods (decision 0044). */
export const certificationRoutes = (svc: CertificationService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier))
    .post('/certifications/add', validate('json', AddCertificationBody), async (c) =>
      c.json({ message: CERT_MESSAGES.added, certification: await svc.add(c.get('actor'), c.req.valid('json')) }, 201),
    )
    // Proof uploads enforce their own body limit while streaming.
    .post('/certifications/upload', ownBodyLimit, async (c) => {
      const { created, certification } = await svc.upload(c.get('actor'), uploadRequestOf(c))
      return c.json({ message: CERT_MESSAGES.uploaded, certification }, created ? 201 : 200)
    })
    .get('/certifications/available/:userId', validate('param', UserIdParam), async (c) => c.json(await svc.available(c.get('actor'), c.req.valid('param').userId)))
    .put('/certifications/:id{[0-9]+}', validate('param', IdParam), validate('json', UpdateCertificationBody), async (c) =>
      c.json({ message: 'Certification updated', certification: await svc.update(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .delete('/certifications/:id{[0-9]+}', validate('param', IdParam), async (c) => c.json(await svc.remove(c.get('actor'), c.req.valid('param').id)))
    .post('/certifications/:id{[0-9]+}/file', ownBodyLimit, validate('param', IdParam), async (c) =>
      c.json({ message: CERT_MESSAGES.uploaded, certification: await svc.replaceFile(c.get('actor'), c.req.valid('param').id, uploadRequestOf(c)) }),
    )
    .delete('/certifications/:id{[0-9]+}/file', validate('param', IdParam), async (c) =>
      c.json({ message: 'File deleted', certification: await svc.deleteFile(c.get('actor'), c.req.valid('param').id) }),
    )
    .get('/certifications/:id{[0-9]+}/file', validate('param', IdParam), async (c) =>
      proofResponse(await svc.file(c.get('actor'), c.req.valid('param').id), c.req.query('download')),
    )
    // The earlier periods kept by renewals, replaced proofs and deletions (issue 23), and their proofs.
    .get('/certifications/:id{[0-9]+}/history', validate('param', IdParam), async (c) => c.json(await svc.history(c.get('actor'), c.req.valid('param').id)))
    .get('/certifications/:id{[0-9]+}/history/:periodId{[0-9]+}/file', validate('param', PeriodParam), async (c) => {
      const { id, periodId } = c.req.valid('param')
      return proofResponse(await svc.periodFile(c.get('actor'), id, periodId), c.req.query('download'))
    })
