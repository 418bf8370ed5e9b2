// @vitest-environment happy-dom
import { MESSAGES } from '@portal/contracts'
import { screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, expectMarked, expectUnmarked, renderAuthPage } from './auth-test-support.tsx'
import { ForgotPasswordPage } from './ForgotPasswordPage.tsx'
import { ResetPasswordPage } from './ResetPasswordPage.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('ForgotPasswordPage', () => {
  it('marks the empty e-mail and focuses it, sending nothing', async () => {
    const calls = answerApi({})
    const user = userEvent.setup()
    renderAuthPage(<ForgotPasswordPage />, '/forgot-password')
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }))
    const email = screen.getByLabelText('Email')
    expectMarked(email, 'Email is required')
    expect(document.activeElement).toBe(email)
    expect(calls).toEqual([])
  })
})

describe('ResetPasswordPage', () => {
  it('marks a weak new password and focuses it', async () => {
    const calls = answerApi({})
    const user = userEvent.setup()
    renderAuthPage(<ResetPasswordPage />, '/reset-password?token=abc')
    await user.type(screen.getByLabelText('New Password'), 'weak')
    await user.type(screen.getByLabelText('Confirm Password'), 'weak')
    await user.click(screen.getByRole('button', { name: 'Reset Password' }))
    const password = screen.getByLabelText('New Password')
    expectMarked(password, MESSAGES.passwordMin)
    expect(document.activeElement).toBe(password)
    expect(calls).toEqual([])
  })

  it('marks only the confirmation when the two differ, and focuses it', async () => {
    answerApi({})
    const user = userEvent.setup()
    renderAuthPage(<ResetPasswordPage />, '/reset-password?token=abc')
    await user.type(screen.getByLabelText('New Password'), 'SecondPass2')
    await user.type(screen.getByLabelText('Confirm Password'), 'SecondPass3')
    await user.keyboard('{Enter}')
    expectUnmarked(screen.getByLabelText('New Password'))
    const confirm = screen.getByLabelText('Confirm Password')
    expectMarked(confirm, MESSAGES.passwordsDoNotMatch)
    expect(document.activeElement).toBe(confirm)
  })
})
