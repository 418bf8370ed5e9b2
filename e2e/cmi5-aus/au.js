/*
 * A cmi5 assignable unit written for the tests (issue 26), as cmi5 §8-9 want an AU to behave:
 * reads its launch from the query (endpoint, fetch, actor, registration, activityId), POSTs the
 * fetch URL once for the auth-token, reads the State document LMS.LaunchData, sends Initialized,
 * then what the learner asks (Completed, Passed, Failed with the score typed, Terminated) with
 * LaunchData's contextTemplate and the registration; after Terminated it goes to LaunchData's
 * returnURL. Every step writes one line "<step>: <outcome>" so a test can read what happened.
 * Plain browser JavaScript, no build step; it talks to the LRS only with the session's auth-token.
 */
;(function () {
  'use strict'

  var XAPI_VERSION = '1.0.3'
  var VERBS = {
    initialized: 'http://adlnet.gov/expapi/verbs/initialized',
    completed: 'http://adlnet.gov/expapi/verbs/completed',
    passed: 'http://adlnet.gov/expapi/verbs/passed',
    failed: 'http://adlnet.gov/expapi/verbs/failed',
    terminated: 'http://adlnet.gov/expapi/verbs/terminated',
    launched: 'http://adlnet.gov/expapi/verbs/launched',
    abandoned: 'https://w3id.org/xapi/adl/verbs/abandoned',
    waived: 'https://w3id.org/xapi/adl/verbs/waived',
    satisfied: 'https://w3id.org/xapi/adl/verbs/satisfied',
  }
  var CATEGORY_CMI5 = { objectType: 'Activity', id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }
  var CATEGORY_MOVEON = { objectType: 'Activity', id: 'https://w3id.org/xapi/cmi5/context/categories/moveon' }
  var EXT_MASTERY = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore'

  var logList = document.getElementById('log')
  var unitText = document.getElementById('unit')
  var scoreInput = document.getElementById('score')
  var buttons = ['complete', 'pass', 'fail', 'terminate', 'history'].reduce(function (all, id) {
    all[id] = document.getElementById(id)
    return all
  }, {})

  /** One line of the log: "<step>: <outcome>". */
  function log(step, outcome) {
    var li = document.createElement('li')
    li.textContent = step + ': ' + outcome
    li.setAttribute('data-step', step)
    logList.appendChild(li)
  }

  function enable(on) {
    Object.keys(buttons).forEach(function (id) {
      buttons[id].disabled = !on
    })
  }

  var query = new URLSearchParams(window.location.search)
  var launch = {
    endpoint: query.get('endpoint'),
    fetch: query.get('fetch'),
    actor: query.get('actor'),
    registration: query.get('registration'),
    activityId: query.get('activityId'),
  }
  var actor = null
  var authToken = null
  var launchData = null
  var startedAt = Date.now()
  var finished = false

  /** A version 4 UUID (crypto.randomUUID needs a secure context; the content origin may not be one). */
  function uuid() {
    var b = new Uint8Array(16)
    crypto.getRandomValues(b)
    b[6] = (b[6] & 0x0f) | 0x40
    b[8] = (b[8] & 0x3f) | 0x80
    var h = Array.prototype.map.call(b, function (x) {
      return (x + 0x100).toString(16).slice(1)
    })
    return h.slice(0, 4).join('') + '-' + h.slice(4, 6).join('') + '-' + h.slice(6, 8).join('') + '-' + h.slice(8, 10).join('') + '-' + h.slice(10).join('')
  }

  /** Time since the session started, as an ISO 8601 duration (xAPI result.duration). */
  function duration() {
    return 'PT' + ((Date.now() - startedAt) / 1000).toFixed(2) + 'S'
  }

  /** A resource of the LRS (the endpoint is its base, with or without its final slash). */
  function lrsUrl(resource, params) {
    var base = launch.endpoint.charAt(launch.endpoint.length - 1) === '/' ? launch.endpoint : launch.endpoint + '/'
    var url = new URL(resource, base)
    Object.keys(params || {}).forEach(function (k) {
      url.searchParams.set(k, params[k])
    })
    return url.href
  }

  function lrs(method, resource, params, body) {
    var headers = { Authorization: 'Basic ' + authToken, 'X-Experience-API-Version': XAPI_VERSION }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    return fetch(lrsUrl(resource, params), { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) })
  }

  async function failure(res) {
    var text = await res.text().then(
      function (t) {
        return t.slice(0, 200)
      },
      function () {
        return ''
      },
    )
    return 'failed (' + res.status + ')' + (text ? ' ' + text : '')
  }

  /**
   * A cmi5 defined statement: the LaunchData's contextTemplate (the session id, the AU's grouping)
   * with the registration and the cmi5 category; `moveOn` statements add the moveon category, and
   * Passed/Failed the mastery score LaunchData gave (cmi5 §9.6.2.2, §9.6.3.2).
   */
  function statement(verb, display, result, opts) {
    var context = JSON.parse(JSON.stringify((launchData && launchData.contextTemplate) || {}))
    context.registration = launch.registration
    context.contextActivities = context.contextActivities || {}
    var category = Array.isArray(context.contextActivities.category) ? context.contextActivities.category : []
    category.push(CATEGORY_CMI5)
    if (opts && opts.moveOn) category.push(CATEGORY_MOVEON)
    context.contextActivities.category = category
    if (opts && opts.mastery && launchData && typeof launchData.masteryScore === 'number') {
      context.extensions = context.extensions || {}
      context.extensions[EXT_MASTERY] = launchData.masteryScore
    }
    var s = {
      id: uuid(),
      actor: actor,
      verb: { id: verb, display: { 'en-US': display } },
      object: { objectType: 'Activity', id: launch.activityId },
      context: context,
      timestamp: new Date().toISOString(),
    }
    if (result) s.result = result
    return s
  }

  async function send(step, s) {
    try {
      var res = await lrs('POST', 'statements', {}, s)
      if (res.ok) {
        log(step, 'sent')
        return true
      }
      log(step, await failure(res))
    } catch (e) {
      log(step, 'failed (' + (e && e.message ? e.message : 'network') + ')')
    }
    return false
  }

  function score() {
    var n = Number(scoreInput.value)
    return Number.isFinite(n) ? Math.max(0, Math.min(1, n)) : 0
  }

  buttons.complete.addEventListener('click', function () {
    void send('Completed', statement(VERBS.completed, 'completed', { completion: true, duration: duration() }, { moveOn: true }))
  })
  buttons.pass.addEventListener('click', function () {
    var s = score()
    void send('Passed', statement(VERBS.passed, 'passed', { success: true, score: { scaled: s }, duration: duration() }, { moveOn: true, mastery: true }))
  })
  buttons.fail.addEventListener('click', function () {
    var s = score()
    void send('Failed', statement(VERBS.failed, 'failed', { success: false, score: { scaled: s }, duration: duration() }, { moveOn: true, mastery: true }))
  })
  buttons.terminate.addEventListener('click', async function () {
    if (finished) return
    enable(false)
    var ok = await send('Terminated', statement(VERBS.terminated, 'terminated', { duration: duration() }))
    if (!ok) {
      enable(true)
      return
    }
    finished = true
    if (launchData && launchData.returnURL) {
      log('Return', 'going to ' + launchData.returnURL)
      window.location.assign(launchData.returnURL)
    } else log('Return', 'no returnURL in LaunchData')
  })
  // What the LRS holds of this AU in this registration (the LMS's Launched, Abandoned, Waived... included).
  buttons.history.addEventListener('click', async function () {
    var names = ['launched', 'initialized', 'terminated', 'abandoned', 'waived']
    try {
      var counts = await Promise.all(
        names.map(async function (name) {
          var res = await lrs('GET', 'statements', { registration: launch.registration, activity: launch.activityId, verb: VERBS[name], limit: '100' })
          if (!res.ok) throw new Error(await failure(res))
          var body = await res.json()
          return name + ' ' + body.statements.length
        }),
      )
      log('History', counts.join(', '))
    } catch (e) {
      log('History', e && e.message ? e.message : 'failed')
    }
  })

  async function start() {
    var missing = Object.keys(launch).filter(function (k) {
      return !launch[k]
    })
    if (missing.length > 0) {
      unitText.textContent = 'This unit must be launched by the learning portal.'
      log('Launch parameters', 'missing ' + missing.join(', '))
      return
    }
    try {
      actor = JSON.parse(launch.actor)
    } catch (_e) {
      log('Launch parameters', 'actor is not JSON')
      return
    }
    log('Launch parameters', 'ok')
    unitText.textContent = 'Unit ' + launch.activityId

    // cmi5 §8.2: the fetch URL, POSTed once, hands out the auth-token.
    try {
      var res = await fetch(launch.fetch, { method: 'POST' })
      var body = await res.json().catch(function () {
        return {}
      })
      if (!res.ok || typeof body['auth-token'] !== 'string') {
        log('Fetch auth-token', 'failed (' + res.status + ')' + (body['error-code'] ? ' error-code ' + body['error-code'] : ''))
        return
      }
      authToken = body['auth-token']
      log('Fetch auth-token', 'ok')
    } catch (_e) {
      log('Fetch auth-token', 'failed (network)')
      return
    }

    // cmi5 §10.2: the LMS's LaunchData, in the State API.
    try {
      var state = await lrs('GET', 'activities/state', {
        stateId: 'LMS.LaunchData',
        activityId: launch.activityId,
        agent: JSON.stringify(actor),
        registration: launch.registration,
      })
      if (!state.ok) {
        log('LaunchData', await failure(state))
        return
      }
      launchData = await state.json()
      var mastery = typeof launchData.masteryScore === 'number' ? ', masteryScore ' + launchData.masteryScore : ''
      log('LaunchData', 'ok (launchMode ' + launchData.launchMode + ', moveOn ' + launchData.moveOn + mastery + ')')
    } catch (e) {
      log('LaunchData', 'failed (' + (e && e.message ? e.message : 'network') + ')')
      return
    }

    // cmi5 §11: the learner's preferences (the LMS may have none).
    try {
      var prefs = await lrs('GET', 'agents/profile', { profileId: 'cmi5LearnerPreferences', agent: JSON.stringify(actor) })
      log('Learner preferences', prefs.ok ? 'ok' : prefs.status === 404 ? 'none' : await failure(prefs))
    } catch (_e) {
      log('Learner preferences', 'failed (network)')
    }

    var initialized = await send('Initialized', statement(VERBS.initialized, 'initialized'))
    if (!initialized) return
    startedAt = Date.now()
    enable(true)
    if (launchData.launchMode !== 'Normal') {
      // Browse and Review: no completion or success statements (cmi5 §10.2.2).
      buttons.complete.disabled = true
      buttons.pass.disabled = true
      buttons.fail.disabled = true
    }
    log('Ready', 'yes')
  }

  void start()
})()
