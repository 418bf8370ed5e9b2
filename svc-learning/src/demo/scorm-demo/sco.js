// Field Safety Essentials: a one-SCO SCORM 1.2 lesson of four pages.
// It finds the LMS API the standard way, resumes at the saved page, saves its place on every page
// change and completes on the last page. No inline script: the content may run under a strict CSP.
;(function () {
  'use strict'

  var PAGES = ['pages/1-welcome.html', 'pages/2-hazards.html', 'pages/3-protective-equipment.html', 'pages/4-summary.html']
  var LAST = PAGES.length - 1

  // The SCORM 1.2 API search: up the parent chain (at most 7 levels), then the opener's chain.
  function findAPI(win) {
    var tries = 0
    while (win.API == null && win.parent != null && win.parent !== win) {
      tries++
      if (tries > 7) return null
      win = win.parent
    }
    return win.API || null
  }
  function getAPI() {
    var api = findAPI(window)
    if (api == null && window.opener != null && typeof window.opener !== 'undefined') api = findAPI(window.opener)
    return api
  }

  var api = getAPI()
  var initialized = false
  var finished = false
  var completed = false
  var current = 0
  var visited = {}
  var startedAt = new Date()

  function get(name) {
    if (!initialized) return ''
    var value = api.LMSGetValue(name)
    return value == null ? '' : String(value)
  }
  function set(name, value) {
    if (initialized) api.LMSSetValue(name, String(value))
  }
  function commit() {
    if (initialized && !finished) api.LMSCommit('')
  }

  function visitedList() {
    var list = []
    for (var i = 0; i <= LAST; i++) if (visited[i]) list.push(i)
    return list
  }

  // suspend_data: "visited=0,1,2" (the pages seen so far).
  function restore(data) {
    var match = /(?:^|;)visited=([0-9,]*)/.exec(data)
    if (!match) return
    match[1].split(',').forEach(function (s) {
      var n = parseInt(s, 10)
      if (!isNaN(n) && n >= 0 && n <= LAST) visited[n] = true
    })
  }

  // CMITimespan of SCORM 1.2: HHHH:MM:SS.SS
  function timespan(ms) {
    var total = Math.max(0, Math.round(ms / 10)) / 100
    var h = Math.floor(total / 3600)
    var m = Math.floor((total % 3600) / 60)
    var s = total - h * 3600 - m * 60
    var pad = function (n, w) {
      n = String(n)
      while (n.length < w) n = '0' + n
      return n
    }
    return pad(h, 4) + ':' + pad(m, 2) + ':' + pad(s.toFixed(2), 5)
  }

  function complete() {
    if (completed) return
    completed = true
    set('cmi.core.score.min', 0)
    set('cmi.core.score.max', 100)
    set('cmi.core.score.raw', Math.round((visitedList().length / PAGES.length) * 100))
    set('cmi.core.lesson_status', 'completed')
    set('cmi.core.exit', '')
  }

  function show(index) {
    current = Math.max(0, Math.min(LAST, index))
    visited[current] = true
    document.getElementById('page').setAttribute('src', PAGES[current])
    document.getElementById('position').textContent = 'Page ' + (current + 1) + ' of ' + PAGES.length
    document.getElementById('previous').disabled = current === 0
    document.getElementById('next').disabled = current === LAST
    set('cmi.core.lesson_location', current)
    set('cmi.suspend_data', 'visited=' + visitedList().join(','))
    if (current === LAST) complete()
    commit()
  }

  // Called from pagehide, beforeunload and unload: only the first call finishes the session.
  function finish() {
    if (!initialized || finished) return
    if (!completed) set('cmi.core.exit', 'suspend')
    set('cmi.core.session_time', timespan(new Date() - startedAt))
    api.LMSCommit('')
    finished = true
    api.LMSFinish('')
  }

  function start() {
    var note = document.getElementById('lms-state')
    if (api) {
      var result = api.LMSInitialize('')
      initialized = result === true || String(result) === 'true'
    }
    if (!initialized) {
      note.textContent = 'Not connected to the learning system: your progress will not be saved.'
    }
    var status = get('cmi.core.lesson_status')
    completed = status === 'completed' || status === 'passed'
    var resumeAt = 0
    if (get('cmi.core.entry') === 'resume') {
      restore(get('cmi.suspend_data'))
      var saved = parseInt(get('cmi.core.lesson_location'), 10)
      if (!isNaN(saved)) resumeAt = saved
      if (resumeAt > 0) note.textContent = 'Welcome back: you are where you left off.'
    }
    if (initialized && (status === '' || status === 'not attempted')) set('cmi.core.lesson_status', 'incomplete')

    document.getElementById('previous').addEventListener('click', function () {
      show(current - 1)
    })
    document.getElementById('next').addEventListener('click', function () {
      show(current + 1)
    })
    window.addEventListener('pagehide', finish)
    window.addEventListener('beforeunload', finish)
    window.addEventListener('unload', finish)
    show(resumeAt)
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
  else start()
})()
