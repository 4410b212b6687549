// The moderation queue, live (docs/console.md, "The live queue"): on a page
// that carries data-live-queue (the desk's two tabs), an EventSource on the
// queue's stream keeps the page current. data-live-kind says which items
// the page lists (posts, or applications), data-live-list its list's id;
// news of the other kind is left to the other tab. A report or another moderator's
// decision refreshes the list, though never under a moderator who is typing
// in the list, has rows selected or a dialog open: the refresh waits until
// they are done. A decision also says so in a polite toast; a claim writes
// "Ana is reviewing" into its row; the count updates the sidebar's badge.
// The browser reconnects by itself; the stream closes when the page is left.
(() => {
  'use strict';

  const marker = document.querySelector('[data-live-queue]');
  if (!marker || !window.EventSource) return;
  const applications = marker.dataset.liveKind === 'applications';
  const listID = marker.dataset.liveList || 'post-list';
  const refreshEvent = applications ? 'plaza:applications' : 'plaza:posts';

  // mine says whether a piece of news is about this page's kind of item.
  function mine(d) { return applications === !!d.applicationId; }

  // ---- Refreshing the list, when the moderator is not in the middle of something
  let pending = false;

  function busy() {
    if (document.querySelector('dialog[open]')) return true;
    const list = document.getElementById(listID);
    if (!list) return false;
    const el = document.activeElement;
    const typing = el && list.contains(el) && (el.matches('textarea, select, [contenteditable]') ||
      (el.matches('input') && !['checkbox', 'radio', 'button', 'submit'].includes(el.type)));
    return typing || list.querySelector('[data-select]:checked') !== null;
  }

  function refreshNow() {
    if (busy()) { pending = true; return; }
    pending = false;
    document.body.dispatchEvent(new CustomEvent(refreshEvent));
  }

  // News comes in bursts (a bulk decision is one piece of news a post):
  // one refresh answers a burst.
  let refreshTimer = 0;
  function refresh() {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => { refreshTimer = 0; refreshNow(); }, burst);
  }
  const burst = 150; // ms

  function resume() {
    // After focus moves, activeElement is the new element only once the
    // event is over.
    if (pending) setTimeout(() => { if (pending) refreshNow(); }, 0);
  }
  document.addEventListener('focusout', resume);
  document.addEventListener('close', resume, true); // a dialog's close does not bubble
  document.addEventListener('change', resume);

  // ---- Toasts
  const did = { approve: 'approved', hide: 'hid', delete: 'deleted', flag: 'flagged', dismiss: 'dismissed the reports of', undo: 'undid the last decision on', reject: 'rejected' };
  const items = applications ? 'applications' : 'posts';

  function toast(message) {
    document.body.dispatchEvent(new CustomEvent('plaza:toast', { detail: { message, kind: 'info' } }));
  }

  // One toast a burst of decisions: "mo hid “Spam”", or "mo decided on 12 posts".
  let decided = [];
  let toastTimer = 0;
  function tell(d) {
    decided.push(d);
    if (toastTimer) return;
    toastTimer = setTimeout(() => {
      const batch = decided;
      decided = [];
      toastTimer = 0;
      const by = batch[0].by;
      if (batch.length === 1) toast(`${by} ${did[batch[0].action] || batch[0].action} “${batch[0].title}”`);
      else if (batch.every((d) => d.by === by)) toast(`${by} decided on ${batch.length} ${items}`);
      else toast(`Other moderators decided on ${batch.length} ${items}`);
    }, burst);
  }

  // ---- The sidebar's badge
  function showCount(n) {
    const badge = document.querySelector('[data-queue-badge]');
    if (!badge) return;
    badge.querySelector('[data-queue-count]').textContent = n.toLocaleString('en-US');
    badge.title = `${n.toLocaleString('en-US')} ${n === 1 ? 'post' : 'posts'} awaiting review`;
    badge.hidden = n === 0;
  }

  // ---- Claims
  const expiries = new Map(); // claim note's key → timer that frees its row when the claim runs out

  function showClaim(postId, by, until) {
    const note = document.querySelector(`[data-claim-note="${CSS.escape(postId)}"]`);
    if (!note) return;
    const other = note.querySelector('[data-claim-other]');
    const claim = note.querySelector('[data-claim-button]');
    if (!other || !claim) return; // the viewer's own claim: the server drew it
    clearTimeout(expiries.get(postId));
    if (by) note.querySelector('[data-claim-by]').textContent = by;
    other.hidden = !by;
    claim.hidden = !!by;
    const row = note.closest('[data-row]');
    if (row) row.toggleAttribute('data-claimed', !!by); // dimmed while another moderator reviews it
    note.dataset.claimUntil = until || '';
    if (by && until) expiries.set(postId, setTimeout(() => showClaim(postId, '', ''), Date.parse(until) - Date.now()));
  }

  // Claims drawn by the server run out in the browser too.
  function watchClaims(root) {
    for (const note of root.querySelectorAll('[data-claim-note][data-claim-until]')) {
      const other = note.querySelector('[data-claim-other]');
      if (other && !other.hidden && note.dataset.claimUntil) {
        showClaim(note.dataset.claimNote, note.querySelector('[data-claim-by]').textContent, note.dataset.claimUntil);
      }
    }
  }
  watchClaims(document);
  document.body.addEventListener('htmx:afterSettle', () => watchClaims(document));

  // ---- The stream
  let source = null;
  let lost = false;

  function read(e) {
    try { return JSON.parse(e.data); } catch { return {}; }
  }

  function open() {
    if (source) return;
    source = new EventSource(marker.dataset.liveQueue);
    source.addEventListener('open', () => {
      if (lost) refresh(); // news may have gone by while the stream was down
      lost = false;
      marker.dataset.liveState = 'open';
    });
    source.addEventListener('error', () => { lost = true; marker.dataset.liveState = 'lost'; });
    source.addEventListener('queue', (e) => {
      const d = read(e);
      if (typeof d.count === 'number') showCount(d.count);
    });
    source.addEventListener('report', () => { if (!applications) refresh(); });
    source.addEventListener('application', () => { if (applications) refresh(); });
    source.addEventListener('resync', refresh);
    source.addEventListener('decision', (e) => {
      const d = read(e);
      if (!mine(d)) return;
      if (d.by && d.title) tell(d);
      refresh();
    });
    // A claim note's key is the post's id, or "application-" and the
    // application's (views.ApplicationNewsKey).
    source.addEventListener('claim', (e) => {
      const d = read(e);
      const key = d.applicationId ? `application-${d.applicationId}` : d.postId;
      if (key && mine(d)) showClaim(key, d.released ? '' : d.by, d.released ? '' : d.until);
    });
  }

  function close() {
    if (source) source.close();
    source = null;
    marker.dataset.liveState = 'closed';
  }

  window.addEventListener('pagehide', close);
  window.addEventListener('pageshow', (e) => { if (e.persisted) { lost = true; open(); } });
  open();
})();
