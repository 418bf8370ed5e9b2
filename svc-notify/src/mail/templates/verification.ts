import { VERIFICATION_CODE_TTL_MINUTES } from '@portal/contracts'
import { escapeHtml, type EmailTemplate } from '../render.ts'
import { layout, PRODUCT_NAME, textFooter } from './layout.ts'

/** The e-mail carrying the 6-digit code that verifies a new account's address. */
export function verificationEmail(input: { name: string; code: string }): EmailTemplate {
  const subject = 'Your verification code'
  const expiry = `This code expires in ${VERIFICATION_CODE_TTL_MINUTES} minutes.`
  const greeting = input.name.trim() ? `Hello ${input.name.trim()},` : 'Hello,'
  const mjml = layout({
    title: subject,
    preview: `Your ${PRODUCT_NAME} verification code is ${input.code}`,
    body: `      <mj-section>
        <mj-column>
          <mj-text>${escapeHtml(greeting)}</mj-text>
          <mj-text>Enter this code on the verification screen to confirm your e-mail address:</mj-text>
          <mj-text align="center" font-size="32px" line-height="40px" font-weight="bold" letter-spacing="8px" color="#111827">${escapeHtml(input.code)}</mj-text>
          <mj-text>${escapeHtml(expiry)}</mj-text>
        </mj-column>
      </mj-section>`,
  })
  const text = `${greeting}

Enter this code on the verification screen to confirm your e-mail address:

    ${input.code}

${expiry}
${textFooter}`
  return { subject, mjml, text }
}
