// @vitest-environment happy-dom
import type { SignInProvider } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render as renderDom, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { signInKeys } from './data/apiHooks.ts'
import { ProviderDialog } from './ProviderDialog.tsx'
import { SignInTab } from './SignInTab.tsx'

const provider = (extra: Partial<SignInProvider>): SignInProvider => ({
  key: 'company',
  display_name: 'Acme Login',
  issuer: 'https://login.acme.test',
  client_id: 'portal',
  client_secret_set: true,
  client_secret_unreadable: false,
  scopes: ['openid'],
  allowed_domains: [],
  effective_domains: ['acme.test'],
  claims: { name: 'name', email: 'email', employee_id: null, branch: 'branch', department: null, hire_date: null, groups: null },
  roles: { admin_values: [], manager_values: [], manager_scope: 'own_branch' },
  local_passwords: true,
  admin_break_glass: true,
  redirect_uri: 'https://portal.test/api/auth/oidc/company/callback',
  post_logout_redirect_uri: 'https://portal.test/login?signed_out=1',
  source: 'admin',
  created_at: null,
  updated_at: null,
  ...extra,
})

const render = (node: ReactNode, providers?: SignInProvider[]) => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  if (providers) client.setQueryData(signInKeys.list(), providers)
  client.setQueryData(['auth-config'], { companyEmailDomain: 'acme.test', adminRegistrationEnabled: false })
  return renderDom(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}
const noop = () => undefined

describe('the Sign-in section', () => {
  it('lists the providers with Edit and Delete, and those of the environment read-only', () => {
    render(<SignInTab />, [provider({}), provider({ key: 'file', display_name: 'By File', source: 'environment', local_passwords: false })])
    const table = screen.getByRole('table', { name: 'Sign-in providers' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Provider', 'Issuer', 'Domains', 'Passwords', 'Actions'])
    expect(within(table).getByRole('button', { name: 'Edit Acme Login' })).toBeTruthy()
    expect(within(table).getByRole('button', { name: 'Delete Acme Login' })).toBeTruthy()
    const byFile = within(table).getByRole('row', { name: /By File/ })
    expect(within(byFile).queryByRole('button')).toBeNull()
    expect(within(byFile).getByText('Set by the environment (read-only)')).toBeTruthy()
    expect(within(byFile).getByText('Admins only (break-glass)')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Add Provider' })).toBeTruthy()
  })

  it('says when no provider is configured', () => {
    render(<SignInTab />, [])
    expect(screen.getByText('No sign-in provider is configured: people sign in with their portal passwords.')).toBeTruthy()
  })

  it('says which provider’s stored secret cannot be read, and the dialog asks for it again', () => {
    render(<SignInTab />, [provider({ client_secret_unreadable: true }), provider({ key: 'other', display_name: 'Other Login' })])
    const alerts = screen.getAllByRole('alert')
    expect(alerts.map((a) => a.textContent)).toEqual([
      'Acme Login: The stored client secret cannot be read with this server’s secrets key: enter it again. Sign-in through it fails until then.',
    ])
    render(<ProviderDialog editing={provider({ client_secret_unreadable: true })} companyDomain="acme.test" onClose={noop} onSaved={noop} />)
    expect(screen.getByText('The stored client secret cannot be read with this server’s secrets key: enter it again.')).toBeTruthy()
  })

  it('asks before deleting', async () => {
    render(<SignInTab />, [provider({})])
    await userEvent.click(screen.getByRole('button', { name: 'Delete Acme Login' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete Sign-in Provider' })
    expect(dialog.textContent).toContain('Are you sure you want to delete Acme Login?')
  })
})

describe('the provider dialog', () => {
  it('labels every field, keeps the secret write-only, and warns before admins lose their break-glass password', async () => {
    render(<ProviderDialog editing={provider({})} companyDomain="acme.test" onClose={noop} onSaved={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Edit Acme Login' })
    for (const label of [
      'Display name',
      'Key',
      'Issuer URL',
      'Client ID',
      'Client secret',
      'Allowed e-mail domains',
      'Scopes',
      'Name claim',
      'E-mail claim',
      'Employee ID claim',
      'Branch claim',
      'Department claim',
      'Hire date claim',
      'Group or role claim',
      'Admin group values',
      'Manager group values',
    ])
      expect(within(dialog).getByLabelText(label), label).toBeTruthy()
    const secret = within(dialog).getByLabelText('Client secret') as HTMLInputElement
    expect([secret.type, secret.value]).toEqual(['password', ''])
    expect(within(dialog).getByText('A secret is stored. Leave empty to keep it.')).toBeTruthy()
    expect((within(dialog).getByLabelText('Key') as HTMLInputElement).readOnly).toBe(true)
    expect(within(dialog).getByRole('combobox', { name: 'Manager scope' })).toBeTruthy()
    expect(within(dialog).getByText('https://portal.test/api/auth/oidc/company/callback')).toBeTruthy()

    const local = within(dialog).getByRole('switch', { name: 'Local passwords allowed for these domains' })
    const breakGlass = within(dialog).getByRole('switch', { name: 'Admin break-glass password sign-in' })
    expect(within(dialog).queryByRole('alert')).toBeNull()
    await userEvent.click(local)
    expect(local.getAttribute('aria-checked')).toBe('false')
    await userEvent.click(breakGlass)
    expect(within(dialog).getByRole('alert').textContent).toContain('admins cannot sign in with a password either')
  })

  it('shows each field’s message of the shared schema on save', async () => {
    render(<ProviderDialog editing={null} companyDomain="acme.test" onClose={noop} onSaved={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Add Sign-in Provider' })
    await userEvent.type(within(dialog).getByLabelText('Issuer URL'), 'http://idp.example.com')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Provider' }))
    expect(within(dialog).getByText('display_name is required')).toBeTruthy()
    expect(within(dialog).getByText('issuer must be an https URL (http only on localhost), without query or fragment')).toBeTruthy()
    expect(within(dialog).getByText("Empty: the company's domain (acme.test).", { exact: false })).toBeTruthy()
    // Each field in error is marked and described by its message; focus goes to the first one.
    const name = within(dialog).getByRole('textbox', { name: 'Display name', description: /^display_name is required/ })
    expect(name.getAttribute('aria-invalid')).toBe('true')
    const issuer = within(dialog).getByRole('textbox', { name: 'Issuer URL', description: /^issuer must be an https URL/ })
    expect(issuer.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(name))
  })

  it('suggests the key from the display name for a new provider', async () => {
    render(<ProviderDialog editing={null} companyDomain="acme.test" onClose={noop} onSaved={noop} />)
    await userEvent.type(screen.getByLabelText('Display name'), 'Contoso Entra')
    expect((screen.getByLabelText('Key') as HTMLInputElement).value).toBe('contoso-entra')
  })
})
