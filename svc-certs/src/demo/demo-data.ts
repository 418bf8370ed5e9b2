import { Readable } from 'node:stream'
import type { MikroORM } from '@mikro-orm/postgresql'
import { DEFAULT_COMPANY_TIME_ZONE, TEAM, computeExpiration, todayIn, type CertificationTypeInput, type Department, type TierLevel } from '@portal/contracts'
import { recordEvent, type Storage } from '@portal/server-kit'
import { buildPdf, buildPng } from '@portal/server-kit/demo'
import { CertificationTypeEntity, TierRequirementEntity } from '../certification-types/index.ts'
import { certificationFacts, TechnicianCertificationEntity } from '../certifications/index.ts'
import { addMonths } from '../revenue/index.ts'
import { TechnicianEntity } from '../technicians/index.ts'
import { demoRepository } from './demo.repository.ts'
import type { CertsUsers } from '../users.ts'

/** What seeding needs; `start()`'s result has it. */
export interface SeedTarget {
  orm: MikroORM
  storage: Storage
  users: Pick<CertsUsers, 'waitFor'>
  /** The company's time zone: the demo's "expires in 10 days" counts from its today, as every screen does. */
  timeZone?: string
}

type DemoType = Required<Pick<CertificationTypeInput, 'name' | 'code'>> & {
  tier: TierLevel
  department: Department | null
  validity: number | null
  upload?: boolean
  active?: boolean
  /** Required by its tier (default), optional, or not a requirement at all. */
  requirement?: 'required' | 'optional' | 'none'
  link?: string
  description?: string
}

/** About fifteen types across tiers and departments, most of them asked for by their tier. */
const DEMO_TYPES: DemoType[] = [
  {
    name: 'OSHA 10-Hour Construction Safety',
    code: 'OSHA-10',
    tier: 0,
    department: null,
    validity: null,
    link: 'https://www.osha.gov/training/outreach',
    description: 'Entry-level safety awareness for every new hire.',
  },
  { name: 'First Aid / CPR / AED', code: 'CPR-AED', tier: 0, department: null, validity: 24, link: 'https://www.redcross.org/take-a-class' },
  {
    name: 'Company Safety Orientation',
    code: 'SAFE-ORIENT',
    tier: 0,
    department: null,
    validity: null,
    upload: false,
    description: 'Completed in the first week; nothing to upload.',
  },
  { name: 'Hazard Communication (legacy card)', code: 'HAZCOM-OLD', tier: 0, department: null, validity: 12, active: false, requirement: 'none' },
  { name: 'NFPA 70E Electrical Safety', code: 'NFPA-70E', tier: 1, department: null, validity: 36 },
  { name: 'Lockout/Tagout Authorized Employee', code: 'LOTO', tier: 1, department: null, validity: 12 },
  { name: 'EPA Section 608 Universal', code: 'EPA-608', tier: 1, department: 'Service', validity: null },
  { name: 'Backflow Prevention Assembly Tester', code: 'BPAT', tier: 1, department: 'Testing', validity: 24 },
  { name: 'Forklift Operator', code: 'FORKLIFT', tier: 1, department: 'Construction', validity: 36 },
  { name: 'Journeyman Electrician License', code: 'JOURNEYMAN', tier: 1, department: 'Electricians', validity: 36 },
  { name: 'OSHA 30-Hour Construction Safety', code: 'OSHA-30', tier: 2, department: null, validity: null },
  { name: 'NATE Core Certification', code: 'NATE', tier: 2, department: 'Service', validity: 24 },
  { name: 'NICET Fire Alarm Systems Level II', code: 'NICET-FA2', tier: 2, department: 'Testing', validity: 36 },
  { name: 'Confined Space Entry', code: 'CONFINED', tier: 2, department: 'Construction', validity: 12 },
  { name: 'Certified Safety Professional', code: 'CSP', tier: 3, department: null, validity: 60, requirement: 'optional' },
  { name: 'Master Electrician License', code: 'MASTER-ELEC', tier: 3, department: 'Electricians', validity: 36 },
  { name: 'Project Management Professional', code: 'PMP', tier: 3, department: null, validity: 36, requirement: 'optional' },
]

