import { ManagerScope, UserGroupsResponse, UsersResponse, UserGroup, User, ProfileResponse, MessageResponse } from '@portal/contracts'
import { api } from '@portal/ui-kit'

/** Query keys of the users feature. */
export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
}

/** Query keys of the user-groups feature. */
export const groupKeys = {
  all: ['user-groups'] as const,
  list: () => [...groupKeys.all, 'list'] as const,
}

const userPath = (id: string) => `/users/${encodeURIComponent(id)}`

export const fetchUsers = () => api.get('/users', UsersResponse)
export const fetchGroups = () => api.get('/admin/user-groups', UserGroupsResponse)
export const updateUserGroup = (id: string, userGroup: string | null) =>
  api.patch(`${userPath(id)}/group`, { userGroup }, ProfileResponse)
export const updateUserRoles = (id: string, isManager: boolean, scope: ManagerScope) =>
  api.put(`${userPath(id)}/roles`, { is_manager: isManager, manager_scope: scope }, ProfileResponse)
export const deleteUser = (id: string) => api.delete(userPath(id), MessageResponse)
export const createGroup = (groupName: string) => api.post('/admin/user-groups', { groupName }, UserGroup)

export type { User, UserGroup }
