import { daysUntil } from '@portal/contracts'
import { escapeHtml, type EmailTemplate } from '../render.ts'
import { PRODUCT_NAME, formatDay, layout } from './layout.ts'

/** One assignment in a training-due digest. */
export interface TrainingDueRow {
  title: string
  kind: 'course' | 'exam'
  /** `YYYY-MM-DD`. */
  dueOn: string
  /** Team rows (manager and operations copies): whose assignment it is and their page on the portal. */
  learner?: { name: string; url: string }
}

export interface TrainingDueDigest {
  /** The company's day the digest is about (`YYYY-MM-DD`): the states are said as of it. */
  day: string
  /** The recipient's name when they are the learner of the own rows. */
  name: string | null
  /** The recipient's own assignments (learner reminders). */
  own: TrainingDueRow[]
  /** Their team's overdue assignments (manager and operations copies). */
  team: TrainingDueRow[]
  /** The learner dashboard (leads with what is due and overdue). */
  dashboardUrl: string
  /** The manager's team dashboard. */
  teamDashboardUrl: string
}

const FOOTER = `You receive this e-mail because training assigned in the ${PRODUCT_NAME} to you or to people you manage is due or overdue. Completing it stops these reminders.`

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
const httpUrl = (url: string) => {
  const protocol = new URL(url).protocol
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error(`links must be http(s), got ${protocol}`)
  return url
}

/** The state of an assignment in words on `day`: "due in 5 days", "due today", "3 days overdue". */
export function dueStateText(dueOn: string, day: string): string {
  const left = daysUntil(dueOn, day)
  if (left > 0) return `due in ${plural(left, 'day')}`
  if (left === 0) return 'due today'
  return `${plural(-left, 'day')} overdue`
}

const KIND: Record<TrainingDueRow['kind'], string> = { course: 'Course', exam: 'Exam' }
/** Most overdue first, then by title and person. */
const ordered = (rows: TrainingDueRow[]) =>
  [...rows].sort((a, b) => a.dueOn.localeCompare(b.dueOn) || a.title.localeCompare(b.title) || (a.learner?.name ?? '').localeCompare(b.learner?.name ?? ''))

const cell = (html: string, bold = false) => `<td style="padding:4px 6px;border-bottom:1px solid #e5e7eb;vertical-align:top${bold ? ';font-weight:bold' : ''}">${html}</td>`
const head = (labels: string[]) => `<tr style="text-align:left;color:#6b7280">${labels.map((l) => `<th style="padding:4px 6px">${escapeHtml(l)}</th>`).join('')}</tr>`
const stateCell = (dueOn: string, day: string) => {
  const overdue = daysUntil(dueOn, day) < 0
  return `<td style="padding:4px 6px;border-bottom:1px solid #e5e7eb;vertical-align:top;color:${overdue ? '#b91c1c' : '#a16207'}">${escapeHtml(dueStateText(dueOn, day))}</td>`
}
const button = (href: string, label: string) =>
  `          <mj-button href="${escapeHtml(href)}" background-color="#1d4ed8" color="#ffffff" font-size="15px" border-radius="4px">${escapeHtml(label)}</mj-button>`

/**
 * The training-due digest: every reminder of one recipient and day in one e-mail. The learner's own
 * assignments (title, kind, due date, state) with a link to their dashboard; for managers and the
 * operations address, their team's overdue assignments with each person's name linking to their
 * member page. Subject: "Training due: 3 items" / "Overdue training in your team: 2 items".
 */
export function trainingDueEmail(d: TrainingDueDigest): EmailTemplate {
  if (d.own.length === 0 && d.team.length === 0) throw new Error('a training-due digest needs at least one item')
  const own = ordered(d.own)
  const team = ordered(d.team)
  const dashboardUrl = httpUrl(d.dashboardUrl)
  const teamDashboardUrl = httpUrl(d.teamDashboardUrl)
  for (const r of team) httpUrl(r.learner!.url)
  const subject =
    own.length && team.length
      ? `Training due: ${plural(own.length, 'item')}, and ${team.length} overdue in your team`
      : own.length
        ? `Training due: ${plural(own.length, 'item')}`
        : `Overdue training in your team: ${plural(team.length, 'item')}`
  const greeting = d.name?.trim() && own.length ? `Hello ${d.name.trim()},` : 'Hello,'
  const ownLead = own.some((r) => daysUntil(r.dueOn, d.day) < 0)
    ? `You have ${plural(own.length, 'training item')} to complete, some of it overdue:`
    : `You have ${plural(own.length, 'training item')} due soon:`
  const teamLead = `${plural(team.length, 'training item')} in your team ${team.length === 1 ? 'is' : 'are'} overdue:`

  const sections: string[] = []
  const text = (html: string) => `          <mj-text>${html}</mj-text>`
  if (own.length) {
    const rows = own.map((r) => `<tr>${cell(escapeHtml(r.title), true)}${cell(KIND[r.kind])}${cell(escapeHtml(formatDay(r.dueOn)))}${stateCell(r.dueOn, d.day)}</tr>`)
    sections.push(`      <mj-section padding="8px 0">
        <mj-column>
${text(escapeHtml(greeting))}
${text(escapeHtml(ownLead))}
          <mj-table cellpadding="0" font-size="14px">
            ${[head(['Training', 'Kind', 'Due date', 'State']), ...rows].join('\n            ')}
          </mj-table>
${button(dashboardUrl, 'Open my dashboard')}
        </mj-column>
      </mj-section>`)
  }
  if (team.length) {
    const rows = team.map(
      (r) =>
        `<tr>${cell(`<a href="${escapeHtml(r.learner!.url)}" style="color:#1d4ed8">${escapeHtml(r.learner!.name)}</a>`, true)}${cell(escapeHtml(r.title))}${cell(KIND[r.kind])}${cell(escapeHtml(formatDay(r.dueOn)))}${stateCell(r.dueOn, d.day)}</tr>`,
    )
    sections.push(`      <mj-section padding="8px 0">
        <mj-column>
${own.length ? '' : text(escapeHtml(greeting)) + '\n'}${text(escapeHtml(teamLead))}
          <mj-table cellpadding="0" font-size="14px">
            ${[head(['Person', 'Training', 'Kind', 'Due date', 'State']), ...rows].join('\n            ')}
          </mj-table>
${button(teamDashboardUrl, 'Open the team dashboard')}
        </mj-column>
      </mj-section>`)
  }
  const mjml = layout({ title: subject, preview: own.length ? ownLead : teamLead, body: sections.join('\n'), footer: FOOTER })

  const line = (r: TrainingDueRow) => `${r.title} (${KIND[r.kind].toLowerCase()}), due ${formatDay(r.dueOn)}: ${dueStateText(r.dueOn, d.day)}`
  const plain = [greeting, '']
  if (own.length) plain.push(ownLead, '', ...own.map((r) => `- ${line(r)}`), '', `Your dashboard: ${dashboardUrl}`, '')
  if (team.length) plain.push(teamLead, '', ...team.map((r) => `- ${r.learner!.name}: ${line(r)} (${r.learner!.url})`), '', `Team dashboard: ${teamDashboardUrl}`, '')
  return { subject, mjml, text: `${plain.join('\n')}\n--\n${PRODUCT_NAME}\n${FOOTER}\n` }
}
