// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CompanySignIn, ProviderSignOutOffer } from './CompanySignIn.tsx'

describe('CompanySignIn', () => {
  it('offers each provider as a link that starts its sign-in', () => {
    render(
      <CompanySignIn
        providers={[
          { key: 'entra', display_name: 'Contoso', start_url: '/api/auth/oidc/entra/start' },
          { key: 'okta', display_name: 'Okta', start_url: '/api/auth/oidc/okta/start' },
        ]}
      />,
    )
    expect(screen.getByRole('link', { name: 'Sign in with Contoso' }).getAttribute('href')).toBe('/api/auth/oidc/entra/start')
    expect(screen.getByRole('link', { name: 'Sign in with Okta' }).getAttribute('href')).toBe('/api/auth/oidc/okta/start')
    expect(screen.getByText('or sign in with your portal password')).toBeTruthy()
  })
  it('shows nothing when no provider is configured', () => {
    const { container } = render(<CompanySignIn providers={[]} />)
    expect(container.innerHTML).toBe('')
  })
  it('offers the provider’s sign-out after the portal’s', () => {
    render(<ProviderSignOutOffer offer={{ provider: 'Contoso', url: 'https://login.test/logout' }} />)
    expect(screen.getByRole('status').textContent).toContain('You are signed out of the portal. You may still be signed in at Contoso.')
    expect(screen.getByRole('link', { name: 'Sign out of Contoso too' }).getAttribute('href')).toBe('https://login.test/logout')
  })
})
