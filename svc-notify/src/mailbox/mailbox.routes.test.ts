import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ErrorBody, MailboxMessage } from '@portal/contracts'
import { silentLogger } from '@portal/server-kit/testing'
import { createServiceApp } from '@portal/server-kit'
import type { MailboxStore } from './mailbox.repository.ts'
import { mailboxRoutes } from './mailbox.routes.ts'

/** Notify's service frame with only the mailbox routes (what app.ts mounts at `/`). */
const mailboxApp = (mailbox: MailboxStore | null) => createServiceApp({ service: 'notify', logger: silentLogger }).route('/', mailboxRoutes(mailbox))

const messages: MailboxMessage[] = [
  {
    id: '2',
    to: 'Ada@Example.com',
    subject: 'Reset your password',
    text: 'Go to https://portal.example.com/reset-password?token=abc&x=1 now',
    html: '<html><head></head><body><a href="https://portal.example.com/reset-password?token=abc">Reset</a></body></html>',
    sentAt: '2026-11-22T10:00:02.000Z',
  },
  { id: '1', to: 'bob@example.com', subject: '<b>Sneaky</b> "subject"', text: '<script>alert(1)</script>', html: '<p>Hi</p>', sentAt: '2026-11-22T10:00:01.000Z' },
]

/** An in-memory mailbox with the repository's semantics. */
const memoryStore = (): MailboxStore & { calls: { to?: string; limit: number }[] } => {
  const calls: { to?: string; limit: number }[] = []
  return {
    calls,
    async list(filter) {
      calls.push(filter)
      return messages.filter((m) => !filter.to || m.to.toLowerCase() === filter.to.toLowerCase()).slice(0, filter.limit)
    },
  }
}

describe('mailbox routes', () => {
  it('lists messages newest first in the MailboxMessage shape', async () => {
    const store = memoryStore()
    const res = await mailboxApp(store).request('/dev/mailbox')
    expect(res.status).toBe(200)
    const body = z.array(MailboxMessage).parse(await res.json())
    expect(body.map((m) => m.id)).toEqual(['2', '1'])
    expect(store.calls).toEqual([{ limit: 100 }])
  })

  it('filters by recipient', async () => {
    const store = memoryStore()
    const res = await mailboxApp(store).request('/dev/mailbox?to=%20ADA@example.COM%20&limit=5')
    expect(res.status).toBe(200)
    expect((await res.json()).map((m: MailboxMessage) => m.id)).toEqual(['2'])
    expect(store.calls).toEqual([{ to: 'ADA@example.COM', limit: 5 }])
  })

  it.each([
    ['/dev/mailbox?to=not-an-address', 'to must be an e-mail address'],
    ['/dev/mailbox?limit=abc', undefined],
    ['/dev/mailbox?limit=0', undefined],
    ['/dev/mailbox?limit=100000', undefined],
    [`/dev/mailbox?to=${'a'.repeat(400)}@example.com`, 'to is too long'],
  ])('rejects the bad query %s with 400', async (path, message) => {
    const res = await mailboxApp(memoryStore()).request(path)
    expect(res.status).toBe(400)
    const body = ErrorBody.parse(await res.json())
    expect(body.code).toBe('validation_failed')
    if (message) expect(body.message).toBe(message)
  })

  it('answers unknown routes with 404 in the error shape', async () => {
    const app = mailboxApp(memoryStore())
    for (const path of ['/nope', '/dev/mailbox/1', '/api/dev/mailbox']) {
      const res = await app.request(path)
      expect(res.status).toBe(404)
      expect(ErrorBody.parse(await res.json()).code).toBe('route_not_found')
    }
    const post = await app.request('/dev/mailbox', { method: 'POST' })
    expect(post.status).toBe(404)
    expect(ErrorBody.parse(await post.json()).message).toBeTruthy()
  })

  it('is off (404) when mail goes out by SMTP', async () => {
    const app = mailboxApp(null)
    for (const path of ['/dev/mailbox', '/dev/mailbox?to=bad', '/mailbox']) {
      const res = await app.request(path)
      expect(res.status).toBe(404)
      expect(ErrorBody.parse(await res.json()).code).toBe('mailbox_off')
    }
    expect((await app.request('/healthz')).status).toBe(200)
  })

  it('renders a page with each message, escaped, and its HTML in a sandboxed iframe', async () => {
    const res = await mailboxApp(memoryStore()).request('/mailbox')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
    const page = await res.text()
    expect(page).toContain('<h1>Dev mailbox</h1>')
    expect(page.indexOf('Reset your password')).toBeLessThan(page.indexOf('Sneaky'))
    expect(page).toContain('&lt;b&gt;Sneaky&lt;/b&gt; &quot;subject&quot;')
    expect(page).not.toContain('<script>alert(1)')
    expect(page).toContain('sandbox="allow-popups allow-popups-to-escape-sandbox"')
    // the e-mail's HTML is escaped into srcdoc, with links opening in a new tab
    expect(page).toContain('srcdoc="&lt;html&gt;&lt;head&gt;&lt;base target=&quot;_blank&quot;&gt;&lt;/head&gt;')
    // links of the text part are clickable
    expect(page).toContain('<a href="https://portal.example.com/reset-password?token=abc&amp;x=1" target="_blank" rel="noopener noreferrer">')
  })

  it('filters the page by address and keeps the address in the form', async () => {
    const res = await mailboxApp(memoryStore()).request('/mailbox?to=bob%40example.com')
    const page = await res.text()
    expect(page).toContain('value="bob@example.com"')
    expect(page).toContain('1 message ')
    expect(page).not.toContain('Reset your password')
  })

  it('shows a bad address on the page with 400', async () => {
    const res = await mailboxApp(memoryStore()).request('/mailbox?to=%3Cx%3E')
    expect(res.status).toBe(400)
    const page = await res.text()
    expect(page).toContain('role="alert"')
    expect(page).toContain('value="&lt;x&gt;"')
  })
})
