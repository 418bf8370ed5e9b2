import { escapeHtml, type EmailTemplate } from '../render.ts'
import { ADMIN_FOOTER, adminTextFooter, formatDay, layout } from './layout.ts'

export interface ExamLine {
  examId: number
  name: string
  attempts: number
  bestScore: number | null
  passed: boolean
}
export interface CourseLine {
  courseId: number
  name: string
  progress: number
  completedAt: string | null
}
/** A member of the reported group. */
export interface ReportMember {
  id: string
  name: string
  email: string
}
export interface MemberReport {
  member: ReportMember
  exams: ExamLine[]
  courses: CourseLine[]
}
/** What a group report shows (built by group-reports' buildGroupReport). */
export interface GroupReport {
  group: string
  members: MemberReport[]
  totals: { members: number; examsPassed: number; examsTracked: number; coursesCompleted: number; coursesTracked: number }
}

const cell = (text: string, bold = false) => `<td style="padding:4px 6px;border-bottom:1px solid #e5e7eb${bold ? ';font-weight:bold' : ''}">${escapeHtml(text)}</td>`
const head = (labels: string[]) => `<tr style="text-align:left;color:#6b7280">${labels.map((l) => `<th style="padding:4px 6px">${escapeHtml(l)}</th>`).join('')}</tr>`

const examResult = (e: GroupReport['members'][number]['exams'][number]) =>
  e.attempts === 0 ? ['Not taken', '0', '—'] : [e.passed ? 'Passed' : 'Not passed', String(e.attempts), `${e.bestScore}%`]
const courseResult = (c: GroupReport['members'][number]['courses'][number]) =>
  c.completedAt ? ['Completed', `completed on ${formatDay(c.completedAt)}`] : [c.progress > 0 ? `${c.progress}% complete` : 'Not started', '']

/** The group report (what daily, weekly and monthly rules and Send Test Report mail): per member, tracked exams and courses, with totals. */
export function groupReportEmail(report: GroupReport, opts: { frequency: string; at: Date; test?: boolean }): EmailTemplate {
  const label = opts.test ? 'Test report' : `${opts.frequency[0]!.toUpperCase()}${opts.frequency.slice(1)} report`
  const subject = `${label}: ${report.group} – ${formatDay(opts.at.toISOString())}`
  const t = report.totals
  const totals = `${t.members} member${t.members === 1 ? '' : 's'}; exams passed: ${t.examsPassed} of ${t.members * t.examsTracked}; courses completed: ${t.coursesCompleted} of ${t.members * t.coursesTracked}`
  const sections = report.members
    .map((m) => {
      const rows: string[] = []
      if (m.exams.length) {
        rows.push(head(['Exam', 'Result', 'Attempts', 'Best score']))
        for (const e of m.exams)
          rows.push(
            `<tr>${cell(e.name, true)}${examResult(e)
              .map((v) => cell(v))
              .join('')}</tr>`,
          )
      }
      if (m.courses.length) {
        rows.push(head(['Course', 'Progress', '', '']))
        for (const c of m.courses)
          rows.push(
            `<tr>${cell(c.name, true)}${courseResult(c)
              .map((v) => cell(v))
              .join('')}${cell('')}</tr>`,
          )
      }
      return `      <mj-section padding="8px 0">
        <mj-column>
          <mj-text font-weight="bold" font-size="16px">${escapeHtml(m.member.name)} <span style="font-weight:normal;color:#6b7280">${escapeHtml(m.member.email)}</span></mj-text>
          <mj-table cellpadding="0" font-size="14px">
            ${rows.join('\n            ')}
          </mj-table>
        </mj-column>
      </mj-section>`
    })
    .join('\n')
  const mjml = layout({
    title: subject,
    preview: totals,
    footer: ADMIN_FOOTER,
    body: `      <mj-section>
        <mj-column>
          <mj-text font-size="18px" font-weight="bold">${escapeHtml(`${label} for the group ${report.group}`)}</mj-text>
          <mj-text>${escapeHtml(totals)}</mj-text>
        </mj-column>
      </mj-section>
${sections}`,
  })
  const text = [
    `${label} for the group ${report.group}`,
    totals,
    ...report.members.map((m) =>
      [
        '',
        `${m.member.name} <${m.member.email}>`,
        ...m.exams.map((e) => {
          const [result, attempts, best] = examResult(e)
          return `  Exam ${e.name}: ${result}, attempts ${attempts}, best score ${best}`
        }),
        ...m.courses.map((c) => {
          const [progress, done] = courseResult(c)
          return `  Course ${c.name}: ${progress}${done ? ` (${done})` : ''}`
        }),
      ].join('\n'),
    ),
  ].join('\n')
  return { subject, mjml, text: `${text}\n${adminTextFooter}` }
}
