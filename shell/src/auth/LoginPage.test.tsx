// @vitest-environment happy-dom
import { screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, expectMarked, expectUnmarked, renderAuthPage } from './auth-test-support.tsx'
import { LoginPage } from './LoginPage.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('LoginPage', () => {
  it('marks each empty field, ties its message to it and focuses the first, sending nothing', async () => {
    const calls = answerApi({ 'GET /api/auth/oidc/providers': () => Response.json({ providers: [] }) })
    const user = userEvent.setup()
    renderAuthPage(<LoginPage />, '/login')
    await user.click(screen.getByRole('button', { name: 'Log In' }))
    const email = screen.getByLabelText('Email')
    expectMarked(email, 'Email is required')
    expectMarked(screen.getByLabelText('Password'), 'Password is required')
    expect(document.activeElement).toBe(email)
    expect(calls.map((c) => c.asked)).not.toContain('POST /api/auth/login')
  })

  it('focuses the password when only it is missing, the e-mail no longer marked', async () => {
    answerApi({ 'GET /api/auth/oidc/providers': () => Response.json({ providers: [] }) })
    const user = userEvent.setup()
    renderAuthPage(<LoginPage />, '/login')
    await user.type(screen.getByLabelText('Email'), 'tech@example.com')
    await user.keyboard('{Enter}')
    expectUnmarked(screen.getByLabelText('Email'))
    expectMarked(screen.getByLabelText('Password'), 'Password is required')
    expect(document.activeElement).toBe(screen.getByLabelText('Password'))
  })
})
