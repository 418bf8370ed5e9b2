// @vitest-environment happy-dom
import { CERT_MESSAGES } from '@portal/contracts'
import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { holdRequests, profile, renderWithClient } from '../test/index.ts'
import { AddCertificationDialog } from './AddCertificationDialog.tsx'
import { UploadProofDialog } from './UploadProofDialog.tsx'

const noop = () => undefined

// No request leaves the test: whatever is not in the cache stays loading.
holdRequests()

describe('profile dialogs: form errors', () => {
  it('Add Certification saved empty marks the certification and its number, each with its message, and focuses the first', async () => {
    renderWithClient(<AddCertificationDialog open userId="u" forOther={false} onAdded={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Add Certification' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Certification' }))
    // The message replaces the validity hint as the select's description.
    const certification = within(dialog).getByRole('combobox', { name: 'Certification', description: CERT_MESSAGES.certificationRequired })
    const number = within(dialog).getByRole('textbox', { name: 'Certification Number', description: CERT_MESSAGES.certificationNumberRequired })
    for (const field of [certification, number]) expect(field.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(certification))
    expect(fetch).toHaveBeenCalledTimes(1) // the list of certifications only
  })

  it('Upload Proof without a file marks the file field with its message and focuses it', async () => {
    const cert = profile().certifications[3]!
    renderWithClient(<UploadProofDialog cert={cert} userId="u" forOther={false} onUploaded={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Upload Proof: NFPA 70E' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload Proof' }))
    const file = within(dialog).getByLabelText('Proof File')
    expect(file.getAttribute('aria-invalid')).toBe('true')
    const described = (file.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent)
    expect(described[0]).toBe(CERT_MESSAGES.fileRequired)
    await waitFor(() => expect(document.activeElement).toBe(file))
    expect(fetch).not.toHaveBeenCalled()
  })
})
