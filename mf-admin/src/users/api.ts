import { ManagerScope, UserGroupsResponse, UsersResponse, UserGroup, User, UserStats, ProfileResponse, MessageResponse } from '@portal/contracts'
import { api } from '@portal/ui-kit'

const userPath = (id: string) => `/users/${encodeURIComponent(id)}`

export const fetchUsers = () => api.get('/users', UsersResponse)
export const fetchGroups = () => api.get('/admin/user-groups', UserGroupsResponse)
export const fetchUserStats = (id: string) => api.get(`${userPath(id)}/stats`, UserStats)
export const updateUserGroup = (id: string, userGroup: string | null) => api.patch(`${userPath(id)}/group`, { userGroup }, ProfileResponse)
export const updateUserRoles = (id: string, isManager: boolean, scope: ManagerScope) =>
  api.put(`${userPath(id)}/roles`, { is_manager: isManager, manager_scope: scope }, ProfileResponse)
export const updateEmployment = (id: string, body: { employee_id: string | null; hire_date: string | null }) => api.put(`${userPath(id)}/employment`, body, ProfileResponse)
export const deleteUser = (id: string) => api.delete(userPath(id), MessageResponse)
export const createGroup = (groupName: string) => api.post('/admin/user-groups', { groupName }, UserGroup)

export type { User, UserGroup }
