import { CertificationDashboard, ComplianceForecast, DashboardItem, NotificationConfig, NotificationLog, type Branch } from '@portal/contracts'

/** Test data of the notification screen, shaped (and checked) by the contracts. */
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

export const config = (id: number, over: Partial<NotificationConfig> = {}): NotificationConfig =>
  NotificationConfig.parse({
    id,
    branch: 'Portland',
    department: 'Service',
    manager_email: null,
    operations_manager_email: null,
    additional_email_1: null,
    additional_email_2: null,
    is_active: false,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...over,
  })

export const log = (id: number, over: Partial<NotificationLog> = {}): NotificationLog =>
  NotificationLog.parse({
    id,
    sent_at: '2026-11-25T08:00:00.000Z',
    technician: { id: uuid(id), name: `Tech ${id}`, branch: 'Seattle', department: 'Service' },
    certification: { id: 3, code: 'OSHA10', name: 'OSHA 10' },
    technician_certification_id: id,
    notification_type: '7_day',
    recipient_emails: [`tech${id}@example.com`],
    status: 'sent',
    error: null,
    expiration_date: '2026-12-02',
    days_until_expiry: 7,
    acknowledged_at: null,
    delivered_at: '2026-11-25T08:00:05.000Z',
    ...over,
  })

export const expiredItem = (id: number, branch: Branch, days: number, over: Partial<DashboardItem['user']> = {}): DashboardItem =>
  DashboardItem.parse({
    technician_certification_id: id,
    user: { id: uuid(id), name: `Tech ${id}`, email: `tech${id}@example.com`, branch, department: 'Service', notifications_paused: false, ...over },
    certification: { id: 9, name: 'First Aid', code: 'FA', tier_level: 0 },
    expiration_date: '2026-11-20',
    days_until_expiry: days,
  })

const figures = (technicians: number, compliant: number) => ({
  technicians,
  compliant,
  non_compliant: technicians - compliant,
  expired_certifications: technicians - compliant,
  expiring_30_days: 1,
  percentage: technicians === 0 ? 100 : Math.round((compliant / technicians) * 100),
})

export const dashboard: CertificationDashboard = CertificationDashboard.parse({
  expired: [expiredItem(1, 'Seattle', -3, { notifications_paused: true }), expiredItem(2, 'Portland', -40)],
  critical: [],
  warning: [],
  notice: [],
  counts: { expired: 2, critical: 0, warning: 0, notice: 0 },
  compliance: {
    organisation: figures(10, 8),
    branches: [
      { branch: 'Portland', ...figures(5, 5) },
      { branch: 'Seattle', ...figures(4, 3) },
      { branch: 'Anchorage', ...figures(1, 0) },
      { branch: 'Tri-Cities', ...figures(0, 0) },
    ],
  },
  generated_on: '2026-11-25',
})

const person = (n: number, name: string, days: number) => ({
  user_id: uuid(n),
  name,
  department: 'Service',
  certification: { id: 9, code: 'FA', name: 'First Aid' },
  technician_certification_id: n,
  expiration_date: '2027-01-01',
  days_until_expiry: days,
})

export const forecast: ComplianceForecast = ComplianceForecast.parse({
  generated_on: '2026-11-25',
  horizons: [30, 60, 90],
  branches: [
    {
      branch: 'Portland',
      technicians: 5,
      compliant_now: 5,
      percentage_now: 100,
      horizons: [
        { days: 30, falling_out: [person(1, 'Pat Portland', 12)], compliant: 4, percentage: 80 },
        { days: 60, falling_out: [person(1, 'Pat Portland', 12)], compliant: 4, percentage: 80 },
        { days: 90, falling_out: [person(1, 'Pat Portland', 12), person(2, 'Quinn Portland', 75)], compliant: 3, percentage: 60 },
      ],
    },
    { branch: 'Seattle', technicians: 0, compliant_now: 0, percentage_now: 100, horizons: [30, 60, 90].map((days) => ({ days, falling_out: [], compliant: 0, percentage: 100 })) },
  ],
})
