import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql'
import type { Branch, Department, ManagerScope, User } from '@portal/contracts'

/** A person who can sign in; e-mail is unique case-insensitively (index on lower(email)). */
export const UserEntity = defineEntity({
  name: 'UserEntity',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
    email: p.string(),
    passwordHash: p.string(),
    isAdmin: p.boolean(),
    isManager: p.boolean(),
    managerScope: p.json<ManagerScope>(),
    branch: p.string().$type<Branch>().nullable(),
    department: p.string().$type<Department>().nullable(),
    userGroup: p.string().nullable(),
    employeeId: p.string().nullable(),
    hireDate: p.string().nullable(),
    emailVerified: p.boolean(),
    /** Raised when the facts a token carries stop being true; tokens carry it as `ver`. */
    authVersion: p.integer().default(0),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
})
export type UserEntity = InferEntity<typeof UserEntity>

/** The user as the API shows it (contracts `User`). */
export function toUserDto(u: UserEntity): User {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    is_admin: u.isAdmin,
    is_manager: u.isManager,
    manager_scope: { branches: u.managerScope?.branches ?? [], departments: u.managerScope?.departments ?? [] },
    branch: u.branch ?? null,
    department: u.department ?? null,
    user_group: u.userGroup ?? null,
    employee_id: u.employeeId ?? null,
    hire_date: u.hireDate ?? null,
    email_verified: u.emailVerified,
    created_at: u.createdAt.toISOString(),
  }
}

/** The facts other services project from identity's user events. */
export function userFacts(u: UserEntity) {
  const dto = toUserDto(u)
  return {
    userId: dto.id,
    name: dto.name,
    email: dto.email,
    isAdmin: dto.is_admin,
    isManager: dto.is_manager,
    managerScope: dto.manager_scope,
    branch: dto.branch,
    department: dto.department,
    userGroup: dto.user_group,
    employeeId: dto.employee_id,
    hireDate: dto.hire_date,
    authVersion: u.authVersion ?? 0,
  }
}
