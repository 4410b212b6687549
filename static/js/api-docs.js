// The API reference on /api/docs is written on the server; this script only
// adds a filter over its operations and opens the operation or schema an
// address points at (#get_api_version, #schema-V1User).
(function () {
  'use strict';
  var box = document.getElementById('api-filter-box');
  var input = document.getElementById('api-filter');
  var count = document.getElementById('api-filter-count');
  var ops = Array.prototype.slice.call(document.querySelectorAll('.api-op'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('.api-group'));

  function filter() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    ops.forEach(function (op) {
      var text = op.getAttribute('data-filter');
      var match = words.every(function (w) { return text.indexOf(w) !== -1; });
      op.hidden = !match;
      if (match) shown++;
    });
    groups.forEach(function (g) {
      g.hidden = !g.querySelector('.api-op:not([hidden])');
    });
    count.textContent = words.length ? shown + ' of ' + ops.length + ' operations match' : '';
  }

  // A link to an operation or a schema opens it (and the schema's link
  // target scrolls into view once open).
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === 'DETAILS' && !el.open) {
      el.open = true;
      el.scrollIntoView();
    }
  }

  if (box && input) {
    box.hidden = false;
    input.addEventListener('input', filter);
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();
