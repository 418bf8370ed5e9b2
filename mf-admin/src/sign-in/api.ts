import { MessageResponse, SignInProvider, SignInProvidersResponse, type SignInProviderInput, type SignInProviderUpdate } from '@portal/contracts'
import { api } from '@portal/ui-kit'

const path = (key: string) => `/admin/sign-in/providers/${encodeURIComponent(key)}`

export const fetchProviders = () => api.get('/admin/sign-in/providers', SignInProvidersResponse)
export const addProvider = (input: SignInProviderInput) => api.post('/admin/sign-in/providers', input, SignInProvider)
export const updateProvider = (key: string, input: SignInProviderUpdate) => api.put(path(key), input, SignInProvider)
export const deleteProvider = (key: string) => api.delete(path(key), MessageResponse)
