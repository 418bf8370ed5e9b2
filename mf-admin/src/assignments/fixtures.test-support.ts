import type { AssignmentReport, AssignmentReportRow, AssignmentRule, AssignmentStateCounts, Course, Exam, User } from '@portal/contracts'

export const NO_COUNTS: AssignmentStateCounts = { overdue: 0, due_soon: 0, open: 0, not_due_yet: 0, completed_late: 0, completed_on_time: 0, exempt: 0 }

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

export const ladderRule: AssignmentRule = {
  id: 3,
  item_kind: 'course',
  item_id: 9,
  item_title: 'Ladder Safety',
  audience: { kind: 'group', group: 'Field East' },
  audience_label: 'Group: Field East',
  due: { kind: 'relative', days: 30, from: 'hire' },
  recurrence: { kind: 'period', months: 12, window_days: 30 },
  due_soon_days: 7,
  reminders: { before_days: 7, manager_after_days: 7, operations_after_days: 14 },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  people: 12,
  counts: { ...NO_COUNTS, overdue: 2, due_soon: 1, open: 3, completed_on_time: 4, completed_late: 1, exempt: 1 },
}

export const lotoRule: AssignmentRule = {
  ...ladderRule,
  id: 4,
  item_kind: 'exam',
  item_id: 5,
  item_title: 'Lockout/Tagout Exam',
  audience: { kind: 'everyone' },
  audience_label: 'Everyone',
  due: { kind: 'absolute', date: '2027-01-31' },
  recurrence: { kind: 'certification', certification_type_id: 11, days_before: 60 },
  people: 40,
  counts: { ...NO_COUNTS, not_due_yet: 40 },
}

export const certificationTypes = {
  certifications: [
    {
      id: 11,
      name: 'Lockout/Tagout',
      code: 'LOTO',
      tier_level: 1,
      department: null,
      training_link: null,
      validity_period: 12,
      upload_required: true,
      is_active: true,
      description: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    },
  ],
}

export const courses: Course[] = [
  { id: 9, title: 'Ladder Safety', is_assigned_to_all: false, assigned_user_ids: [], modules: [], created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' },
  {
    id: 10,
    title: 'Arc Flash Basics',
    is_assigned_to_all: false,
    assigned_user_ids: [],
    modules: [],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  },
]

export const exams: Exam[] = []

const user = (n: number, name: string, over: Partial<User> = {}): User => ({
  id: uuid(n),
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@acme.test`,
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: 'Seattle',
  department: 'Service',
  user_group: 'Field East',
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
})

export const users: User[] = [user(1, 'Ann Lee'), user(2, 'Bo Diaz', { branch: 'Portland' }), user(3, 'Root Admin', { is_admin: true })]
export const groups = [{ id: uuid(50), name: 'Field East', created_at: '2026-01-01T00:00:00.000Z' }]

const row = (n: number, name: string, over: Partial<AssignmentReportRow> = {}): AssignmentReportRow => ({
  rule_id: 3,
  item_kind: 'course',
  item_id: 9,
  item_title: 'Ladder Safety',
  state: 'overdue',
  assigned_on: '2026-01-02',
  due_on: '2026-02-01',
  opens_on: null,
  completed_on: null,
  next_due_on: null,
  recurring: true,
  days_left: -5,
  exempt_reason: null,
  user_id: uuid(n),
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@acme.test`,
  branch: 'Seattle',
  department: 'Service',
  ...over,
})

export const report = (over: Partial<AssignmentReport> = {}): AssignmentReport => ({
  rule: ladderRule,
  today: '2026-02-06',
  counts: ladderRule.counts,
  total: 3,
  rows: [
    row(1, 'Ann Lee'),
    row(2, 'Bo Diaz', { state: 'completed_late', completed_on: '2026-02-03', next_due_on: '2027-02-03', days_left: 362, branch: 'Portland' }),
    row(4, 'Cy Park', { state: 'exempt', exempt_reason: 'On long-term leave', department: null }),
  ],
  ...over,
})
