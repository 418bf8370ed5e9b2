import mjml2html from 'mjml'
import type { RenderedEmail } from './message.ts'

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML content and attribute values (MJML passes mj-text content through as HTML). */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!)

/** What a template produces: MJML markup plus the plain-text part. */
export interface EmailTemplate {
  subject: string
  mjml: string
  text: string
}

/** Renders a template's MJML to HTML; an invalid template is a programming error and throws. */
export async function renderEmail(template: EmailTemplate): Promise<RenderedEmail> {
  const result = await mjml2html(template.mjml, { validationLevel: 'strict', keepComments: false })
  if (result.errors.length > 0) {
    throw new Error(`invalid MJML: ${result.errors.map((e) => e.formattedMessage).join('; ')}`)
  }
  return { subject: template.subject, text: template.text, html: result.html }
}
