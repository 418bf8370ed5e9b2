// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { Switch } from './Switch.tsx'

describe('switch', () => {
  it('is a switch named by its label whose state is aria-checked, with the text shown beside the track', async () => {
    const onToggle = vi.fn()
    render(<Switch checked text="Active" aria-label="Active: lead@acme.test" onToggle={onToggle} />)
    const control = screen.getByRole('switch', { name: 'Active: lead@acme.test', checked: true })
    expect(control.textContent).toBe('Active')
    await userEvent.click(control)
    expect(onToggle).toHaveBeenCalledTimes(1)
  })

  it('can be named and described by other elements', () => {
    render(
      <>
        <span id="l">Expiration notifications</span>
        <span id="d">On until you pause them</span>
        <Switch checked={false} text="Paused" aria-labelledby="l" aria-describedby="d" onToggle={() => undefined} />
      </>,
    )
    const control = screen.getByRole('switch', { name: 'Expiration notifications', checked: false })
    expect(control.getAttribute('aria-describedby')).toBe('d')
  })

  it('stays focusable but does nothing while busy', async () => {
    const onToggle = vi.fn()
    render(<Switch checked text="On" aria-label="Notifications" busy onToggle={onToggle} />)
    const control = screen.getByRole('switch', { name: 'Notifications' })
    expect(control.getAttribute('aria-disabled')).toBe('true')
    expect(control.hasAttribute('disabled')).toBe(false)
    await userEvent.click(control)
    expect(onToggle).not.toHaveBeenCalled()
  })
})
