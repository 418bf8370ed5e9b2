import type { AdminEmail, AdminEmailInput } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { addAdminEmail, deleteAdminEmail, fetchAdminEmails, toggleAdminEmail, updateAdminEmail } from '../api.ts'

/** Query keys of the admin e-mails feature. */
export const adminEmailKeys = {
  all: ['admin-emails'] as const,
  list: () => [...adminEmailKeys.all, 'list'] as const,
}

/** Fetches the admin e-mails again (after a change to one). */
const useRefreshAdminEmails = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: adminEmailKeys.all })
}

/** The global admin e-mails. */
export const useAdminEmails = () => useQuery({ queryKey: adminEmailKeys.list(), queryFn: fetchAdminEmails })

/** Saves the form: updates `editing`, or adds an e-mail when it is null; `onSaved` runs before the e-mails are fetched again. */
export const useSaveAdminEmail = (editing: AdminEmail | null, onSaved: (saved: AdminEmail) => void) => {
  const refresh = useRefreshAdminEmails()
  return useMutation({
    mutationFn: (body: AdminEmailInput) => (editing ? updateAdminEmail(editing.id, body) : addAdminEmail(body)),
    onSuccess: async (saved) => {
      onSaved(saved)
      await refresh()
    },
  })
}

/** Turns an e-mail active or inactive; `onToggled` (with the e-mail as it is now) runs before the e-mails are fetched again. */
export const useToggleAdminEmail = (onToggled: (e: AdminEmail) => void) => {
  const refresh = useRefreshAdminEmails()
  return useMutation({
    mutationFn: (e: AdminEmail) => toggleAdminEmail(e.id),
    onSuccess: async (e) => {
      onToggled(e)
      await refresh()
    },
  })
}

/** Deletes an e-mail; `onDeleted` runs before the e-mails are fetched again. */
export const useDeleteAdminEmail = (onDeleted: (e: AdminEmail) => void) => {
  const refresh = useRefreshAdminEmails()
  return useMutation({
    mutationFn: (e: AdminEmail) => deleteAdminEmail(e.id),
    onSuccess: async (_r, e) => {
      onDeleted(e)
      await refresh()
    },
  })
}
