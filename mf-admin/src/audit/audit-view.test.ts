import { describe, expect, it } from 'vitest'
import { AUDIT_SOURCES, SOURCE_LABELS, auditQuery, detailsText, emptyFilter, historyLink, mergeTrails } from './audit-view.ts'

const entry = (service: string, id: number, at: string) => ({ id, service, at, actor_id: 'a', actor_name: 'Ada', action: 'x', target: 't', details: {} })

describe('audit trail view', () => {
  it('asks only for the filters given', () => {
    expect(auditQuery(emptyFilter())).toBe('')
    expect(auditQuery({ actor: ' Ada ', action: '', from: '2026-11-01', to: '' })).toBe('?actor=Ada&from=2026-11-01')
  })

  it('reads certs’ trail beside the others, each named when it does not answer', () => {
    expect(AUDIT_SOURCES).toEqual(['identity', 'learning', 'notify', 'certs'])
    expect(AUDIT_SOURCES.map((s) => SOURCE_LABELS[s])).toEqual(['Users & groups', 'Exams & courses', 'E-mail settings', 'Certifications & revenue'])
  })

  it('merges the services’ trails newest first', () => {
    const merged = mergeTrails([
      [entry('identity', 1, '2026-11-02T00:00:00.000Z')],
      [entry('notify', 5, '2026-11-03T00:00:00.000Z'), entry('notify', 4, '2026-11-01T00:00:00.000Z')],
    ])
    expect(merged.map((e) => `${e.service}${e.id}`)).toEqual(['notify5', 'identity1', 'notify4'])
    const withCerts = mergeTrails([
      [entry('notify', 2, '2026-11-02T00:00:00.000Z')],
      [entry('certs', 9, '2026-11-02T00:00:00.000Z'), entry('certs', 8, '2026-11-04T00:00:00.000Z')],
    ])
    expect(withCerts.map((e) => `${e.service}${e.id}`)).toEqual(['certs8', 'certs9', 'notify2'])
  })

  it('writes details as one line', () => {
    expect(detailsText({ is_active: false, recipient_emails: ['a@x', 'b@x'], scope: { branches: [] }, gone: undefined })).toBe(
      'is_active: false; recipient_emails: a@x, b@x; scope: {"branches":[]}',
    )
  })

  it('links a certification’s renewal, replaced proof or deletion to its history on the technician’s profile (decision 0044)', () => {
    const kept = {
      ...entry('certs', 3, '2026-11-02T00:00:00.000Z'),
      action: 'certification.renewed',
      details: { user_id: 'u-1', user_certification_id: 9, certification_id: 4, period_id: 12 },
    }
    expect(historyLink(kept)).toBe('/admin/technician/u-1#certification-history-4')
    expect(historyLink({ ...kept, details: { user_id: 'u-1', certification_id: 4 } })).toBeNull()
    expect(historyLink({ ...kept, service: 'identity' })).toBeNull()
    expect(historyLink(entry('certs', 4, '2026-11-02T00:00:00.000Z'))).toBeNull()
  })
})
