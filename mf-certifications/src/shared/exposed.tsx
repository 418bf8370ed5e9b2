import { ensureStyles, LOAD_QUERY_DEFAULTS, type RemoteProps } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState, type ComponentType } from 'react'
import { ensureCertStyles } from './styles.ts'

/**
 * An exposed component of this remote: the styles, and a query cache of its own per mount
 * (signing out unmounts it, so no data leaks to the next user; a host never shares its cache). A
 * failed load shows its error at once (the kit's LOAD_QUERY_DEFAULTS, issue 30 item 5).
 */
export function exposed(View: ComponentType<RemoteProps>): ComponentType<RemoteProps> {
  const Exposed = (props: RemoteProps) => {
    const [client] = useState(() => new QueryClient({ defaultOptions: { queries: LOAD_QUERY_DEFAULTS } }))
    ensureStyles()
    ensureCertStyles()
    return (
      <QueryClientProvider client={client}>
        <View {...props} />
      </QueryClientProvider>
    )
  }
  Exposed.displayName = `Exposed(${View.displayName ?? View.name})`
  return Exposed
}
