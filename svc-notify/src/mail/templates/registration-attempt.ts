import { escapeHtml, type EmailTemplate } from '../render.ts'
import { layout, textFooter } from './layout.ts'

const httpUrl = (url: string, what: string) => {
  const protocol = new URL(url).protocol
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error(`${what} must be http(s), got ${protocol}`)
  return url
}

/**
 * The e-mail telling an account's owner that someone tried to register with their address (the
 * registration itself answered as for a new address, so only the owner learns of it).
 */
export function registrationAttemptEmail(input: { name: string; loginUrl: string; resetUrl: string }): EmailTemplate {
  const loginUrl = httpUrl(input.loginUrl, 'login link')
  const resetUrl = httpUrl(input.resetUrl, 'reset link')
  const subject = 'Someone tried to register with your e-mail address'
  const greeting = input.name.trim() ? `Hello ${input.name.trim()},` : 'Hello,'
  const what = 'Someone just tried to register a new account with this e-mail address. You already have an account, so no new one was created and your account is unchanged.'
  const ifYou = 'If it was you, log in with your account, or choose a new password if you have forgotten it.'
  const ifNot = 'If it was not you, you can ignore this e-mail.'
  const mjml = layout({
    title: subject,
    preview: 'You already have an account: log in or reset your password',
    body: `      <mj-section>
        <mj-column>
          <mj-text>${escapeHtml(greeting)}</mj-text>
          <mj-text>${escapeHtml(what)}</mj-text>
          <mj-text>${escapeHtml(ifYou)}</mj-text>
          <mj-button href="${escapeHtml(loginUrl)}" background-color="#1d4ed8" color="#ffffff" font-size="15px" border-radius="4px">Log in</mj-button>
          <mj-text align="center"><a href="${escapeHtml(resetUrl)}" style="color:#1d4ed8">Reset your password</a></mj-text>
          <mj-text>${escapeHtml(ifNot)}</mj-text>
        </mj-column>
      </mj-section>`,
  })
  const text = `${greeting}

${what}

${ifYou}
Log in: ${loginUrl}
Reset your password: ${resetUrl}

${ifNot}
${textFooter}`
  return { subject, mjml, text }
}
