import { escapeHtml, type EmailTemplate } from '../render.ts'
import { ADMIN_FOOTER, adminTextFooter, formatDay, layout } from './layout.ts'

/** A learner as the admin e-mails name them: name and address, or only what the projection knows. */
export interface Learner {
  name: string
  email: string | null
}
const who = (l: Learner) => (l.email ? `${l.name} (${l.email})` : l.name)

/** A two-column fact table (label, value), user data escaped. */
export const factTable = (rows: [string, string][]) =>
  `<mj-table cellpadding="4px">
${rows.map(([k, v]) => `            <tr><td style="color:#6b7280;width:40%">${escapeHtml(k)}</td><td style="font-weight:bold">${escapeHtml(v)}</td></tr>`).join('\n')}
          </mj-table>`

const completionEmail = (subject: string, lead: string, facts: [string, string][]): EmailTemplate => {
  const mjml = layout({
    title: subject,
    preview: lead,
    footer: ADMIN_FOOTER,
    body: `      <mj-section>
        <mj-column>
          <mj-text>${escapeHtml(lead)}</mj-text>
          ${factTable(facts)}
        </mj-column>
      </mj-section>`,
  })
  const text = `${lead}\n\n${facts.map(([k, v]) => `${k}: ${v}`).join('\n')}\n${adminTextFooter}`
  return { subject, mjml, text }
}

/** To admin e-mails of type exam_completion: who finished which exam, the score and pass or fail. */
export function examCompletedEmail(input: { learner: Learner; examName: string; score: number; passed: boolean; attemptNumber: number; submittedAt: string }): EmailTemplate {
  const result = input.passed ? 'Passed' : 'Failed'
  return completionEmail(`Exam completed: ${input.learner.name} – ${input.examName} (${result})`, `${who(input.learner)} completed the exam "${input.examName}".`, [
    ['Learner', who(input.learner)],
    ['Exam', input.examName],
    ['Score', `${input.score}%`],
    ['Result', result],
    ['Attempt', String(input.attemptNumber)],
    ['Completed on', formatDay(input.submittedAt)],
  ])
}

/** To admin e-mails of type course_completion: who completed which course, and when. */
export function courseCompletedEmail(input: { learner: Learner; courseTitle: string; completedAt: string }): EmailTemplate {
  return completionEmail(`Course completed: ${input.learner.name} – ${input.courseTitle}`, `${who(input.learner)} completed the course "${input.courseTitle}".`, [
    ['Learner', who(input.learner)],
    ['Course', input.courseTitle],
    ['Completed on', formatDay(input.completedAt)],
  ])
}
