import type { UserCertification } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { profile, TODAY } from '../test/fixtures.ts'
import { AddCertificationDialog } from './AddCertificationDialog.tsx'
import { ProfileBody } from './ProfileBody.tsx'
import { profileLoadError } from './TechnicianProfilePage.tsx'
import { UploadProofDialog, clearsRecordedExpiration } from './UploadProofDialog.tsx'

const render = (node: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>)
const noop = () => undefined
/** The aria-describedby of every input of a type, in order. */
const describedBy = (html: string, type: string) => [...html.matchAll(new RegExp(`<input[^>]*type="${type}"[^>]*>`, 'g'))].map((m) => / aria-describedby="([^"]*)"/.exec(m[0])?.[1] ?? '')

describe('technician profile page', () => {
  it('shows the header facts, the notifications switch and four revenue cards without zeros', () => {
    const html = render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    for (const fact of ['Pat Portland', 'E-1001', 'Portland', 'Service', 'Mar 15, 2021', 'Current tier: Tier 1']) expect(html).toContain(fact)
    // The address may wrap before its @ only (a <wbr>, no text of its own).
    expect(html).toContain('<dd>tech.portland<wbr/>@example.com</dd>')
    expect(html).toMatch(/role="switch"[^>]*aria-checked="true"/)
    expect(html.match(/No revenue recorded/g)).toHaveLength(4)
    expect(html).not.toContain('$0.00')
  })

  it('says statuses and expiration badges in words, coloured by band', () => {
    const html = render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    expect(html).toContain('Upcoming Expirations')
    expect(html).toMatch(/ct-tone--red">Expired<\/span>/)
    expect(html).toContain('ct-tone--red">Expired 5 days ago')
    expect(html).toContain('ct-tone--red">Critical: expires in 6 days')
    expect(html).toMatch(/ct-tone--green">Completed/)
    expect(html).toMatch(/ct-tone--yellow">Not Uploaded/)
    expect(html).toContain('Never (lifetime)')
  })

  it('says why each badge shows: a tooltip, and the rest of the sentence for screen readers', () => {
    const html = render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    const badge = (tone: string, shown: string, description: string) =>
      `title="${description}" class="ct-badge ct-tone--${tone}">${shown}</span><span class="pk-visually-hidden">${description.slice(shown.length)}</span>`
    // OSHA 10: expired; its status and its badge.
    expect(html).toContain(badge('red', 'Expired', 'Expired 5 days ago: expiry Nov 20, 2026'))
    expect(html).toContain(badge('red', 'Expired 5 days ago', 'Expired 5 days ago: expiry Nov 20, 2026'))
    // First Aid: critical, with its proof.
    expect(html).toContain(badge('red', 'Critical: expires in 6 days', 'Critical: expires in 6 days (Dec 1, 2026); critical from 10 days before expiry'))
    expect(html).toContain(badge('blue', 'Uploaded', 'Uploaded: proof first-aid.pdf uploaded Jan 2, 2026, not verified yet'))
    expect(html).toContain(badge('green', 'Completed', 'Completed: this type needs no proof file'))
    expect(html).toContain(badge('yellow', 'Not Uploaded', 'Not Uploaded: this type needs a proof file and none is uploaded yet'))
    // Upcoming Expirations carries the same descriptions.
    const upcoming = html.slice(html.indexOf('Upcoming Expirations'), html.indexOf('Tier Progress'))
    expect(upcoming).toContain(badge('red', 'Expired 5 days ago', 'Expired 5 days ago: expiry Nov 20, 2026'))
  })

  it('groups the cards under New Hire and Tier 1 to 3 with their actions', () => {
    const html = render(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    for (const h of ['New Hire', 'Tier 1', 'Tier 2', 'Tier 3']) expect(html).toMatch(new RegExp(`<h3[^>]*>${h} <span`))
    expect(html).toContain('No Tier 3 certifications yet.')
    expect(html).toContain('>Add Certification</button>')
    for (const b of ['Upload', 'Replace', 'View', 'Download', 'Delete Proof', 'Delete']) expect(html).toContain(`>${b}</button>`)
    expect(html).toMatch(/aria-expanded="false"[^>]*>View</)
    expect(html).toContain('Progress to Tier 2')
    expect(html).toMatch(/role="progressbar"[^>]*aria-valuenow="50"/)
  })

  it('gives a manager reading a profile only View, Download and Delete Proof, and no switch', () => {
    const html = render(
      <ProfileBody profile={profile({ permissions: { can_edit: false, can_toggle_notifications: false, can_delete_files: true } })} isOwn={false} today={TODAY} />,
    )
    expect(html).not.toContain('role="switch"')
    expect(html).toContain('Expiration notifications: On')
    expect(html).not.toContain('>Add Certification</button>')
    expect(html).not.toContain('>Upload</button>')
    expect(html).not.toContain('>Delete</button>')
    expect(html).toContain('>Delete Proof</button>')
    expect(html).toContain('>Download</button>')
  })

  it('keeps certification features for later while one’s own branch or department is missing', () => {
    const p = profile()
    const html = render(<ProfileBody profile={{ ...p, user: { ...p.user, department: null } }} isOwn today={TODAY} />)
    expect(html).toContain('Choose your branch and department on your dashboard')
    expect(html).not.toContain('>Add Certification</button>')
  })

  it('shows a pause with its end date', () => {
    const p = profile()
    const html = render(
      <ProfileBody profile={{ ...p, tier: { ...p.tier, notifications_paused: true, notifications_paused_until: '2026-12-25T10:00:00.000Z' } }} isOwn today={TODAY} />,
    )
    expect(html).toMatch(/role="switch"[^>]*aria-checked="false"/)
    expect(html).toContain('Paused until Dec 25, 2026')
  })

  it('keeps an empty status region for its notices', () => {
    expect(render(<ProfileBody profile={profile()} isOwn today={TODAY} />)).toContain('<div role="status" class="pk-live"></div>')
  })

  it('names a missing profile and other failures as learner §8 does', () => {
    expect(profileLoadError(new ApiError(404, 'not_found', 'x', undefined))).toBe('Profile not found')
    expect(profileLoadError(new ApiError(500, 'internal', 'x', undefined))).toBe('Failed to load profile')
    expect(profileLoadError(new ApiError(403, 'forbidden', 'x', undefined, 'You may only see your own profile'))).toBe('You may only see your own profile')
  })
})

describe('profile dialogs', () => {
  it('Add Certification labels every field and focuses the certification first', () => {
    const html = render(<AddCertificationDialog open userId="u" forOther={false} onAdded={noop} onClose={noop} />)
    expect(html).toContain('>Add Certification</h2>')
    for (const l of ['Certification', 'Certification Number', 'Obtained Date', 'Expiration Date']) expect(html).toContain(`>${l}</label>`)
    expect(html.indexOf('<select')).toBeLessThan(html.indexOf('<input'))
    expect(html.match(/type="date"/g)).toHaveLength(2)
    expect(html).toContain('Pick a certification to see its typical validity.')
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
    const html = render(<UploadProofDialog cert={cert} userId="u" forOther={false} onUploaded={noop} onClose={noop} />)
    expect(html).toContain('>Upload Proof: NFPA 70E</h2>')
    expect(html).toContain('accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"')
    expect(html).toContain('value="2025-01-10"')
    expect(html).toContain('PDF, JPEG or PNG, at most 10 MB.')
    expect(html).toMatch(/type="submit"[^>]*>Upload Proof</)
  })

  it('Add Certification says in a live region, which both dates name, what the expiration will be', () => {
    const html = render(<AddCertificationDialog open userId="u" forOther={false} onAdded={noop} onClose={noop} />)
    const preview = /<p id="([^"]+)" aria-live="polite" aria-atomic="true"[^>]*>([^<]*)<\/p>/.exec(html)
    expect(preview?.[2]).toBe('Pick a certification to see when it expires.')
    expect(describedBy(html, 'date')).toEqual([expect.stringContaining(preview![1]!), expect.stringContaining(preview![1]!)])
  })

  it('Upload Proof says, from the dates in the form, what the expiration will be and why', () => {
    const shown = (cert: UserCertification) => {
      const html = render(<UploadProofDialog cert={cert} userId="u" forOther={false} onUploaded={noop} onClose={noop} />)
      const preview = /<p id="([^"]+)" aria-live="polite" aria-atomic="true"[^>]*>([^<]*)<\/p>/.exec(html)
      expect(describedBy(html, 'date').every((ids) => ids.split(' ').includes(preview![1]!))).toBe(true)
      return preview![2]!
    }
    const [, , lifetime, nfpa] = profile().certifications
    // The dates on record are in the form: kept as they are.
    expect(shown(nfpa!)).toBe('Expires Jan 10, 2027: the expiration date on record, as entered')
    expect(shown({ ...nfpa!, expiration_date: null })).toBe('Expires Jan 10, 2027: obtained date + 24 months')
    expect(shown(lifetime!)).toBe('Never expires: this certification type has no validity period')
  })

  it('Replace Proof says which file is replaced', () => {
    const cert = profile().certifications[0]!
    const html = render(<UploadProofDialog cert={cert} userId="u" forOther={false} onUploaded={noop} onClose={noop} />)
    expect(html).toContain('>Replace Proof: OSHA 10</h2>')
    expect(html).toContain('The current proof, osha.pdf, is replaced by the new file.')
    // Only the file: the certification's dates stay.
    expect(html).not.toContain('>Obtained Date</label>')
    expect(html).toMatch(/type="submit"[^>]*>Replace Proof</)
  })
})
