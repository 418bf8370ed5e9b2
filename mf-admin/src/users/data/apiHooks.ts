import type { ManagerScope, UserGroup } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createGroup, deleteUser, fetchGroups, fetchUserStats, fetchUsers, updateEmployment, updateUserGroup, updateUserRoles } from '../api.ts'

/**
 * Query keys of the users feature: the users, a user's statistics and the user groups (identity's),
 * each under a root of its own (a change to the users fetches neither the statistics nor the groups again).
 */
export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
  stats: (id: string) => ['user-stats', id] as const,
  allGroups: ['user-groups'] as const,
  groups: () => [...userKeys.allGroups, 'list'] as const,
}

/** Fetches the users again (after a change to one). */
const useRefreshUsers = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: userKeys.all })
}

/** Every user (the Users tab, the assign dialog's learners). */
export const useUsers = () => useQuery({ queryKey: userKeys.list(), queryFn: fetchUsers })

/** Every user group (the Groups tab, a user's group, the assign dialog's group filter). */
export const useUserGroups = () => useQuery({ queryKey: userKeys.groups(), queryFn: fetchGroups })

/**
 * Creates a user group: `onCreated` runs, the groups are fetched again, then `thenRefresh` (the
 * Groups tab's notification rules: notify makes the new group's rule).
 */
export const useCreateGroup = (onCreated: (group: UserGroup) => void, thenRefresh: () => Promise<unknown>) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (groupName: string) => createGroup(groupName),
    onSuccess: async (group) => {
      onCreated(group)
      await queryClient.invalidateQueries({ queryKey: userKeys.allGroups })
      await thenRefresh()
    },
  })
}

/** A user's statistics (the stats dialog). */
export const useUserStats = (id: string) => useQuery({ queryKey: userKeys.stats(id), queryFn: () => fetchUserStats(id) })

/** Fetches a user's statistics again (after a cmi5 unit was waived for them). */
export const useRefreshUserStats = (id: string) => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: userKeys.stats(id) })
}

/** Sets a user's group (null for none); the users are fetched again before `onSaved` runs. */
export const useUpdateUserGroup = (id: string, onSaved: () => void) => {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: (userGroup: string | null) => updateUserGroup(id, userGroup),
    onSuccess: async () => {
      await refresh()
      onSaved()
    },
  })
}

/** Grants or revokes the manager role and its scope; the users are fetched again before `onSaved` runs. */
export const useUpdateUserRoles = (id: string, onSaved: () => void) => {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: ({ isManager, scope }: { isManager: boolean; scope: ManagerScope }) => updateUserRoles(id, isManager, scope),
    onSuccess: async () => {
      await refresh()
      onSaved()
    },
  })
}

/** Sets a user's employee id and hire date; `onSaved` runs once the users are fetched again. */
export const useUpdateEmployment = (id: string, onSaved: () => void) => {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: (body: { employee_id: string | null; hire_date: string | null }) => updateEmployment(id, body),
    onSuccess: async () => {
      await refresh()
      onSaved()
    },
  })
}

/** Deletes a user; `onDeleted` runs before the users are fetched again. */
export const useDeleteUser = (onDeleted: () => void) => {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: (id: string) => deleteUser(id),
    onSuccess: async () => {
      onDeleted()
      await refresh()
    },
  })
}
