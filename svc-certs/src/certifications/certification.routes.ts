import { Hono } from 'hono'
import { Readable } from 'node:stream'
import { AddCertificationBody, CERT_MESSAGES, UpdateCertificationBody } from '@portal/contracts'
import { authenticate, contentDisposition, ownBodyLimit, uploadRequestOf, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../certification-types/certification-type.routes.ts'
import { UserIdParam } from '../technicians/technician.routes.ts'
import type { CertificationService } from './certification.service.ts'

/** `/technician/certifications/...`: a technician's certifications and proofs (learner §5, §7). */
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
    .get('/certifications/available/:userId', validate('param', UserIdParam), async (c) =>
      c.json(await svc.available(c.get('actor'), c.req.valid('param').userId)),
    )
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
    .get('/certifications/:id{[0-9]+}/file', validate('param', IdParam), async (c) => {
      const proof = await svc.file(c.get('actor'), c.req.valid('param').id)
      const download = c.req.query('download') === '1' || c.req.query('download') === 'true'
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
    })
