import type { EventData, NoticeMail } from '@portal/contracts'
import { escapeHtml, type EmailTemplate } from '../render.ts'
import { layout, textFooter } from './layout.ts'

type Technician = EventData<'certs.certification.expiring.v1'>['technician']
type Certification = EventData<'certs.certification.expiring.v1'>['certification']
type ReportData = EventData<'certs.compliance.report-compiled.v1'>

const httpUrl = (url: string) => {
  const protocol = new URL(url).protocol
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error(`links must be http(s), got ${protocol}`)
  return url
}
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
/** "expires in 7 days" / "expires today" / "expired 3 days ago". */
export function whenText(daysLeft: number): string {
  if (daysLeft > 0) return `expires in ${plural(daysLeft, 'day')}`
  if (daysLeft === 0) return 'expires today'
  return `expired ${plural(-daysLeft, 'day')} ago`
}
const colour = (daysLeft: number) => (daysLeft < 0 ? '#b91c1c' : daysLeft <= 10 ? '#b91c1c' : '#a16207')

const button = (href: string, label: string) =>
  `<mj-button href="${escapeHtml(href)}" background-color="#1d4ed8" color="#ffffff" font-size="15px" border-radius="4px">${escapeHtml(label)}</mj-button>`
const section = (content: string) => `      <mj-section>
        <mj-column>
${content}
        </mj-column>
      </mj-section>`
const text = (html: string, attrs = '') => `          <mj-text${attrs}>${html}</mj-text>`

/** The facts table every certification notice shows. */
function factsBlock(t: Technician, c: Certification): { mjml: string; text: string } {
  const rows: [string, string][] = [
    ['Certification', `${c.name} (${c.code})`],
    ['Technician', t.name],
    ['Branch / department', `${t.branch ?? 'No branch'} / ${t.department ?? 'No department'}`],
    ['Expiration date', c.expirationDate],
    // An expired certification has no days left: the notice says how long ago it expired (issue 23).
    c.daysLeft < 0 ? ['Expired', `${plural(-c.daysLeft, 'day')} ago`] : ['Days left', String(c.daysLeft)],
  ]
  const cells = rows
    .map(([k, v]) => `<tr><td style="padding:4px 12px 4px 0;color:#4b5563">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:bold">${escapeHtml(v)}</td></tr>`)
    .join('')
  return {
    mjml: `          <mj-table>${cells}</mj-table>`,
    text: rows.map(([k, v]) => `${k}: ${v}`).join('\n'),
  }
}

interface NoticeInput {
  notice: NoticeMail
  technician: Technician
  certification: Certification
}

/**
 * The e-mail of one certification notice: the technician's 30/14/7-day and expired notices and
 * manual reminder, the manager's 7-day escalation (with the acknowledgement link) and the
 * operations escalation once expired (from the day after the expiration date). Each names the certification, the days left, the technician
 * and links to the profile.
 */
