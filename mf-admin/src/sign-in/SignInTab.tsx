import { PublicConfig, UNREADABLE_CLIENT_SECRET, type SignInProvider } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, DataTable, EmptyState, Spinner, api, errorMessage } from '@portal/ui-kit'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { ProviderDialog } from './ProviderDialog.tsx'
import { useDeleteProvider, useProviders } from './data/apiHooks.ts'
import { passwordsOf } from './provider-form.ts'

/** The company's e-mail domain (the allowed domains when a provider lists none). */
const useCompanyDomain = () => useQuery({ queryKey: ['auth-config'], queryFn: () => api.get('/auth/config', PublicConfig), staleTime: Infinity })

/**
 * The admin console's Sign-in section (issue 25): the company sign-in providers, added, changed and
 * deleted here (those of the environment are shown read-only), each change in the audit trail.
 */
export const SignInTab = () => {
  const providers = useProviders()
  const domain = useCompanyDomain().data?.companyEmailDomain ?? ''
  const [dialog, setDialog] = useState<{ editing: SignInProvider | null } | null>(null)
  const [toDelete, setToDelete] = useState<SignInProvider | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const remove = useDeleteProvider((p) => {
    setToDelete(null)
    setNotice(`Deleted ${p.display_name}.`)
  })

  return (
    <div className="pk-stack">
      <div className="pk-row pk-between">
        <h2 className="pk-m0">Sign-in</h2>
        <Button
          onClick={() => {
            setNotice(null)
            setDialog({ editing: null })
          }}
        >
          Add Provider
        </Button>
      </div>
      <p className="pk-muted pk-m0">
        People sign in with the company&apos;s identity provider (OpenID Connect: Entra ID, Okta, Google Workspace, Keycloak). The login page offers each provider first; portal
        passwords stay unless a provider turns them off.
      </p>
      <div role="status" className="pk-live">
        {notice}
      </div>
      {remove.isError ? <Alert>{errorMessage(remove.error, 'Failed to delete the provider')}</Alert> : null}
      {providers.data
        ?.filter((p) => p.client_secret_unreadable)
        .map((p) => (
          <Alert key={p.key}>
            {p.display_name}: {UNREADABLE_CLIENT_SECRET} Sign-in through it fails until then.
          </Alert>
        ))}
      {providers.isPending ? <Spinner label="Loading sign-in providers..." /> : null}
      {providers.isError ? <Alert>{errorMessage(providers.error, 'Failed to fetch the sign-in providers')}</Alert> : null}
      {providers.data && providers.data.length === 0 ? <EmptyState>No sign-in provider is configured: people sign in with their portal passwords.</EmptyState> : null}
      {providers.data && providers.data.length > 0 ? (
        <DataTable>
          <caption className="pk-visually-hidden">Sign-in providers</caption>
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Issuer</th>
              <th scope="col">Domains</th>
              <th scope="col">Passwords</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {providers.data.map((p) => (
              <tr key={p.key}>
                <td>{p.display_name}</td>
                <td>
                  <code>{p.issuer}</code>
                </td>
                <td>{p.effective_domains.join(', ')}</td>
                <td>{passwordsOf(p)}</td>
                <td>
                  {p.source === 'environment' ? (
                    <span className="pk-muted">Set by the environment (read-only)</span>
                  ) : (
                    <div className="pk-row">
                      <Button
                        size="small"
                        variant="secondary"
                        aria-label={`Edit ${p.display_name}`}
                        onClick={() => {
                          setNotice(null)
                          setDialog({ editing: p })
                        }}
                      >
                        Edit
                      </Button>
                      <Button size="small" variant="danger" aria-label={`Delete ${p.display_name}`} onClick={() => setToDelete(p)}>
                        Delete
                      </Button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
      {dialog ? (
        <ProviderDialog
          editing={dialog.editing}
          companyDomain={domain}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            setDialog(null)
            setNotice(dialog.editing ? `Saved ${saved.display_name}.` : `Added ${saved.display_name}. Register ${saved.redirect_uri} at the provider.`)
          }}
        />
      ) : null}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Sign-in Provider"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
      >
        Are you sure you want to delete {toDelete?.display_name}? People will no longer be able to sign in with it; their accounts stay.
      </ConfirmDialog>
    </div>
  )
}
