// @vitest-environment happy-dom
import type { UserCertification } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'
import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithClient as render, profile, TODAY } from '../test/index.ts'
import { AddCertificationDialog } from './AddCertificationDialog.tsx'
import { ProfileBody } from './ProfileBody.tsx'
import { profileLoadError } from './TechnicianProfilePage.tsx'
import { UploadProofDialog, clearsRecordedExpiration } from './UploadProofDialog.tsx'

const noop = () => undefined
const page = () => document.body.textContent ?? ''
/** The visible words of every button, in order. */
const buttonTexts = () => screen.getAllByRole('button').map((b) => b.textContent)
/**
 * A pill showing `shown` in the colour of `tone`, with `description` as its tooltip and read in full:
 * the words it does not show follow it, visually hidden.
 */
const expectBadge = (scope: HTMLElement, tone: string, shown: string, description: string) => {
  const pills = within(scope)
    .getAllByTitle(description)
    .filter((p) => p.textContent === shown)
  expect(pills.length, `${shown}: ${description}`).toBeGreaterThan(0)
  for (const pill of pills) {
    expect(pill.className).toBe(`ct-badge ct-tone--${tone}`)
    const rest = pill.nextElementSibling as HTMLElement
    expect(rest.classList.contains('pk-visually-hidden')).toBe(true)
    expect(pill.textContent + rest.textContent!).toBe(description)
  }
}
/** The live preview of the expiration and the ids each date field is described by. */
const datePreview = (dialog: HTMLElement) => {
  const preview = within(dialog)
    .getAllByRole('paragraph')
    .find((p) => p.getAttribute('aria-live') === 'polite')!
  expect(preview.getAttribute('aria-atomic')).toBe('true')
  const described = ['Obtained Date', 'Expiration Date'].map((l) => (within(dialog).getByLabelText(l).getAttribute('aria-describedby') ?? '').split(' '))
  return { text: preview.textContent, describedByIt: described.map((ids) => ids.includes(preview.id)) }
}

