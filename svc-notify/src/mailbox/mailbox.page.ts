import type { MailboxMessage } from '@portal/contracts'
import { escapeHtml } from '../mail/index.ts'

/** Security headers of the page: no scripts at all; e-mails render in sandboxed iframes. */
export const MAILBOX_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:; font-src https:; form-action 'self'; frame-ancestors 'self'"

/** Escapes plain text and turns http(s) URLs in it into links opening in a new tab. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+[^\s<.,;:!?)]/g, (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`)
}

/** The e-mail's HTML for an iframe's srcdoc, with links opening in a new tab (a sandboxed frame has no top navigation). */
function frameDocument(html: string): string {
  const base = '<base target="_blank">'
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => head + base) : base + html
}

const readableTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`

function messageCard(m: MailboxMessage): string {
  return `<article class="mail">
  <header>
    <h2>${escapeHtml(m.subject)}</h2>
    <p class="meta">To <a href="?to=${encodeURIComponent(m.to)}">${escapeHtml(m.to)}</a> · <time datetime="${escapeHtml(m.sentAt)}">${readableTime(m.sentAt)}</time></p>
  </header>
  <details open>
    <summary>HTML</summary>
    <iframe title="${escapeHtml(`HTML of: ${m.subject}`)}" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" srcdoc="${escapeHtml(frameDocument(m.html))}"></iframe>
  </details>
  <details>
    <summary>Plain text</summary>
    <pre>${linkify(m.text)}</pre>
  </details>
</article>`
}

/** The dev mailbox as a page a person reads: newest first, filter by address. */
export function mailboxPage(opts: { messages: MailboxMessage[]; to?: string; error?: string }): string {
  const { messages, to, error } = opts
  const heading = to ? `Mail to ${escapeHtml(to)}` : 'All mail'
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Dev mailbox</title>
<style>
  body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: #f3f4f6; color: #111827; }
  main { max-width: 860px; margin: 0 auto; padding: 24px 16px 48px; }
  h1 { font-size: 24px; margin: 0 0 4px; }
  .lead { color: #4b5563; margin: 0 0 16px; }
  form { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin-bottom: 16px; }
  input[type=email] { flex: 1 1 260px; padding: 8px 10px; font: inherit; border: 1px solid #9ca3af; border-radius: 4px; }
  button { padding: 8px 14px; font: inherit; border: 0; border-radius: 4px; background: #1d4ed8; color: #fff; cursor: pointer; }
  .error { color: #b91c1c; background: #fee2e2; padding: 8px 12px; border-radius: 4px; }
  .mail { background: #fff; border-radius: 6px; padding: 12px 16px; margin: 0 0 16px; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
  .mail h2 { font-size: 18px; margin: 0; }
  .meta { color: #4b5563; margin: 2px 0 8px; }
  summary { cursor: pointer; color: #1d4ed8; margin: 4px 0; }
  iframe { width: 100%; height: 560px; border: 1px solid #e5e7eb; border-radius: 4px; background: #fff; }
  pre { white-space: pre-wrap; word-break: break-word; background: #f9fafb; padding: 12px; border-radius: 4px; margin: 4px 0; }
  a { color: #1d4ed8; }
</style>
</head>
<body>
<main>
  <h1>Dev mailbox</h1>
  <p class="lead">E-mails the portal sent while no SMTP server is configured. Newest first.</p>
  <form method="get" role="search">
    <label for="to">Recipient</label>
    <input id="to" name="to" type="email" placeholder="name@example.com" value="${escapeHtml(to ?? '')}">
    <button type="submit">Filter</button>
    <a href="?">Show all</a>
  </form>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  <h2 class="lead">${heading} · ${count} · <a href="">Refresh</a></h2>
  ${messages.length ? messages.map(messageCard).join('\n') : '<p>No messages yet.</p>'}
</main>
</body>
</html>`
}
