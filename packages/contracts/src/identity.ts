import { z } from 'zod'
import { BRANCHES, DEPARTMENTS, MESSAGES, PASSWORD_MIN, departmentsOf } from './constants.ts'

export const Branch = z.enum(BRANCHES)
export const Department = z.enum(DEPARTMENTS)
export type Branch = z.infer<typeof Branch>
export type Department = z.infer<typeof Department>

const email = z.string().trim().toLowerCase().pipe(z.email('Please enter a valid email address'))
const id = z.uuid('Invalid id')

/** Branches and departments a manager watches; empty lists mean all of them. */
export const ManagerScope = z.object({
  branches: z.array(Branch).max(BRANCHES.length),
  departments: z.array(Department).max(DEPARTMENTS.length),
})
export type ManagerScope = z.infer<typeof ManagerScope>

/** A user as the API shows it (the stored user of spec §3 plus roles). */
export const User = z.object({
  id,
  name: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  is_manager: z.boolean(),
  manager_scope: ManagerScope,
  branch: Branch.nullable(),
  department: Department.nullable(),
  user_group: z.string().nullable(),
  employee_id: z.string().nullable(),
  hire_date: z.string().nullable(),
  email_verified: z.boolean(),
  created_at: z.string(),
})
export type User = z.infer<typeof User>

/** Password rules of spec §5 (reset), applied at registration too (with the minimum of §9). */
export const StrongPassword = z
  .string()
  .max(200, 'Password is too long')
  .min(PASSWORD_MIN, MESSAGES.passwordMin)
  .regex(/[a-z]/, MESSAGES.passwordLower)
  .regex(/[A-Z]/, MESSAGES.passwordUpper)
  .regex(/[0-9]/, MESSAGES.passwordNumber)

export const RegisterBody = z.object({
  name: z.string().trim().min(1, 'Full name is required').max(200),
  email,
  password: StrongPassword,
  isAdmin: z.boolean().optional().default(false),
  adminCode: z.string().max(200).optional(),
})
export type RegisterBody = z.input<typeof RegisterBody>

export const AuthSuccess = z.object({ token: z.string(), user: User })
export type AuthSuccess = z.infer<typeof AuthSuccess>

export const RegisterResponse = z.union([z.object({ requiresVerification: z.literal(true), userId: id, message: z.string() }), AuthSuccess])
export type RegisterResponse = z.infer<typeof RegisterResponse>

export const VerifyEmailBody = z.object({
  userId: id,
  verificationCode: z.string().regex(/^\d{6}$/, 'Verification code must be 6 digits'),
})
export const ResendVerificationBody = z.object({ userId: id })
export const LoginBody = z.object({
  email,
  password: z.string().min(1, 'Password is required').max(200),
})
export const ForgotPasswordBody = z.object({ email })
export const ResetPasswordBody = z.object({
  token: z.string().min(1, MESSAGES.invalidResetLink).max(200),
  password: StrongPassword,
})
export const MessageResponse = z.object({ message: z.string() })

export const UpdateProfileBody = z
  .object({
    // A missing key counts as empty, so the required messages apply to it too.
    branch: Branch.nullable()
      .default(null)
      .refine((b) => b != null, MESSAGES.branchRequired),
    department: Department.nullable()
      .default(null)
      .refine((d) => d != null, MESSAGES.departmentRequired),
  })
  .refine((p) => !p.branch || !p.department || departmentsOf(p.branch).includes(p.department), {
    message: 'That department does not exist in this branch',
    path: ['department'],
  })
export const ProfileResponse = z.object({ user: User })

/**
 * PUT /users/{id}/employment (admin): the employee id and hire date HR keeps; the hire date drives
 * due dates "N days after hire" (issue 24). Absent keys are left as they are; null clears.
 */
export const UpdateEmploymentBody = z
  .object({
    employee_id: z.string().trim().max(50, 'Employee id may hold at most 50 characters').nullable().optional(),
    hire_date: z.iso.date('Use a date in the form YYYY-MM-DD').nullable().optional(),
  })
  .refine((b) => b.employee_id !== undefined || b.hire_date !== undefined, { message: 'Give employee_id, hire_date or both', path: ['hire_date'] })
export type UpdateEmploymentBody = z.input<typeof UpdateEmploymentBody>

export const UpdateUserGroupBody = z.object({
  userGroup: z
    .string()
    .trim()
    .max(100)
    .nullable()
    .transform((g) => (g ? g : null)),
})
export const UpdateRolesBody = z.object({
  is_manager: z.boolean(),
  manager_scope: ManagerScope.optional(),
})
export const UserGroup = z.object({ id, name: z.string(), created_at: z.string() })
export type UserGroup = z.infer<typeof UserGroup>
export const CreateUserGroupBody = z.object({
  groupName: z.string({ error: 'Group name is required' }).trim().min(1, MESSAGES.groupNameRequired).max(100),
})
export const UsersResponse = z.array(User)
export const UserGroupsResponse = z.array(UserGroup)

/** GET /auth/jwks.json: identity's public signing keys (RFC 7517), what the services verify tokens with. */
export const JwksResponse = z.object({ keys: z.array(z.object({ kty: z.string(), kid: z.string().optional(), alg: z.string().optional() }).catchall(z.unknown())) })

/** Public, non-secret settings the shell reads at start (e.g. the company e-mail domain). */
export const PublicConfig = z.object({
  companyEmailDomain: z.string(),
  adminRegistrationEnabled: z.boolean(),
})
export type PublicConfig = z.infer<typeof PublicConfig>
