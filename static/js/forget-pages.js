// Console pages show other people's data (emails, reports, addresses), so
// no copy of them stays in the browser once seen: htmx keeps no history
// snapshots (historyCacheSize 0 in views/htmx.go), and this script, run on
// every console page and on the sign-in and sign-out pages, removes any
// snapshot an earlier version left in this tab's storage. Signing out
// removes them before the form leaves; the answer's Clear-Site-Data header
// clears the rest of the site's storage and cache.
(() => {
  'use strict';
  const key = 'htmx-history-cache';

  function forget() {
    for (const store of [window.sessionStorage, window.localStorage]) {
      try { store.removeItem(key); } catch { /* storage turned off */ }
    }
  }

  forget();
  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (form instanceof HTMLFormElement && new URL(form.action, location.href).pathname === '/api/auth/signout') forget();
  }, true);
})();
