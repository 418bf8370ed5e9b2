import { describe, expect, it } from 'vitest'
import { renderEmail } from '../render.ts'
import { dueStateText, trainingDueEmail } from './training-due.ts'

const links = { dashboardUrl: 'https://portal.example.com/user-dashboard', teamDashboardUrl: 'https://portal.example.com/manager/dashboard' }

describe('dueStateText', () => {
  it('says the state in words as of the day', () => {
    expect(dueStateText('2030-03-06', '2030-03-01')).toBe('due in 5 days')
    expect(dueStateText('2030-03-02', '2030-03-01')).toBe('due in 1 day')
    expect(dueStateText('2030-03-01', '2030-03-01')).toBe('due today')
    expect(dueStateText('2030-02-28', '2030-03-01')).toBe('1 day overdue')
    expect(dueStateText('2030-02-26', '2030-03-01')).toBe('3 days overdue')
  })
})

describe('training-due digest e-mail', () => {
  it("lists the learner's items with kind, due date and state, most overdue first, and links to the dashboard", async () => {
    const mail = await renderEmail(
      trainingDueEmail({
        day: '2030-03-01',
        name: 'Lee Learner',
        own: [
          { title: 'Ladder Safety', kind: 'course', dueOn: '2030-03-06' },
          { title: 'Arc Flash <Quiz>', kind: 'exam', dueOn: '2030-02-26' },
          { title: 'First Aid', kind: 'course', dueOn: '2030-03-01' },
        ],
        team: [],
        ...links,
      }),
    )
    expect(mail.subject).toBe('Training due: 3 items')
    expect(mail.text).toContain('Hello Lee Learner,')
    const lines = mail.text.split('\n').filter((l) => l.startsWith('- '))
    expect(lines).toEqual([
      '- Arc Flash <Quiz> (exam), due February 26, 2030: 3 days overdue',
      '- First Aid (course), due March 1, 2030: due today',
      '- Ladder Safety (course), due March 6, 2030: due in 5 days',
    ])
    expect(mail.text).toContain('Your dashboard: https://portal.example.com/user-dashboard')
    expect(mail.html).toContain('href="https://portal.example.com/user-dashboard"')
    expect(mail.html).toContain('Arc Flash &lt;Quiz&gt;')
    expect(mail.html).not.toContain('<Quiz>')
    expect(mail.html).toContain('3 days overdue')
  })

  it("names each team member with a link to their member page for a manager's copy", async () => {
    const mail = await renderEmail(
      trainingDueEmail({
        day: '2030-03-01',
        name: null,
        own: [],
        team: [
          { title: 'Ladder Safety', kind: 'course', dueOn: '2030-02-22', learner: { name: 'Grace Hopper', url: 'https://portal.example.com/manager/technician/u1' } },
          { title: 'Arc Flash', kind: 'exam', dueOn: '2030-02-27', learner: { name: 'Alan Turing', url: 'https://portal.example.com/manager/technician/u2' } },
        ],
        ...links,
      }),
    )
    expect(mail.subject).toBe('Overdue training in your team: 2 items')
    expect(mail.text).toContain('Hello,')
    expect(mail.text).toContain('- Grace Hopper: Ladder Safety (course), due February 22, 2030: 7 days overdue (https://portal.example.com/manager/technician/u1)')
    expect(mail.text).toContain('Team dashboard: https://portal.example.com/manager/dashboard')
    expect(mail.html).toContain('href="https://portal.example.com/manager/technician/u2"')
    expect(mail.html).not.toContain('user-dashboard')
  })

  it('says both in one subject for a manager who is also reminded of their own training', () => {
    const t = trainingDueEmail({
      day: '2030-03-01',
      name: 'Pat',
      own: [{ title: 'A', kind: 'course', dueOn: '2030-03-01' }],
      team: [{ title: 'B', kind: 'exam', dueOn: '2030-02-01', learner: { name: 'Kim', url: 'https://portal.example.com/manager/technician/k' } }],
      ...links,
    })
    expect(t.subject).toBe('Training due: 1 item, and 1 overdue in your team')
  })

  it('refuses links that are not http(s) and an empty digest', () => {
    expect(() =>
      trainingDueEmail({ day: '2030-03-01', name: null, own: [{ title: 'A', kind: 'course', dueOn: '2030-03-01' }], team: [], ...links, dashboardUrl: 'javascript:x' }),
    ).toThrow(/http/)
    expect(() => trainingDueEmail({ day: '2030-03-01', name: null, own: [], team: [], ...links })).toThrow(/at least one/)
  })
})
