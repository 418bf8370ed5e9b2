import { Hono } from 'hono'
import { CertificationTypeInput, TierRequirementInput, type CertificationsOverview, type ConsistencyReport } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type Actor, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../shared/index.ts'
import type { CertificationTypeService } from './certification-type.service.ts'

/** What the admin routes ask of the ledger's figures (the technicians' service gives them). */
export interface LedgerFigures {
  overview(): Promise<CertificationsOverview>
  consistency(actor: Actor): Promise<ConsistencyReport>
}

/** `/admin/certifications`: types, tier requirements and the compliance overview (admins only). */
export const adminCertificationRoutes = (types: CertificationTypeService, technicians: LedgerFigures, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', async (c) => c.json({ certifications: await types.list() }))
    .post('/', validate('json', CertificationTypeInput), async (c) => c.json({ certification: await types.create(c.get('actor'), c.req.valid('json')) }, 201))
    .get('/overview', async (c) => c.json(await technicians.overview()))
    .get('/consistency', async (c) => c.json(await technicians.consistency(c.get('actor'))))
    .get('/tier-requirements', async (c) => c.json({ requirements: await types.requirements() }))
    .put('/tier-requirements', validate('json', TierRequirementInput), async (c) => c.json({ requirements: await types.putRequirement(c.get('actor'), c.req.valid('json')) }))
    .delete('/tier-requirements/:id{[0-9]+}', validate('param', IdParam), async (c) =>
      c.json({ requirements: await types.removeRequirement(c.get('actor'), c.req.valid('param').id) }),
    )
    .put('/:id{[0-9]+}', validate('param', IdParam), validate('json', CertificationTypeInput), async (c) =>
      c.json({ certification: await types.update(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .delete('/:id{[0-9]+}', validate('param', IdParam), async (c) => c.json(await types.remove(c.get('actor'), c.req.valid('param').id)))
