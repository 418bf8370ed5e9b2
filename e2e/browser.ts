import { chromium, type Browser, type Page } from 'playwright-core'

/** Debian's Chromium, headless, with the flags this machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
  })
}

export interface MailboxMessage {
  id: string
  to: string
  subject: string
  text: string
  html: string
  sentAt: string
}

/** Waits for the newest dev-mailbox message to `to` that matches `pattern`; returns the match. */
export async function waitForMail(baseURL: string, to: string, pattern: RegExp, after?: string): Promise<RegExpExecArray> {
  const end = Date.now() + 20_000
  for (;;) {
    const res = await fetch(`${baseURL}/api/dev/mailbox?to=${encodeURIComponent(to)}`)
    if (res.ok) {
      const list = (await res.json()) as MailboxMessage[]
      for (const m of list) {
        if (after && m.sentAt <= after) continue
        const match = pattern.exec(m.text)
        if (match) return match
      }
    }
    if (Date.now() > end) throw new Error(`no mail to ${to} matching ${pattern}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Collects page errors so a journey can assert the page stayed healthy. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  return errors
}
