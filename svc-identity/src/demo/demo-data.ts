import { MikroORM } from '@mikro-orm/postgresql'
import type { Branch, Department } from '@portal/contracts'
import { recordEvent, type OutboxRelay } from '@portal/server-kit'
import { createPasswordHasher, DEFAULT_KDF, type KdfParams } from '../auth/index.ts'
import { UserEntity, userFacts, userRepository } from '../users/index.ts'

export interface DemoLogin {
  role: string
  email: string
  password: string
}

/** What seeding needs; `start()`'s result has all of it. */
export interface SeedTarget {
  orm: MikroORM
  env: { COMPANY_EMAIL_DOMAIN: string }
  relay?: Pick<OutboxRelay, 'kick'>
  kdf?: KdfParams
}

interface DemoUser {
  role: string
  local: string
  name: string
  password: string
  isAdmin?: boolean
  isManager?: boolean
  scope?: Branch[]
  branch: Branch | null
  department: Department | null
  employeeId: string | null
  hireDate: string | null
}

const DEMO_USERS: DemoUser[] = [
  { role: 'admin', local: 'admin', name: 'Alex Admin', password: 'Admin123!', isAdmin: true, branch: null, department: null, employeeId: 'E0001', hireDate: '2019-03-04' },
  {
    role: 'manager',
    local: 'manager',
    name: 'Morgan Manager',
    password: 'Manager123!',
    isManager: true,
    scope: ['Portland'],
    branch: 'Portland',
    department: 'Service',
    employeeId: 'E0002',
    hireDate: '2020-06-15',
  },
  {
    role: 'technician',
    local: 'tech.portland',
    name: 'Pat Portland',
    password: 'Tech1234!',
    branch: 'Portland',
    department: 'Service',
    employeeId: 'E1001',
    hireDate: '2022-01-10',
  },
  {
    role: 'technician',
    local: 'tech.seattle',
    name: 'Sam Seattle',
    password: 'Tech1234!',
    branch: 'Seattle',
    department: 'Electricians',
    employeeId: 'E1002',
    hireDate: '2021-09-01',
  },
  {
    role: 'technician',
    local: 'tech.anchorage',
    name: 'Avery Anchorage',
    password: 'Tech1234!',
    branch: 'Anchorage',
    department: 'Construction',
    employeeId: 'E1003',
    hireDate: '2023-04-17',
  },
  {
    role: 'technician',
    local: 'tech.tricities',
    name: 'Taylor Tri-Cities',
    password: 'Tech1234!',
    branch: 'Tri-Cities',
    department: 'Testing',
    employeeId: 'E1004',
    hireDate: '2024-02-05',
  },
  { role: 'new hire', local: 'new.hire', name: 'Noa Newhire', password: 'Welcome123!', branch: null, department: null, employeeId: null, hireDate: null },
]

/**
 * Creates the demo accounts (verified) when the users table is empty; resolves with their logins,
 * or with [] when there were users already. Accepts `start()`'s result or an ORM.
 */
export async function seedDemoData(
  target: SeedTarget | MikroORM,
  opts: { companyEmailDomain?: string; kdf?: KdfParams; relay?: Pick<OutboxRelay, 'kick'> } = {},
): Promise<DemoLogin[]> {
  const orm = target instanceof MikroORM ? target : target.orm
  const domain = opts.companyEmailDomain ?? (target instanceof MikroORM ? undefined : target.env.COMPANY_EMAIL_DOMAIN) ?? 'example.com'
  const relay = opts.relay ?? (target instanceof MikroORM ? undefined : target.relay)
  const hasher = createPasswordHasher(opts.kdf ?? (target instanceof MikroORM ? undefined : target.kdf) ?? DEFAULT_KDF)
  const hashes = await Promise.all(DEMO_USERS.map((u) => hasher.hash(u.password)))
  const logins = await orm.em.fork().transactional(async (em) => {
    // Serialize concurrent first starts of several instances.
    await userRepository.lockForSeeding(em)
    if ((await em.count(UserEntity, {})) > 0) return []
    const at = new Date()
    return DEMO_USERS.map((d, i) => {
      const user = em.create(UserEntity, {
        id: crypto.randomUUID(),
        name: d.name,
        email: `${d.local}@${domain}`,
        passwordHash: hashes[i]!,
        isAdmin: d.isAdmin ?? false,
        isManager: d.isManager ?? false,
        managerScope: { branches: d.scope ?? [], departments: [] },
        branch: d.branch,
        department: d.department,
        userGroup: null,
        employeeId: d.employeeId,
        hireDate: d.hireDate,
        emailVerified: true,
        authVersion: 0,
        createdAt: at,
        updatedAt: at,
      })
      recordEvent(em, 'identity.user.registered.v1', userFacts(user))
      return { role: d.role, email: user.email, password: d.password }
    })
  })
  if (logins.length) relay?.kick()
  return logins
}
