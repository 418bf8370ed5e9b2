import { RESET_TOKEN_TTL_MINUTES } from '@portal/contracts'
import { escapeHtml, type EmailTemplate } from '../render.ts'
import { layout, textFooter } from './layout.ts'

const hours = RESET_TOKEN_TTL_MINUTES / 60
const TTL = Number.isInteger(hours) ? `${hours} hour${hours === 1 ? '' : 's'}` : `${RESET_TOKEN_TTL_MINUTES} minutes`

/** The e-mail carrying the password reset link; `resetUrl` must be an http(s) URL. */
export function passwordResetEmail(input: { name: string; resetUrl: string }): EmailTemplate {
  const protocol = new URL(input.resetUrl).protocol
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error(`reset link must be http(s), got ${protocol}`)
  const subject = 'Reset your password'
  const expiry = `This link expires in ${TTL}. If you did not ask for a new password, ignore this e-mail: your password stays as it is.`
  const greeting = input.name.trim() ? `Hello ${input.name.trim()},` : 'Hello,'
  const url = escapeHtml(input.resetUrl)
  const mjml = layout({
    title: subject,
    preview: 'Use the link inside to choose a new password',
    body: `      <mj-section>
        <mj-column>
          <mj-text>${escapeHtml(greeting)}</mj-text>
          <mj-text>We received a request to reset the password of your account. Choose a new password here:</mj-text>
          <mj-button href="${url}" background-color="#1d4ed8" color="#ffffff" font-size="15px" border-radius="4px">Reset password</mj-button>
          <mj-text font-size="13px" color="#4b5563">If the button does not work, copy this link into your browser:<br /><a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a></mj-text>
          <mj-text>${escapeHtml(expiry)}</mj-text>
        </mj-column>
      </mj-section>`,
  })
  const text = `${greeting}

We received a request to reset the password of your account. Choose a new password here:

${input.resetUrl}

${expiry}
${textFooter}`
  return { subject, mjml, text }
}
