import { escapeHtml } from '../render.ts'

export const PRODUCT_NAME = 'Learning Portal'

const ACCOUNT_FOOTER = `You receive this e-mail because of an action on your ${PRODUCT_NAME} account. If it was not you, you can ignore it.`
/** Footer of the e-mails admins configured (admin e-mails, group reports). */
export const ADMIN_FOOTER = `You receive this e-mail because an administrator of the ${PRODUCT_NAME} added your address to its notifications.`

/**
 * The frame every portal e-mail shares. `body` is MJML (sections) whose user data the caller
 * has already escaped; `preview` is plain text shown by mail clients next to the subject.
 */
export const layout = (opts: { title: string; preview: string; body: string; footer?: string }) => `<mjml>
  <mj-head>
    <mj-title>${escapeHtml(opts.title)}</mj-title>
    <mj-preview>${escapeHtml(opts.preview)}</mj-preview>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="15px" line-height="22px" color="#1f2933" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6">
    <mj-section padding="24px 0 8px">
      <mj-column>
        <mj-text font-size="18px" font-weight="bold" color="#1e3a8a">${PRODUCT_NAME}</mj-text>
      </mj-column>
    </mj-section>
    <mj-wrapper background-color="#ffffff" padding="16px 8px" border-radius="6px">
${opts.body}
    </mj-wrapper>
    <mj-section>
      <mj-column>
        <mj-text font-size="12px" line-height="18px" color="#6b7280">${escapeHtml(opts.footer ?? ACCOUNT_FOOTER)}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`

/** A date as the e-mails write it (November 20, 2026), in UTC. */
export const formatDay = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })

/** Plain-text footer matching the HTML one. */
export const textFooter = `\n--\n${PRODUCT_NAME}\n${ACCOUNT_FOOTER}\n`
export const adminTextFooter = `\n--\n${PRODUCT_NAME}\n${ADMIN_FOOTER}\n`
