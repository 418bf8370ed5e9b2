// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, expectMarked } from './auth-test-support.tsx'
import { INCOMPLETE_CODE, VerificationPanel } from './VerificationPanel.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const panel = () => <VerificationPanel userId="u1" email="jordan@example.com" codeJustSent onVerified={() => undefined} onBack={() => undefined} />

describe('VerificationPanel', () => {
  it('says under the field that the code is incomplete when Verify Email is pressed early, and keeps focus there', async () => {
    const calls = answerApi({})
    const user = userEvent.setup()
    render(panel())
    const code = screen.getByLabelText('Verification Code')
    await user.type(code, '123')
    await user.keyboard('{Enter}')
    expectMarked(code, INCOMPLETE_CODE)
    expect(document.activeElement).toBe(code)
    expect(calls).toEqual([])
  })

  it('puts the server’s refusal of a wrong code under the field and focuses it', async () => {
    answerApi({ 'POST /api/auth/verify-email': () => Response.json({ message: 'Invalid verification code', code: 'invalid_code' }, { status: 400 }) })
    const user = userEvent.setup()
    render(panel())
    const code = screen.getByLabelText('Verification Code')
    await user.type(code, '123456')
    await user.click(screen.getByRole('button', { name: 'Verify Email' }))
    await vi.waitFor(() => expectMarked(code, 'Invalid verification code'))
    expect(document.activeElement).toBe(code)
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