/**
 * A demo certification: obtained `obtainedDaysAgo` days ago, expiring in `expiresInDays` (absent:
 * obtained + validity), with a proof of that kind, maybe verified.
 */
interface DemoHeld {
  code: string
  obtainedDaysAgo: number
  expiresInDays?: number
  proof?: 'pdf' | 'png'
  verified?: boolean
}

interface DemoTechnician {
  local: string
  tier: TierLevel
  pausedDays?: number
  held: DemoHeld[]
}

/** Every status (Uploaded, Not Uploaded, Completed, Verified, Expired) and badge (10, 25, 55 days; expired) shows at once. */
const DEMO_TECHNICIANS: DemoTechnician[] = [
  {
    local: 'tech.portland',
    tier: 1,
    held: [
      { code: 'OSHA-10', obtainedDaysAgo: 900, proof: 'pdf' },
      { code: 'CPR-AED', obtainedDaysAgo: 720, expiresInDays: 10, proof: 'png' },
      { code: 'SAFE-ORIENT', obtainedDaysAgo: 1200 },
      { code: 'LOTO', obtainedDaysAgo: 340, expiresInDays: 25 },
      { code: 'NFPA-70E', obtainedDaysAgo: 400, proof: 'pdf', verified: true },
      { code: 'NATE', obtainedDaysAgo: 750, expiresInDays: -20, proof: 'pdf' },
    ],
  },
  {
    local: 'tech.seattle',
    tier: 2,
    held: [
      { code: 'OSHA-10', obtainedDaysAgo: 1500, proof: 'pdf' },
      { code: 'CPR-AED', obtainedDaysAgo: 675, expiresInDays: 55, proof: 'png' },
      { code: 'SAFE-ORIENT', obtainedDaysAgo: 1500 },
      { code: 'NFPA-70E', obtainedDaysAgo: 1100, expiresInDays: -5, proof: 'pdf' },
      { code: 'LOTO', obtainedDaysAgo: 100, proof: 'pdf' },
      { code: 'JOURNEYMAN', obtainedDaysAgo: 500, proof: 'pdf', verified: true },
      { code: 'OSHA-30', obtainedDaysAgo: 200 },
    ],
  },
  {
    local: 'tech.anchorage',
    tier: 0,
    held: [
      { code: 'OSHA-10', obtainedDaysAgo: 500 },
      { code: 'CPR-AED', obtainedDaysAgo: 770, expiresInDays: -40, proof: 'png' },
      { code: 'FORKLIFT', obtainedDaysAgo: 1085, expiresInDays: 10, proof: 'pdf' },
    ],
  },
  {
    local: 'tech.tricities',
    tier: 1,
    pausedDays: 12,
    held: [
      { code: 'OSHA-10', obtainedDaysAgo: 300, proof: 'pdf' },
      { code: 'CPR-AED', obtainedDaysAgo: 705, expiresInDays: 25, proof: 'png' },
      { code: 'SAFE-ORIENT', obtainedDaysAgo: 300 },
      { code: 'BPAT', obtainedDaysAgo: 675, expiresInDays: 55, proof: 'pdf' },
      { code: 'NFPA-70E', obtainedDaysAgo: 150, proof: 'pdf' },
      { code: 'LOTO', obtainedDaysAgo: 60, proof: 'png' },
    ],
  },
  {
    local: 'manager',
    tier: 1,
    held: [
      { code: 'OSHA-10', obtainedDaysAgo: 2000, proof: 'pdf' },
      { code: 'CPR-AED', obtainedDaysAgo: 200, proof: 'png' },
      { code: 'SAFE-ORIENT', obtainedDaysAgo: 2000 },
      { code: 'OSHA-30', obtainedDaysAgo: 1500, proof: 'pdf', verified: true },
      { code: 'CSP', obtainedDaysAgo: 800, proof: 'pdf' },
      { code: 'NFPA-70E', obtainedDaysAgo: 30, proof: 'pdf' },
      { code: 'LOTO', obtainedDaysAgo: 90, proof: 'pdf' },
      { code: 'EPA-608', obtainedDaysAgo: 2500, proof: 'png' },
    ],
  },
]

