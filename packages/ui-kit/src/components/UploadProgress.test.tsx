// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { uploadPercent } from '../upload.ts'
import { UploadProgress } from './UploadProgress.tsx'

describe('Upload progress', () => {
  it('turns bytes into a whole percent, unknown while the total is', () => {
    expect(uploadPercent(42, 100)).toBe(42)
    expect(uploadPercent(1, 3)).toBe(33)
    expect(uploadPercent(150, 100)).toBe(100)
    expect(uploadPercent(5, 0)).toBeNull()
  })

  it('is a progress bar with the percent as value and text', () => {
    render(<UploadProgress loaded={42} total={100} />)
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' })
    expect(bar.getAttribute('aria-valuenow')).toBe('42')
    expect(screen.getByText('Uploading… 42%')).toBeTruthy()
  })

  it('has no value while the total is unknown and says what happens once every byte is sent', () => {
    const { unmount } = render(<UploadProgress loaded={0} total={0} />)
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).hasAttribute('aria-valuenow')).toBe(false)
    unmount()
    const { rerender } = render(<UploadProgress loaded={100} total={100} />)
    expect(screen.getByRole('status').textContent).toBe('Upload complete. Processing on the server…')
    expect(screen.getByText('Upload complete. Processing on the server…', { ignore: '[role=status]' })).toBeTruthy()
    rerender(<UploadProgress loaded={100} total={100} doneText="Upload complete. Saving…" />)
    expect(screen.getByRole('status').textContent).toBe('Upload complete. Saving…')
    expect(screen.getByText('Upload complete. Saving…', { ignore: '[role=status]' })).toBeTruthy()
  })
})
