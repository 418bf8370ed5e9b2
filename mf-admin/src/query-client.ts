import { LOAD_QUERY_DEFAULTS } from '@portal/ui-kit'
import { QueryClient } from '@tanstack/react-query'

/**
 * The admin screens' data cache: one per mount (signing out unmounts it, so no data leaks to the
 * next user). A refused load shows its error at once; only a request the network dropped is sent
 * once more, quickly (the kit's LOAD_QUERY_DEFAULTS, issue 30 item 5).
 */
export const createAdminQueryClient = () => new QueryClient({ defaultOptions: { queries: LOAD_QUERY_DEFAULTS } })