// Whatever is not in the cache stays loading: no request leaves the test.
beforeEach(() => {
  vi.stubGlobal('fetch', () => new Promise(() => undefined))
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('technician profile page', () => {
  it('shows the header facts, the notifications switch and four revenue cards without zeros', () => {
    render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    for (const fact of ['Pat Portland', 'E-1001', 'Portland', 'Service', 'Mar 15, 2021', 'Current tier: Tier 1']) expect(page()).toContain(fact)
    // The address may wrap before its @ only (a <wbr>, no text of its own).
    const email = screen.getByText('tech.portland@example.com')
    expect(email.tagName).toBe('DD')
    expect(email.querySelectorAll('wbr')).toHaveLength(1)
    expect(email.firstChild!.textContent).toBe('tech.portland')
    expect(screen.getByRole('switch', { name: 'Expiration notifications', checked: true })).toBeTruthy()
    expect(screen.getAllByText('No revenue recorded')).toHaveLength(4)
    expect(page()).not.toContain('$0.00')
  })

  it('says statuses and expiration badges in words, coloured by band', () => {
    render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    expect(screen.getByRole('region', { name: 'Upcoming Expirations' })).toBeTruthy()
    const tones = (shown: string) => screen.getAllByText(shown, { selector: '.ct-badge' }).map((b) => b.className)
    expect(tones('Expired')).toContain('ct-badge ct-tone--red')
    expect(tones('Expired 5 days ago')).toContain('ct-badge ct-tone--red')
    expect(tones('Critical: expires in 6 days')).toContain('ct-badge ct-tone--red')
    expect(tones('Completed')).toContain('ct-badge ct-tone--green')
    expect(tones('Not Uploaded')).toContain('ct-badge ct-tone--yellow')
    expect(page()).toContain('Never (lifetime)')
  })

  it('says why each badge shows: a tooltip, and the rest of the sentence for screen readers', () => {
    render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    const body = document.body
    // OSHA 10: expired; its status and its badge.
    expectBadge(body, 'red', 'Expired', 'Expired 5 days ago: expiry Nov 20, 2026')
    expectBadge(body, 'red', 'Expired 5 days ago', 'Expired 5 days ago: expiry Nov 20, 2026')
    // First Aid: critical, with its proof.
    expectBadge(body, 'red', 'Critical: expires in 6 days', 'Critical: expires in 6 days (Dec 1, 2026); critical from 10 days before expiry')
    expectBadge(body, 'blue', 'Uploaded', 'Uploaded: proof first-aid.pdf uploaded Jan 2, 2026, not verified yet')
    expectBadge(body, 'green', 'Completed', 'Completed: this type needs no proof file')
    expectBadge(body, 'yellow', 'Not Uploaded', 'Not Uploaded: this type needs a proof file and none is uploaded yet')
    // Upcoming Expirations carries the same descriptions.
    expectBadge(screen.getByRole('region', { name: 'Upcoming Expirations' }), 'red', 'Expired 5 days ago', 'Expired 5 days ago: expiry Nov 20, 2026')
  })

  it('groups the cards under New Hire and Tier 1 to 3 with their actions', () => {
    render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    for (const h of ['New Hire', 'Tier 1', 'Tier 2', 'Tier 3']) expect(screen.getByRole('heading', { level: 3, name: new RegExp(`^${h} `) })).toBeTruthy()
    expect(screen.getByText('No Tier 3 certifications yet.')).toBeTruthy()
    for (const b of ['Add Certification', 'Upload', 'Replace', 'View', 'Download', 'Delete Proof', 'Delete']) expect(buttonTexts()).toContain(b)
    expect(screen.getAllByRole('button', { expanded: false }).some((b) => b.textContent === 'View')).toBe(true)
    expect(page()).toContain('Progress to Tier 2')
    expect(screen.getAllByRole('progressbar').map((p) => p.getAttribute('aria-valuenow'))).toContain('50')
  })

  it('gives a manager reading a profile only View, Download and Delete Proof, and no switch', () => {
    render(<ProfileBody profile={profile({ permissions: { can_edit: false, can_toggle_notifications: false, can_delete_files: true } })} isOwn={false} today={TODAY} />)
    expect(screen.queryByRole('switch')).toBeNull()
    expect(page()).toContain('Expiration notifications: On')
    const buttons = buttonTexts()
    for (const b of ['Add Certification', 'Upload', 'Delete']) expect(buttons).not.toContain(b)
    for (const b of ['Delete Proof', 'Download']) expect(buttons).toContain(b)
  })

  it('keeps certification features for later while one’s own branch or department is missing', () => {
    const p = profile()
    render(<ProfileBody profile={{ ...p, user: { ...p.user, department: null } }} isOwn today={TODAY} />)
    expect(page()).toContain('Choose your branch and department on your dashboard')
    expect(buttonTexts()).not.toContain('Add Certification')
  })

  it('shows a pause with its end date', () => {
    const p = profile()
    render(<ProfileBody profile={{ ...p, tier: { ...p.tier, notifications_paused: true, notifications_paused_until: '2026-12-25T10:00:00.000Z' } }} isOwn today={TODAY} />)
    expect(screen.getByRole('switch', { name: 'Expiration notifications', checked: false, description: /^Paused until Dec 25, 2026/ })).toBeTruthy()
  })

  it('keeps an empty status region for its notices', () => {
    const { container } = render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    const live = container.querySelector('.pk-live')
    expect(live && screen.getAllByRole('status').includes(live as HTMLElement)).toBe(true)
    expect(live!.textContent).toBe('')
  })

  it('names a missing profile and other failures as learner §8 does', () => {
    expect(profileLoadError(new ApiError(404, 'not_found', 'x', undefined))).toBe('Profile not found')
    expect(profileLoadError(new ApiError(500, 'internal', 'x', undefined))).toBe('Failed to load profile')
    expect(profileLoadError(new ApiError(403, 'forbidden', 'x', undefined, 'You may only see your own profile'))).toBe('You may only see your own profile')
  })
})

describe('profile dialogs', () => {
  it('Add Certification labels every field and focuses the certification first', () => {
    render(<AddCertificationDialog open userId="u" forOther={false} onAdded={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Add Certification' })
    const certification = within(dialog).getByRole('combobox', { name: 'Certification' })
    expect(document.activeElement).toBe(certification)
    expect(within(dialog).getByRole('textbox', { name: 'Certification Number' })).toBeTruthy()
    for (const l of ['Obtained Date', 'Expiration Date']) expect((within(dialog).getByLabelText(l) as HTMLInputElement).type).toBe('date')
    expect(dialog.querySelectorAll('input[type="date"]')).toHaveLength(2)
    expect(dialog.textContent).toContain('Pick a certification to see its typical validity.')
  })

  it('Upload Proof clears the expiration on record when a later obtained date renews the period, so the server counts the new one', () => {
    const cert = { ...profile().certifications[3]!, obtained_date: '2025-01-10', expiration_date: '2027-01-10' }
    const typed = { ...cert, certification: { ...cert.certification, validity_period: 24 } }
    expect(clearsRecordedExpiration(typed, '2026-11-20', '2027-01-10')).toBe(true)
    // The same period, an expiration the user changed, a lifetime type, or a date half typed: kept.
    expect(clearsRecordedExpiration(typed, '2025-01-10', '2027-01-10')).toBe(false)
    expect(clearsRecordedExpiration(typed, '2026-11-20', '2028-11-20')).toBe(false)
    expect(clearsRecordedExpiration({ ...typed, certification: { ...typed.certification, validity_period: null } }, '2026-11-20', '2027-01-10')).toBe(false)
    expect(clearsRecordedExpiration(typed, '2026-1', '2027-01-10')).toBe(false)
  })

  it('Upload Proof names the certification, takes PDF, JPEG or PNG and prefills the dates', () => {
    const cert = profile().certifications[3]!
    render(<UploadProofDialog cert={cert} userId="u" forOther={false} onUploaded={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Upload Proof: NFPA 70E' })
    const file = within(dialog).getByLabelText('Proof File') as HTMLInputElement
    expect(file.accept).toBe('.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png')
    expect((within(dialog).getByLabelText('Obtained Date') as HTMLInputElement).value).toBe('2025-01-10')
    expect(dialog.textContent).toContain('PDF, JPEG or PNG, at most 10 MB.')
    expect(within(dialog).getByRole('button', { name: 'Upload Proof' }).getAttribute('type')).toBe('submit')
  })

  it('Add Certification says in a live region, which both dates name, what the expiration will be', () => {
    render(<AddCertificationDialog open userId="u" forOther={false} onAdded={noop} onClose={noop} />)
    expect(datePreview(screen.getByRole('dialog', { name: 'Add Certification' }))).toEqual({ text: 'Pick a certification to see when it expires.', describedByIt: [true, true] })
  })

  it('Upload Proof says, from the dates in the form, what the expiration will be and why', () => {
    const shown = (cert: UserCertification) => {
      const { unmount } = render(<UploadProofDialog cert={cert} userId="u" forOther={false} onUploaded={noop} onClose={noop} />)
      const preview = datePreview(screen.getByRole('dialog'))
      unmount()
      expect(preview.describedByIt).toEqual([true, true])
      return preview.text
    }
    const [, , lifetime, nfpa] = profile().certifications
    // The dates on record are in the form: kept as they are.
    expect(shown(nfpa!)).toBe('Expires Jan 10, 2027: the expiration date on record, as entered')
    expect(shown({ ...nfpa!, expiration_date: null })).toBe('Expires Jan 10, 2027: obtained date + 24 months')
    expect(shown(lifetime!)).toBe('Never expires: this certification type has no validity period')
  })

  it('Replace Proof says which file is replaced', () => {
    const cert = profile().certifications[0]!
    render(<UploadProofDialog cert={cert} userId="u" forOther={false} onUploaded={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Replace Proof: OSHA 10' })
    expect(dialog.textContent).toContain('The current proof, osha.pdf, is replaced by the new file.')
    // Only the file: the certification's dates stay.
    expect(within(dialog).queryByLabelText('Obtained Date')).toBeNull()
    expect(within(dialog).getByRole('button', { name: 'Replace Proof' }).getAttribute('type')).toBe('submit')
  })
})
