import { Hono } from 'hono'
import {
  CertificationsOverview,
  CertificationTypeInput,
  CertificationTypeResponse,
  CertificationTypesResponse,
  ConsistencyReport,
  MessageResponse,
  TierRequirementInput,
  TierRequirementsResponse,
} from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type Actor, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../shared/index.ts'
import type { CertificationTypeService } from './certification-type.service.ts'

/** What the admin routes ask of the ledger's figures (the technicians' service gives them). */
export interface LedgerFigures {
  overview(): Promise<CertificationsOverview>
  consistency(actor: Actor): Promise<ConsistencyReport>
}

const tags = ['Certification types']

/** `/admin/certifications`: types, tier requirements and the compliance overview (admins only). */
export const adminCertificationRoutes = (types: CertificationTypeService, technicians: LedgerFigures, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', doc({ summary: 'The certification types', tags, responses: { 200: CertificationTypesResponse } }), async (c) => c.json({ certifications: await types.list() }))
    .post('/', doc({ summary: 'Adds a certification type', tags, responses: { 201: CertificationTypeResponse, 409: null } }), validate('json', CertificationTypeInput), async (c) =>
      c.json({ certification: await types.create(c.get('actor'), c.req.valid('json')) }, 201),
    )
    .get('/overview', doc({ summary: 'Compliance overview of all technicians', tags, responses: { 200: CertificationsOverview } }), async (c) =>
      c.json(await technicians.overview()),
    )
    .get('/consistency', doc({ summary: "Checks the ledger's figures against the certifications they count", tags, responses: { 200: ConsistencyReport } }), async (c) =>
      c.json(await technicians.consistency(c.get('actor'))),
    )
    .get('/tier-requirements', doc({ summary: 'The certifications each tier requires', tags, responses: { 200: TierRequirementsResponse } }), async (c) =>
      c.json({ requirements: await types.requirements() }),
    )
    .put(
      '/tier-requirements',
      doc({ summary: 'Sets a tier requirement', tags, responses: { 200: TierRequirementsResponse, 404: null } }),
      validate('json', TierRequirementInput),
      async (c) => c.json({ requirements: await types.putRequirement(c.get('actor'), c.req.valid('json')) }),
    )
    .delete(
      '/tier-requirements/:id{[0-9]+}',
      doc({ summary: 'Removes a tier requirement', tags, responses: { 200: TierRequirementsResponse, 404: null } }),
      validate('param', IdParam),
      async (c) => c.json({ requirements: await types.removeRequirement(c.get('actor'), c.req.valid('param').id) }),
    )
    .put(
      '/:id{[0-9]+}',
      doc({ summary: 'Edits a certification type', tags, responses: { 200: CertificationTypeResponse, 404: null, 409: null } }),
      validate('param', IdParam),
      validate('json', CertificationTypeInput),
      async (c) => c.json({ certification: await types.update(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .delete(
      '/:id{[0-9]+}',
      doc({ summary: 'Removes a certification type (refused while technicians hold it)', tags, responses: { 200: MessageResponse, 404: null, 409: null } }),
      validate('param', IdParam),
      async (c) => c.json(await types.remove(c.get('actor'), c.req.valid('param').id)),
    )
