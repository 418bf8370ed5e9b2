// @vitest-environment happy-dom
import { CertificationPeriod, TechnicianProfile } from '@portal/contracts'
import { render, screen, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { figure, renderWithClient, held, profile, TODAY } from '../test/index.ts'
import { CertificationHistory, historyAnchor } from './CertificationHistory.tsx'
import { ProfileBody } from './ProfileBody.tsx'

const period = (id: number, over: Partial<CertificationPeriod> = {}): CertificationPeriod =>
  CertificationPeriod.parse({
    id,
    user_certification_id: 1,
    certification_id: 1,
    certification_number: 'N-1',
    obtained_date: '2023-01-10',
    expiration_date: '2025-01-10',
    notes: null,
    file_path: `/technician/certifications/1/history/${id}/file`,
    file_name: 'first.pdf',
    file_size: 120_000,
    file_type: 'application/pdf',
    uploaded_at: '2023-01-11T00:00:00.000Z',
    verified_at: null,
    ended_at: '2025-01-12T15:00:00.000Z',
    ended_by: { id: '0b3b5a52-95b4-4d2b-9f39-4b0c9f0f1a11', name: 'Pat Portland' },
    reason: 'renewed',
    ...over,
  })

describe('a certification’s history (issue 23: history, not overwrite)', () => {
  it('is a closed disclosure saying there are no earlier periods when there are none', () => {
    const { container } = render(
      <>
        <h3 id="h">Cert 1</h3>
        <CertificationHistory history={[]} certificationId={1} certificationName="Cert 1" describedBy="h" />
      </>,
    )
    const toggle = screen.getByRole('button', { name: 'History (0 earlier periods)', expanded: false, description: 'Cert 1' })
    expect(toggle.className).toBe('ct-history-toggle')
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!
    expect(panel.hidden).toBe(true)
    expect(within(panel).getByText('No earlier periods')).toBeTruthy()
    expect(container.querySelector(`#${historyAnchor(1)}`)?.contains(toggle)).toBe(true)
  })

  it('lists each earlier period, newest first: dates, number, proof with its download, and who ended it, when and why', async () => {
    render(
      <CertificationHistory
        history={[
          period(3, {
            reason: 'deleted',
            obtained_date: '2025-01-05',
            expiration_date: '2027-01-10',
            file_path: null,
            file_name: null,
            file_size: null,
            ended_at: '2026-03-02T10:00:00.000Z',
            ended_by: { id: '0b3b5a52-95b4-4d2b-9f39-4b0c9f0f1a11', name: 'Ada Admin' },
          }),
          period(2, { reason: 'replaced', file_name: 'blurry.jpg', file_size: 2_400_000, ended_at: '2024-02-01T10:00:00.000Z' }),
          period(1, {
            obtained_date: null,
            expiration_date: null,
            certification_number: null,
            file_path: null,
            file_name: null,
            file_size: null,
            ended_at: '2023-01-09T10:00:00.000Z',
          }),
        ]}
        certificationId={1}
        certificationName="Cert 1"
        describedBy="h"
      />,
    )
    const toggle = screen.getByRole('button', { name: 'History (3 earlier periods)', expanded: false })
    expect(screen.queryByRole('list')).toBeNull()
    await userEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const items = within(screen.getByRole('list')).getAllByRole('listitem')
    expect(items).toHaveLength(3)
    const [deleted, replaced, renewed] = items as [HTMLElement, HTMLElement, HTMLElement]
    expect(within(deleted).getByText('Deleted on Mar 2, 2026 by Ada Admin')).toBeTruthy()
    expect(figure(deleted, 'Obtained').textContent).toBe('Jan 5, 2025')
    expect(figure(deleted, 'Expiry').textContent).toBe('Jan 10, 2027')
    expect(figure(deleted, 'Proof').textContent).toBe('None')
    expect(within(deleted).queryByRole('button')).toBeNull()
    expect(deleted.textContent).not.toContain('Download')
    expect(within(replaced).getByText('Proof replaced on Feb 1, 2024 by Pat Portland')).toBeTruthy()
    expect(figure(replaced, 'Proof').textContent).toBe('blurry.jpg, 2.3 MB')
    expect(figure(replaced, 'Certification Number').textContent).toBe('N-1')
    expect(within(replaced).getByRole('button', { name: 'Download blurry.jpg, the proof of Cert 1 obtained Jan 10, 2023' }).textContent).toBe('Download')
    expect(within(renewed).getByText('Renewed on Jan 9, 2023 by Pat Portland')).toBeTruthy()
    expect(figure(renewed, 'Obtained').textContent).toBe('—')
    expect(figure(renewed, 'Expiry').textContent).toBe('—')
  })

  it('shows on every card of the profile and the member page, and lists deleted certifications with their history', () => {
    const p = profile()
    const withHistory = TechnicianProfile.parse({
      ...p,
      certifications: [held(1, { history: [period(7)] }), ...p.certifications.filter((c) => c.id !== 1)],
      deleted_certifications: [{ certification_id: 42, user_certification_id: 9, name: 'Forklift', code: 'FL', history: [period(8, { reason: 'deleted', certification_id: 42 })] }],
    })
    const { container } = renderWithClient(<ProfileBody profile={withHistory} isOwn={false} today={TODAY} />)
    // Every card has its History; older servers send no history: "No earlier periods".
    const toggles = screen.getAllByRole('button', { name: /^History \(/ })
    expect(toggles).toHaveLength(withHistory.certifications.length + 1)
    expect(toggles.map((t) => t.textContent)).toContain('History (1 earlier period)')
    expect(screen.getAllByText('No earlier periods').length).toBeGreaterThan(0)
    const deleted = screen.getByRole('region', { name: 'Deleted Certifications (1)' })
    expect(within(deleted).getByRole('heading', { level: 3, name: 'Deleted Certifications (1)' })).toBeTruthy()
    expect(within(deleted).getByText(/their history is kept for the audit trail/)).toBeTruthy()
    expect(within(deleted).getByRole('heading', { level: 4, name: 'Forklift (FL)' })).toBeTruthy()
    expect(within(deleted).getByText('Deleted on Jan 12, 2025 by Pat Portland')).toBeTruthy()
    expect(container.querySelector(`#${historyAnchor(42)}`)).not.toBeNull()
  })
})
