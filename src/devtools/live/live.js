// The live page's only script (page.ts inlines it): poll GET live?state=…, swap in the fragments that
// changed, keep what the person opened open, and drive the scenario form. Plain ES5-level JS, run as is;
// its one input is the JSON block #initial (the poll interval).
;(function () {
  var initial = JSON.parse(document.getElementById('initial').textContent)
  var state = '',
    touched = {}
  // The token is in the fragment (#token=...), which the browser never sends: it goes out only as the header.
  var token = (/(?:^|[#&])token=([^&]*)/.exec(location.hash) || [])[1]
  token = token ? decodeURIComponent(token) : ''
  var worldParam = (/[?&]world=([^&]*)/.exec(location.search) || [])[1]
  var base = location.pathname.replace(/[^/]*$/, '')
  function api(path) {
    return base + path + (worldParam ? (path.indexOf('?') < 0 ? '?' : '&') + 'world=' + worldParam : '')
  }
  function headers(extra) {
    var h = { accept: 'application/json', authorization: 'Bearer ' + token }
    for (var k in extra) h[k] = extra[k]
    return h
  }
  function origin() {
    var o = location.origin + location.pathname.replace(/\/__relay\/?[^/]*$/, '')
    document.querySelectorAll('[data-origin]').forEach(function (el) {
      el.textContent = o
    })
  }
  // The world panel shows the token masked; the page fills in the one in its address when it is that world's.
  function tokens() {
    document.querySelectorAll('[data-token]').forEach(function (el) {
      var m = el.getAttribute('data-token')
      if (token && (m === '' || m === '…' + token.slice(-4))) el.textContent = token
    })
  }
  if (!token) {
    document.getElementById('no-token').hidden = false
    ;/** @type {HTMLElement} */ (document.querySelector('.layout')).hidden = true
  }
  var conn = document.getElementById('conn'),
    connText = document.getElementById('conn-text')
  var announce = document.getElementById('announce'),
    list = document.getElementById('visits')
  document.addEventListener('click', function (e) {
    var target = /** @type {Element} */ (e.target)
    var s = target.closest && target.closest('summary')
    if (s && s.parentElement.id) touched[s.parentElement.id] = true
  })
  function fragment(markup) {
    var t = document.createElement('template')
    t.innerHTML = markup
    return /** @type {HTMLElement} */ (t.content.firstElementChild)
  }
  function keepOpen(from, to) {
    if (!from) return
    from.querySelectorAll('details[id]').forEach(function (d) {
      var n = to.querySelector('#' + CSS.escape(d.id))
      if (n && (touched[d.id] || !d.classList.contains('visit-box'))) n.open = d.open
    })
  }
  function apply(data) {
    state = data.state
    if (data.unchanged) return
    document.getElementById('owner-kennitala').textContent = data.ownerKennitala
    var select = /** @type {HTMLSelectElement} */ (document.getElementById('scenario'))
    // A scenario the person picked and has not switched to yet stays picked, focused or not.
    if (document.activeElement !== select && !picked) select.value = data.scenario
    document.getElementById('scenario-description').textContent = data.scenarioDescription
    var world = document.getElementById('world'),
      next = document.createElement('div')
    next.innerHTML = data.worldHtml
    keepOpen(world, next)
    world.innerHTML = ''
    while (next.firstChild) world.appendChild(next.firstChild)
    document.getElementById('counts').innerHTML = data.countsHtml
    var seen = {},
      messages = []
    data.visits.forEach(function (v, i) {
      seen[v.id] = true
      var old = document.getElementById(v.id),
        node = old
      if (v.html && (!old || old.getAttribute('data-version') !== v.version)) {
        node = fragment(v.html)
        node.setAttribute('data-version', v.version)
        if (old) {
          keepOpen(old, node)
          old.replaceWith(node)
        } else {
          node.classList.add('arrived')
        }
        if (v.status !== 'in-progress' && (!old || old.getAttribute('data-status') === 'in-progress'))
          messages.push(
            'Visit ' + v.number + (v.status === 'failed' ? ' failed: ' + v.rulesBroken.join(', ') : ' ' + v.status),
          )
        else if (!old) messages.push('Visit ' + v.number + ' started')
      }
      if (!node) return
      node.setAttribute('data-status', v.status)
      if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null)
    })
    Array.prototype.slice.call(list.children).forEach(function (li) {
      if (!seen[li.id]) li.remove()
    })
    document.getElementById('empty').hidden = data.visits.length > 0
    origin()
    tokens()
    if (messages.length) announce.textContent = messages.join('. ') + '.'
  }
  function have() {
    return Array.prototype.map
      .call(list.children, function (li) {
        return li.id + '@' + li.getAttribute('data-version')
      })
      .join(',')
  }
  var timer
  function poll() {
    clearTimeout(timer)
    fetch(api('live?state=' + encodeURIComponent(state) + '&have=' + encodeURIComponent(have())), {
      headers: headers(),
    })
      .then(function (r) {
        if (r.status === 401) {
          stopped = true
          throw new Error("The token in this page's address is not one of this mock's worlds.")
        }
        if (!r.ok) throw new Error('HTTP ' + r.status)
        return r.json()
      })
      .then(function (data) {
        apply(data)
        conn.classList.remove('down')
        connText.textContent = 'Live: updated ' + new Date().toLocaleTimeString()
      })
      .catch(function (e) {
        conn.classList.add('down')
        connText.textContent = stopped ? e.message : 'Not connected: is relay-mock serve still running? Retrying.'
      })
      .then(function () {
        if (!stopped) timer = setTimeout(poll, initial.poll)
      })
  }
  var stopped = false
  // The exports need the header too: fetched, then saved from memory.
  document.querySelectorAll('a[data-download]').forEach(function (a) {
    a.addEventListener('click', function (e) {
      e.preventDefault()
      fetch(api(a.getAttribute('href')), { headers: headers() })
        .then(function (r) {
          if (!r.ok) throw new Error('HTTP ' + r.status)
          return r.blob()
        })
        .then(function (blob) {
          var url = URL.createObjectURL(blob),
            link = document.createElement('a')
          link.href = url
          link.download = a.getAttribute('data-download')
          document.body.appendChild(link)
          link.click()
          link.remove()
          setTimeout(function () {
            URL.revokeObjectURL(url)
          }, 1000)
        })
        .catch(function (err) {
          status.classList.add('error')
          status.textContent = 'Failed: ' + err.message
        })
    })
  })
  // relay-mock proxy only: the assumptions held against the real service, opened as a page of their own.
  document.querySelectorAll('a[data-open]').forEach(function (a) {
    a.addEventListener('click', function (e) {
      e.preventDefault()
      fetch(api(a.getAttribute('href')), { headers: headers({ accept: 'text/html' }) })
        .then(function (r) {
          if (!r.ok) throw new Error('HTTP ' + r.status)
          return r.text()
        })
        .then(function (text) {
          window.open(URL.createObjectURL(new Blob([text], { type: 'text/html' })), '_blank')
        })
        .catch(function (err) {
          status.classList.add('error')
          status.textContent = 'Failed: ' + err.message
        })
    })
  })
  var status = document.getElementById('action-status')
  function act(method, path, body, done) {
    status.classList.remove('error')
    status.textContent = 'Working…'
    fetch(api(path), {
      method: method,
      headers: headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(body),
    })
      .then(function (r) {
        return r.json().then(function (j) {
          if (!r.ok) throw new Error(j.message || 'HTTP ' + r.status)
          return j
        })
      })
      .then(function (j) {
        status.textContent = done(j)
        state = ''
        poll()
      })
      .catch(function (e) {
        status.classList.add('error')
        status.textContent = 'Failed: ' + e.message
      })
  }
  var picked = false
  document.getElementById('scenario').addEventListener('change', function () {
    picked = true
  })
  document.getElementById('scenario-form').addEventListener('submit', function (e) {
    e.preventDefault()
    var name = /** @type {HTMLSelectElement} */ (document.getElementById('scenario')).value
    act('PUT', 'scenario', { name: name }, function (j) {
      picked = false
      return 'Switched to ' + j.scenario.name + ': the world is re-seeded.'
    })
  })
  // The variants' form is in the world panel, drawn afresh by each poll: its events are caught on the document.
  document.addEventListener('submit', function (e) {
    if (!e.target || /** @type {HTMLElement} */ (e.target).id !== 'variant-form') return
    e.preventDefault()
    var variant = /** @type {HTMLSelectElement} */ (document.getElementById('variant')).value
    act('POST', 'variants', { variants: [variant] }, function () {
      return 'This world now answers under ' + variant + '.'
    })
  })
  document.addEventListener('click', function (e) {
    if (!e.target || /** @type {HTMLElement} */ (e.target).id !== 'variants-clear') return
    act('DELETE', 'variants', undefined, function () {
      return 'This world answers with relay-mock’s choices again.'
    })
  })
  document.getElementById('reset').addEventListener('click', function () {
    act('POST', 'reset', {}, function (j) {
      return 'The world is re-seeded (' + j.scenario.name + ').'
    })
  })
  origin()
  if (token) poll()
})()
