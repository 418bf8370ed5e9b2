import { describe, expect, it } from 'vitest'
import type { SignInProvider } from '@portal/contracts'
import { bodyOf, checkForm, emptyForm, formOf, keyFrom, passwordsOf } from './provider-form.ts'

const saved: SignInProvider = {
  key: 'entra',
  display_name: 'Contoso',
  issuer: 'https://login.microsoftonline.com/t/v2.0',
  client_id: 'app-id',
  client_secret_set: true,
  client_secret_unreadable: false,
  scopes: ['openid', 'profile', 'email', 'offline_access'],
  allowed_domains: ['contoso.com'],
  effective_domains: ['contoso.com'],
  claims: { name: 'name', email: 'preferred_username', employee_id: 'employeeid', branch: null, department: 'department', hire_date: null, groups: 'roles' },
  roles: { admin_values: ['Portal.Admin'], manager_values: ['Portal.Manager'], manager_scope: 'own_department' },
  local_passwords: false,
  admin_break_glass: true,
  redirect_uri: 'https://portal.test/api/auth/oidc/entra/callback',
  post_logout_redirect_uri: 'https://portal.test/login?signed_out=1',
  source: 'admin',
  created_at: null,
  updated_at: null,
}

describe('the sign-in provider form', () => {
  it('suggests a key from the display name', () => {
    expect(keyFrom('Contoso Entra ID')).toBe('contoso-entra-id')
    expect(keyFrom('  Okta (Staff)!  ')).toBe('okta-staff')
  })

  it('turns the fields into the request body: lists split, empty claims unmapped, the secret sent only when typed', () => {
    const form = { ...emptyForm(), key: 'okta', display_name: 'Okta', issuer: ' https://acme.okta.com ', client_id: 'c', allowed_domains: 'acme.test, acme.example ; x.test' }
    form.claims.groups = 'groups'
    form.admin_values = 'Portal Admins, Ops'
    expect(bodyOf(form, false)).toEqual({
      key: 'okta',
      display_name: 'Okta',
      issuer: 'https://acme.okta.com',
      client_id: 'c',
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      allowed_domains: ['acme.test', 'acme.example', 'x.test'],
      claims: { name: 'name', email: 'email', employee_id: null, branch: null, department: null, hire_date: null, groups: 'groups' },
      roles: { admin_values: ['Portal Admins', 'Ops'], manager_values: [], manager_scope: 'own_branch' },
      local_passwords: true,
      admin_break_glass: true,
    })
    expect(bodyOf({ ...form, client_secret: 's3cret' }, false)).toMatchObject({ client_secret: 's3cret' })
  })

  it('edits a saved provider without its key and keeps the stored secret when the field stays empty', () => {
    const form = formOf(saved)
    expect(form).toMatchObject({ client_secret: '', allowed_domains: 'contoso.com', admin_values: 'Portal.Admin', manager_scope: 'own_department', local_passwords: false })
    const body = bodyOf(form, true)
    expect(body).not.toHaveProperty('key')
    expect(body).not.toHaveProperty('client_secret')
    expect(checkForm(form, true)).toEqual({ ok: true, body })
  })

  it('gives each field the shared schema’s message', () => {
    const checked = checkForm({ ...emptyForm(), key: 'Bad Key', issuer: 'http://idp.example.com', scopes: 'profile', claims: { ...emptyForm().claims, email: '' } }, false)
    expect(checked).toEqual({
      ok: false,
      errors: {
        key: 'key may hold lower-case letters, digits and hyphens (at most 40), e.g. "entra"',
        display_name: 'display_name is required',
        issuer: 'issuer must be an https URL (http only on localhost), without query or fragment',
        client_id: 'client_id is required',
        scopes: 'scopes must include openid',
        'claims.email': 'claims.email is required: the portal knows people by their e-mail address',
      },
    })
  })

  it('says how passwords stand', () => {
    expect(passwordsOf({ local_passwords: true, admin_break_glass: true })).toBe('Allowed')
    expect(passwordsOf({ local_passwords: false, admin_break_glass: true })).toBe('Admins only (break-glass)')
    expect(passwordsOf({ local_passwords: false, admin_break_glass: false })).toBe('Off for everyone')
  })
})