/** The demo users that must have reached the projection first (`new.hire` holds nothing yet; `admin` enters revenue). */
const DEMO_LOCALS = [...DEMO_TECHNICIANS.map((t) => t.local), 'new.hire', 'admin']

/**
 * Six months of revenue (up to this one) per demo technician: monthly pay around `pay` and a
 * rev/pay ratio around `ratio`, so every ratio colour and a leaderboard show at once.
 */
const DEMO_REVENUE: { local: string; pay: number; ratio: number }[] = [
  { local: 'tech.portland', pay: 5200, ratio: 36.4 },
  { local: 'tech.seattle', pay: 6100, ratio: 31.8 },
  { local: 'tech.anchorage', pay: 4300, ratio: 27.1 },
  { local: 'tech.tricities', pay: 4700, ratio: 22.6 },
  { local: 'manager', pay: 6900, ratio: 33.2 },
  { local: 'new.hire', pay: 3600, ratio: 18.5 },
]

/** The pending promotion request the demo starts with: the manager asks for Pat Portland's Tier 2. */
const DEMO_PROMOTION = {
  local: 'tech.portland',
  requestedBy: 'manager',
  toTier: 2 as TierLevel,
  justification: 'Pat has led the Portland service crew for six months and keeps a rev/pay ratio above 35.',
}