export function certificationNoticeEmail({ notice, technician: t, certification: c }: NoticeInput): EmailTemplate {
  const when = whenText(c.daysLeft)
  const facts = factsBlock(t, c)
  const toTechnician = ['30_day', '14_day', '7_day', 'expired', 'manual_reminder'].includes(notice.notificationType)
  const profileUrl = httpUrl(toTechnician ? t.profileUrl : t.teamProfileUrl)
  let subject: string
  let lead: string
  switch (notice.notificationType) {
    case 'expired':
      subject = `Your ${c.name} certification has expired`
      lead = `Your ${c.name} (${c.code}) certification ${when}. Renew it as soon as possible and upload the new proof to your profile.`
      break
    case 'manual_reminder':
      subject = `Reminder: your ${c.name} certification ${when}`
      lead = `An administrator reminds you that your ${c.name} (${c.code}) certification ${when}. Please renew it and upload the new proof to your profile.`
      break
    case 'manager_escalation':
      subject = `Escalation: ${t.name}'s ${c.name} certification ${when}`
      lead = `${t.name}'s ${c.name} (${c.code}) certification ${when} and has not been renewed yet. As their manager, please make sure it is renewed before it expires.`
      break
    case 'ops_escalation':
      subject = `Expired: ${t.name}'s ${c.name} certification`
      lead = `${t.name}'s ${c.name} (${c.code}) certification ${when}. They should not work on tasks that require it until it is renewed.`
      break
    default:
      subject = `Your ${c.name} certification ${when}`
      lead = `Your ${c.name} (${c.code}) certification ${when}. Renew it before it expires and upload the new proof to your profile.`
  }
  const greeting = toTechnician ? `Hello ${t.name},` : 'Hello,'
  const training = toTechnician && c.trainingLink && /^https?:\/\//i.test(c.trainingLink) ? c.trainingLink : null
  const ack = notice.notificationType === 'manager_escalation' && notice.acknowledgeUrl ? httpUrl(notice.acknowledgeUrl) : null
  const mjml = layout({
    title: subject,
    preview: lead,
    body: section(
      [
        text(escapeHtml(greeting)),
        text(escapeHtml(lead), ` color="${colour(c.daysLeft)}"`),
        facts.mjml,
        button(profileUrl, toTechnician ? 'Open my profile' : `Open ${t.name}'s profile`),
        training ? text(`Training: <a href="${escapeHtml(training)}" style="color:#1d4ed8">${escapeHtml(training)}</a>`) : '',
        ack ? text('Let us know you have seen this escalation:') + '\n' + button(ack, 'Acknowledge escalation') : '',
      ]
        .filter(Boolean)
        .join('\n'),
    ),
  })
  const plain = [
    greeting,
    '',
    lead,
    '',
    facts.text,
    '',
    `${toTechnician ? 'Your profile' : 'Profile'}: ${profileUrl}`,
    training ? `Training: ${training}` : null,
    ack ? `Acknowledge this escalation: ${ack}` : null,
  ]
    .filter((l) => l !== null)
    .join('\n')
  return { subject, mjml, text: `${plain}\n${textFooter}` }
}

/** The weekly management report of one branch and department. */
export function weeklyReportEmail(r: ReportData): EmailTemplate {
  const subject = `Weekly certification compliance: ${r.branch} ${r.department}`
  const c = r.compliance
  const summary = `Compliance ${c.percentage}%: ${c.compliant} of ${plural(c.technicians, 'technician')} without expired certifications; ${plural(c.expired_certifications, 'expired certification')}, ${c.expiring_30_days} expiring within 30 days.`
  const line = (i: { code: string; name: string; expirationDate: string; daysLeft: number }) => `${i.name} (${i.code}) ${whenText(i.daysLeft)} (${i.expirationDate})`
  const rows = r.technicians
    .map((t) => {
      const items = [...t.expired, ...t.expiringSoon].map(line)
      return `<tr><td style="padding:6px 12px 6px 0;vertical-align:top"><a href="${escapeHtml(httpUrl(t.profileUrl))}" style="color:#1d4ed8">${escapeHtml(t.name)}</a></td><td style="padding:6px 0">${items.map(escapeHtml).join('<br />')}</td></tr>`
    })
    .join('')
  const table = r.technicians.length
    ? `          <mj-table><tr><th align="left" style="padding:4px 12px 4px 0">Technician</th><th align="left">Certifications</th></tr>${rows}</mj-table>`
    : text('No certification is expired or expiring within 30 days.')
  const mjml = layout({
    title: subject,
    preview: summary,
    body: section(
      [text(`Week of ${escapeHtml(r.weekOf)}`, ' color="#4b5563"'), text(escapeHtml(summary)), table, button(httpUrl(r.dashboardUrl), 'Open the team dashboard')].join('\n'),
    ),
  })
  const plain = [
    `Week of ${r.weekOf}`,
    '',
    summary,
    '',
    ...(r.technicians.length
      ? r.technicians.map((t) => `${t.name} (${t.profileUrl})\n${[...t.expired, ...t.expiringSoon].map((i) => `  - ${line(i)}`).join('\n')}`)
      : ['No certification is expired or expiring within 30 days.']),
    '',
    `Team dashboard: ${r.dashboardUrl}`,
  ].join('\n')
  return { subject, mjml, text: `${plain}\n${textFooter}` }
}
