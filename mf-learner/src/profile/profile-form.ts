import { BRANCHES, Branch, MESSAGES, departmentsOf, type Department, type User } from '@portal/contracts'

/** The profile modal shows while the user lacks a branch or a department (spec §4). */
export const needsProfile = (user: Pick<User, 'branch' | 'department'>): boolean => !user.branch || !user.department

export const branchOptions = BRANCHES.map((b) => ({ value: b, label: b }))

/** Departments offered for the chosen branch (none until a branch is chosen). */
export const departmentOptions = (branch: string): { value: Department; label: string }[] => {
  const parsed = Branch.safeParse(branch)
  return parsed.success ? departmentsOf(parsed.data).map((d) => ({ value: d, label: d })) : []
}

/** Keeps the department only if the new branch has it. */
export const departmentAfterBranchChange = (branch: string, department: string): string => (departmentOptions(branch).some((o) => o.value === department) ? department : '')

export interface ProfileErrors {
  branch?: string
  department?: string
}

export const validateProfile = (branch: string, department: string): ProfileErrors => ({
  ...(branch ? {} : { branch: MESSAGES.branchRequired }),
  ...(department ? {} : { department: MESSAGES.departmentRequired }),
})