const DAY_MS = 86_400_000
const isoDaysFrom = (today: string, days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

const proofPdf = (name: string, code: string, number: string, holder: string) =>
  buildPdf(`${name} - ${holder}`, [
    {
      heading: `Certificate: ${name}`,
      paragraphs: [
        `This certifies that ${holder} has completed the requirements of ${name} (${code}).`,
        `Certificate number ${number}.`,
        'Demo document generated by the learning portal.',
      ],
    },
  ])
// A small card: a coloured band over a light body.
const proofPng = (hue: number) => buildPng(120, 80, (_x, y) => (y < 20 ? [hue, 90, 160] : [240, 244, 248]))

/**
 * Seeds the demo certification types, tier requirements, the demo technicians' certifications
 * (with proof files), six months of their revenue and one pending promotion request once, when there are no types yet. The technicians arrive through identity's
 * events, so it first waits until the projection holds them. Resolves with the number of types made.
 */
export async function seedDemoData(target: SeedTarget, opts: { companyEmailDomain?: string; now?: Date; timeoutMs?: number } = {}): Promise<number> {
  // A later start (types exist) does not wait for anyone.
  if ((await target.orm.em.fork().count(CertificationTypeEntity, {})) > 0) return 0
  const domain = opts.companyEmailDomain ?? 'example.com'
  const emails = DEMO_LOCALS.map((l) => `${l}@${domain}`)
  await target.users.waitFor(async (em) => {
    return (await demoRepository.usersPresent(em, emails)) === emails.length
  }, opts.timeoutMs)
  const at = opts.now ?? new Date()
  const today = todayIn(target.timeZone ?? DEFAULT_COMPANY_TIME_ZONE, at)
  const files: { key: string; body: Buffer }[] = []
  const made = await target.orm.em.fork().transactional(async (em) => {
    // Serialize concurrent first starts of several instances.
    await demoRepository.lockTypes(em)
    if ((await em.count(CertificationTypeEntity, {})) > 0) return 0
    const types = new Map<string, CertificationTypeEntity>()
    for (const d of DEMO_TYPES) {
      const t = em.create(CertificationTypeEntity, {
        name: d.name,
        code: d.code,
        tierLevel: d.tier,
        department: d.department,
        trainingLink: d.link ?? null,
        validityPeriod: d.validity,
        uploadRequired: d.upload ?? true,
        isActive: d.active ?? true,
        description: d.description ?? null,
        createdAt: at,
        updatedAt: at,
      })
      types.set(d.code, t)
    }
    await em.flush()
    for (const d of DEMO_TYPES) {
      if (d.requirement === 'none') continue
      em.create(TierRequirementEntity, { tierLevel: d.tier, certificationId: types.get(d.code)!.id, isRequired: d.requirement !== 'optional', createdAt: at })
    }
    const users = await demoRepository.usersByEmail(em, emails)
    const byLocal = new Map(users.map((u) => [u.email.split('@')[0]!, u]))
    let serial = 4100
    for (const tech of DEMO_TECHNICIANS) {
      const user = byLocal.get(tech.local)!
      const pausedUntil = tech.pausedDays ? new Date(at.getTime() + tech.pausedDays * DAY_MS) : null
      em.create(TechnicianEntity, { userId: user.id, currentTier: tech.tier, notificationsPausedUntil: pausedUntil, revPayRatio: null, updatedAt: at })
      // A paused technician is announced as the pause route does (svc-notify holds assignment reminders too).
      if (pausedUntil) recordEvent(em, 'certs.notification-pause.changed.v1', { userId: user.id, pausedUntil: pausedUntil.toISOString(), at: at.toISOString() })
      for (const h of tech.held) {
        const type = types.get(h.code)!
        const obtained = isoDaysFrom(today, -h.obtainedDaysAgo)
        const number = `${h.code}-${++serial}`
        const proof = h.proof === 'pdf' ? proofPdf(type.name, type.code, number, user.name) : h.proof === 'png' ? proofPng(40 + (serial % 5) * 40) : null
        const key = proof ? `proofs/demo-${crypto.randomUUID()}` : null
        if (proof) files.push({ key: key!, body: proof })
        const cert = em.create(TechnicianCertificationEntity, {
          userId: user.id,
          certificationId: type.id,
          certificationNumber: number,
          obtainedDate: obtained,
          expirationDate: h.expiresInDays !== undefined ? isoDaysFrom(today, h.expiresInDays) : computeExpiration(obtained, type.validityPeriod ?? null),
          notes: null,
          fileKey: key,
          fileName: proof ? `${type.code.toLowerCase()}-certificate.${h.proof}` : null,
          fileSize: proof?.length ?? null,
          fileType: h.proof === 'pdf' ? 'application/pdf' : h.proof === 'png' ? 'image/png' : null,
          uploadedAt: proof ? at : null,
          verifiedAt: h.verified ? at : null,
          createdAt: at,
          updatedAt: at,
        })
        await em.flush()
        recordEvent(em, 'certs.certification.added.v1', certificationFacts(cert, type))
      }
    }
    const admin = byLocal.get('admin')!
    const month = today.slice(0, 7)
    for (const [i, r] of DEMO_REVENUE.entries()) {
      const user = byLocal.get(r.local)!
      for (let back = TEAM.trendMonths - 1; back >= 0; back--) {
        // A small, fixed wobble per month, so the trend is not a flat line.
        const wobble = ((i * 7 + back * 3) % 5) - 2
        const pay = r.pay + wobble * 40
        const gross = Math.round(pay * (r.ratio + wobble * 0.6) * 100) / 100
        await demoRepository.addRevenue(em, { userId: user.id, month: addMonths(month, -back), gross, pay, enteredBy: admin.id, at })
      }
    }
    const promoted = byLocal.get(DEMO_PROMOTION.local)!
    const requester = byLocal.get(DEMO_PROMOTION.requestedBy)!
    await demoRepository.addPendingPromotion(em, {
      userId: promoted.id,
      fromTier: DEMO_TECHNICIANS.find((t) => t.local === DEMO_PROMOTION.local)!.tier,
      toTier: DEMO_PROMOTION.toTier,
      justification: DEMO_PROMOTION.justification,
      requestedBy: requester.id,
      requestedByName: requester.name,
      at,
    })
    // The files first, inside the transaction: a failure rolls the rows back (the files are then
    // garbage under `proofs/demo-*`, harmless and removed with `.data`).
    for (const f of files) await target.storage.put(f.key, Readable.from([f.body]))
    return DEMO_TYPES.length
  })
  return made
}
