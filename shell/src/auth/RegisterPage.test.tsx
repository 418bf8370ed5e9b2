// @vitest-environment happy-dom
import { screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, expectMarked, expectUnmarked, renderAuthPage } from './auth-test-support.tsx'
import { RegisterPage } from './RegisterPage.tsx'

const CONFIG = { 'GET /api/auth/config': () => Response.json({ companyEmailDomain: 'example.com', adminRegistrationEnabled: true }) }

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('RegisterPage', () => {
  it('marks every field left empty, each with its message, and focuses Full Name; nothing is sent', async () => {
    const calls = answerApi(CONFIG)
    const user = userEvent.setup()
    renderAuthPage(<RegisterPage />, '/register')
    await user.click(screen.getByRole('button', { name: 'Register' }))
    const name = screen.getByLabelText('Full Name')
    expectMarked(name, 'Full name is required')
    expectMarked(screen.getByLabelText('Email'), 'Email is required')
    expectMarked(screen.getByLabelText('Password'), 'Password is required')
    expect(document.activeElement).toBe(name)
    expect(calls.map((c) => c.asked)).not.toContain('POST /api/auth/register')
  })

  it('focuses the first field still wrong: an address outside the company domain', async () => {
    answerApi(CONFIG)
    const user = userEvent.setup()
    renderAuthPage(<RegisterPage />, '/register')
    await screen.findByText('Use your company email address (@example.com).')
    await user.type(screen.getByLabelText('Full Name'), 'Wrong Domain')
    await user.type(screen.getByLabelText('Email'), 'someone@gmail.com')
    await user.type(screen.getByLabelText('Password'), 'Secret123!')
    await user.keyboard('{Enter}')
    expectUnmarked(screen.getByLabelText('Full Name'))
    expectMarked(screen.getByLabelText('Email'), 'Registration is limited to employees (@example.com email addresses only)')
    expect(document.activeElement).toBe(screen.getByLabelText('Email'))
  })

  it('puts the server’s refusal of the admin code under the Admin Code field and focuses it', async () => {
    const calls = answerApi({
      ...CONFIG,
      'POST /api/auth/register': () => Response.json({ message: 'Invalid admin code', code: 'invalid_admin_code' }, { status: 400 }),
    })
    const user = userEvent.setup()
    renderAuthPage(<RegisterPage />, '/register')
    await user.type(screen.getByLabelText('Full Name'), 'Avery Admin')
    await user.type(screen.getByLabelText('Email'), 'avery@example.com')
    await user.type(screen.getByLabelText('Password'), 'AdminPass1')
    await user.click(await screen.findByRole('checkbox', { name: 'Register as Admin' }))
    await user.type(screen.getByLabelText('Admin Code'), 'not-the-code')
    await user.click(screen.getByRole('button', { name: 'Register' }))
    const code = screen.getByLabelText('Admin Code')
    await vi.waitFor(() => expectMarked(code, 'Invalid admin code'))
    expect(document.activeElement).toBe(code)
    expect(calls.find((c) => c.asked === 'POST /api/auth/register')?.body).toMatchObject({ email: 'avery@example.com', isAdmin: true, adminCode: 'not-the-code' })
  })
})
