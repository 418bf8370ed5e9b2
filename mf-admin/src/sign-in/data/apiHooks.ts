import type { SignInProvider, SignInProviderInput, SignInProviderUpdate } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { addProvider, deleteProvider, fetchProviders, updateProvider } from '../api.ts'

/** Query keys of the Sign-in section. */
export const signInKeys = {
  all: ['sign-in-providers'] as const,
  list: () => [...signInKeys.all, 'list'] as const,
}

const useRefreshProviders = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: signInKeys.all })
}

/** The company sign-in providers (the environment's and the console's). */
export const useProviders = () => useQuery({ queryKey: signInKeys.list(), queryFn: fetchProviders })

/** Saves the dialog: updates `editing`, or adds a provider when it is null; `onSaved` runs before the list is fetched again. */
export const useSaveProvider = (editing: SignInProvider | null, onSaved: (saved: SignInProvider) => void) => {
  const refresh = useRefreshProviders()
  return useMutation({
    mutationFn: (body: SignInProviderInput | SignInProviderUpdate) =>
      editing ? updateProvider(editing.key, body as SignInProviderUpdate) : addProvider(body as SignInProviderInput),
    onSuccess: async (saved) => {
      onSaved(saved)
      await refresh()
    },
  })
}

/** Deletes a provider; `onDeleted` runs before the list is fetched again. */
export const useDeleteProvider = (onDeleted: (p: SignInProvider) => void) => {
  const refresh = useRefreshProviders()
  return useMutation({
    mutationFn: (p: SignInProvider) => deleteProvider(p.key),
    onSuccess: async (_r, p) => {
      onDeleted(p)
      await refresh()
    },
  })
}
