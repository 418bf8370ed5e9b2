// @vitest-environment happy-dom
import { TEAM_MESSAGES } from '@portal/contracts'
import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { holdRequests, memberDetail, renderWithClient } from '../test/index.ts'
import { ManagerControls } from './ManagerControls.tsx'

const noop = () => undefined
// No request leaves the test: whatever is not in the cache stays loading.
holdRequests()

// Pat is Tier 1 with no request pending: a promotion may be requested.
describe('manager controls form errors', () => {
  it('an empty rev/pay ratio is marked with its message and takes focus', async () => {
    renderWithClient(<ManagerControls detail={memberDetail()} announce={noop} />)
    const ratio = screen.getByRole('spinbutton', { name: 'Rev/Pay Ratio' })
    await userEvent.clear(ratio)
    await userEvent.click(screen.getByRole('button', { name: 'Update Ratio' }))
    expect(ratio.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('spinbutton', { name: 'Rev/Pay Ratio', description: TEAM_MESSAGES.revPayRequired })).toBe(ratio)
    await waitFor(() => expect(document.activeElement).toBe(ratio))
    expect(fetch).not.toHaveBeenCalled()
  })

  it('a promotion request without a justification marks it and moves focus to it', async () => {
    renderWithClient(<ManagerControls detail={memberDetail()} announce={noop} />)
    await userEvent.click(screen.getByRole('button', { name: 'Request Tier Promotion' }))
    const dialog = screen.getByRole('dialog', { name: 'Request Tier Promotion' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit Request' }))
    const justification = within(dialog).getByRole('textbox', { name: 'Justification', description: TEAM_MESSAGES.justificationRequired })
    expect(justification.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(justification))
    expect(fetch).not.toHaveBeenCalled()
  })
})
