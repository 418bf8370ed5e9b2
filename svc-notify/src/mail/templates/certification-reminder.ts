import { TIER_LABELS, type EventData, type TierLevel } from '@portal/contracts'
import { escapeHtml, type EmailTemplate } from '../render.ts'
import { layout, textFooter } from './layout.ts'

type Reminder = EventData<'certs.reminder.requested.v1'>

const REASONS: Record<Reminder['openRequirements'][number]['reason'], string> = {
  missing: 'not on file yet',
  expired: 'expired',
  not_uploaded: 'proof not uploaded',
}

const why = (r: Reminder['openRequirements'][number]) => (r.reason === 'expired' && r.expirationDate ? `expired on ${r.expirationDate}` : REASONS[r.reason])
const safeLink = (link: string | null) => {
  if (!link) return null
  try {
    const { protocol } = new URL(link)
    return protocol === 'https:' || protocol === 'http:' ? link : null
  } catch {
    return null
  }
}

/** The reminder a manager sends from the member detail (Send Reminder): the requirements that count for the technician's tier and are not met. */
export function certificationReminderEmail(input: Reminder & { profileUrl: string }): EmailTemplate {
  const subject = 'Reminder: certifications to complete'
  const greeting = input.name.trim() ? `Hello ${input.name.trim()},` : 'Hello,'
  const intro = `${input.requestedByName.trim() || 'Your manager'} asks you to bring your certifications up to date. These requirements of your tier are still open:`
  const items = input.openRequirements.map((r) => ({
    line: `${r.name} (${r.code}, ${TIER_LABELS[r.tierLevel as TierLevel]}): ${why(r)}`,
    link: safeLink(r.trainingLink),
  }))
  const url = escapeHtml(input.profileUrl)
  const list = items.map((i) => `<li>${escapeHtml(i.line)}${i.link ? ` <a href="${escapeHtml(i.link)}" style="color:#1d4ed8">Training</a>` : ''}</li>`).join('')
  const mjml = layout({
    title: subject,
    preview: `${items.length} certification requirement${items.length === 1 ? '' : 's'} to complete`,
    body: `      <mj-section>
        <mj-column>
          <mj-text>${escapeHtml(greeting)}</mj-text>
          <mj-text>${escapeHtml(intro)}</mj-text>
          <mj-text><ul style="padding-left:20px;margin:0">${list}</ul></mj-text>
          <mj-button href="${url}" background-color="#1d4ed8" color="#ffffff" font-size="15px" border-radius="4px">Open my profile</mj-button>
          <mj-text font-size="13px" color="#4b5563">Add or renew them and upload the proof on your profile: <a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a></mj-text>
        </mj-column>
      </mj-section>`,
  })
  const text = `${greeting}

${intro}

${items.map((i) => `- ${i.line}${i.link ? ` (training: ${i.link})` : ''}`).join('\n')}

Add or renew them and upload the proof on your profile:
${input.profileUrl}
${textFooter}`
  return { subject, mjml, text }
}
