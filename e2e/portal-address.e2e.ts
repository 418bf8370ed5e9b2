import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from './browser.ts'
import { adminCourses, assignCourse, contentFrame, DEMO, eventually, openCourse, playerFrame, signIn, uploadCourse, zipOf } from './courses-support.ts'

/*
 * Issue 28 item 7: content was framed only when the portal was opened at PUBLIC_URL's host; at
 * 127.0.0.1 the course viewer showed an empty frame and no word. The portal's loopback names are
 * its addresses too (PORTAL_ORIGINS' default on loopback), each with the content origin on its own
 * host name; at any other address the viewer names the address to use.
 */

const baseURL = inject('baseURL')
const contentURL = inject('contentURL')
const port = new URL(baseURL).port
const contentPort = new URL(contentURL).port
const run = Date.now().toString(36).slice(-5)
const title = `Portal address ${run}`

let browser: Browser
beforeAll(async () => {
  // portal.test: another name of this machine, not one of the portal's addresses
  browser = await launchBrowser(['--host-resolver-rules=MAP portal.test 127.0.0.1'])
})
afterAll(async () => {
  await browser?.close()
})

/** A SCORM 1.2 package of one SCO that says whether the runtime answered it. */
const lessonPackage = () =>
  zipOf({
    'imsmanifest.xml': `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="address" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Address</title>
    <item identifier="page" identifierref="r-page"><title>Address lesson</title></item>
  </organization></organizations>
  <resources><resource identifier="r-page" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`,
    'index.html': `<!doctype html><html><head><meta charset="utf-8"><title>Address lesson</title></head><body><h1>Address lesson</h1>
<script>var api = window.parent && window.parent.API; document.documentElement.setAttribute('data-scorm', api ? String(api.LMSInitialize('')) : 'no API');</script></body></html>`,
  })

describe('the portal opened at another of its addresses', () => {
  it('plays course content at 127.0.0.1 as at localhost, each from the content origin on its own host name; elsewhere it names the address to use', async () => {
    const admin = await signIn(browser, baseURL, DEMO.admin)
    await admin.page.getByRole('tab', { name: 'Courses' }).click()
    await uploadCourse(admin.page, title, [{ name: 'address.zip', mimeType: 'application/zip', buffer: await lessonPackage() }])
    await assignCourse(admin.page, title, DEMO.portland)
    await eventually(
      () => adminCourses(admin.page, baseURL),
      (list) => list.find((c) => c.title === title)?.modules[0]?.processing_status === 'ready',
      'the package ingested',
      60_000,
    )

    for (const host of ['127.0.0.1', 'localhost']) {
      const learner = await signIn(browser, `http://${host}:${port}`, DEMO.portland)
      await openCourse(learner.page, title)
      const sco = contentFrame(learner.page)
      await sco.getByRole('heading', { name: 'Address lesson' }).waitFor()
      expect(new URL((await playerFrame(learner.page)).url()).origin, host).toBe(`http://${host}:${contentPort}`)
      expect(await sco.locator('html').getAttribute('data-scorm'), host).toBe('true')
      await learner.page.context().close()
    }

    const elsewhere = await signIn(browser, `http://portal.test:${port}`, DEMO.portland)
    await openCourse(elsewhere.page, title)
    const alert = elsewhere.page.getByRole('alert').filter({ hasText: 'Course content plays only when the portal is opened at' })
    await alert.waitFor()
    expect(await alert.textContent()).toContain(`Course content plays only when the portal is opened at ${baseURL}. This page is open at http://portal.test:${port}.`)
    // this very page, at the address to use
    expect(await alert.getByRole('link', { name: `Open This Page at ${baseURL}` }).getAttribute('href')).toBe(elsewhere.page.url().replace(`http://portal.test:${port}`, baseURL))
    expect(await elsewhere.page.locator('iframe[src*="/player/"]').count()).toBe(0)
    await elsewhere.page.context().close()
    await admin.page.context().close()
  }, 240_000)
})
