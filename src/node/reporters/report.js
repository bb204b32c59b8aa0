// The HTML report's script (html.ts inlines it). Progressive only: the page reads fully without it.
// Print opens every fold (and restores them after); a link to a case, or to a step inside a closed case,
// opens that case.
;(function () {
  /** @returns {HTMLDetailsElement[]} */
  var all = function () {
    return Array.prototype.slice.call(document.querySelectorAll('details'))
  }
  var saved = null
  window.addEventListener('beforeprint', function () {
    saved = all().map(function (d) {
      return d.open
    })
    all().forEach(function (d) {
      d.open = true
    })
  })
  window.addEventListener('afterprint', function () {
    if (saved) {
      all().forEach(function (d, i) {
        d.open = saved[i]
      })
      saved = null
    }
  })
  document.querySelectorAll('[data-fold]').forEach(function (b) {
    b.addEventListener('click', function () {
      var open = b.getAttribute('data-fold') === 'open'
      ;/** @type {NodeListOf<HTMLDetailsElement>} */ (document.querySelectorAll('details.case-box')).forEach(
        function (d) {
          d.open = open
        },
      )
    })
  })
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1))
    if (!id) return
    var el = document.getElementById(id)
    if (!el) return
    for (var p = el; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS') /** @type {HTMLDetailsElement} */ (p).open = true
    }
    // A link to a case (the matrix, the index, the rules broken) opens the case's own fold too.
    var fold = /** @type {HTMLDetailsElement | null} */ (el.querySelector(':scope > details.case-box'))
    if (fold) fold.open = true
    el.scrollIntoView()
  }
  window.addEventListener('hashchange', reveal)
  reveal()
})()
