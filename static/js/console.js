// The console's behaviour (views/layout.templ loads it on every console
// page): typed JSON bodies for htmx, toasts, field errors from 422 answers,
// dialogs, edit locks, bulk selection, copy buttons, re-confirmation of
// dangerous actions and keyboard shortcuts.
// No inline script anywhere, so the strict CSP (script-src 'self') holds.
(() => {
  'use strict';

  // ---- Typed JSON bodies -------------------------------------------------
  // Console forms post to the same routes as API clients, with the same
  // JSON bodies. A control's value is typed by the control: a checkbox is a
  // boolean (or, with data-json="list", one entry of an array), a number
  // input (or a select marked data-json="number") a number, data-json="bool" reads "true"/"false", a dotted name
  // nests ("changes.status"), data-json="time" sends a local date and time
  // as RFC 3339, and data-omit-empty leaves an empty value out.
  function setPath(obj, name, value) {
    const keys = name.split('.');
    let o = obj;
    for (const k of keys.slice(0, -1)) o = o[k] = o[k] || {};
    o[keys[keys.length - 1]] = value;
  }

  function getPath(obj, name) {
    return name.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
  }

  function formValues(form) {
    const out = {};
    for (const el of form.elements) {
      const name = el.name;
      if (!name || el.disabled || el.type === 'submit' || el.type === 'button' || 'inPath' in el.dataset) continue;
      const kind = el.dataset.json || '';
      if (kind === 'list') {
        if (getPath(out, name) === undefined) setPath(out, name, []);
        if ((el.type !== 'checkbox' && el.type !== 'radio') || el.checked) getPath(out, name).push(el.value);
        continue;
      }
      if (el.type === 'radio') {
        if (el.checked) setPath(out, name, el.value);
        continue;
      }
      if (el.type === 'checkbox') {
        setPath(out, name, el.checked);
        continue;
      }
      if (el.multiple) {
        setPath(out, name, Array.from(el.selectedOptions, (o) => o.value));
        continue;
      }
      const v = el.value;
      if (v === '' && ('omitEmpty' in el.dataset || el.type === 'number' || kind === 'bool')) continue;
      if (el.type === 'number' || el.type === 'range' || kind === 'number') setPath(out, name, Number(v));
      else if (kind === 'bool') setPath(out, name, v === 'true');
      else if (kind === 'time') setPath(out, name, new Date(v).toISOString()); // the browser's local time, as RFC 3339
      else setPath(out, name, v);
    }
    return out;
  }

  let internal = null;
  htmx.defineExtension('plaza-json', {
    init(api) { internal = api; },
    onEvent(name, evt) {
      if (name !== 'htmx:configRequest') return;
      const d = evt.detail;
      if (d.verb === 'get') {
        // An empty filter means "no filter": leave it out of the query and
        // of the URL the list pushes.
        for (const [k, v] of Array.from(d.parameters.entries ? d.parameters.entries() : Object.entries(d.parameters))) {
          if (v === '') d.parameters.delete ? d.parameters.delete(k) : delete d.parameters[k];
        }
        return;
      }
      // A "{name}" in the path is the value of the form's control of that
      // name (marked data-in-path, and so left out of the body): a new
      // feature flag's PUT names the flag in its URL.
      const form = formOf(d.elt);
      d.path = d.path.replace(/\{([A-Za-z]+)\}/g, (m, k) => {
        const el = form && form.elements.namedItem(k);
        return el && 'inPath' in el.dataset ? encodeURIComponent(el.value.trim()) : m;
      });
      d.headers['Content-Type'] = 'application/json';
      d.headers.Accept = 'text/html';
    },
    encodeParameters(xhr, parameters, elt) {
      xhr.overrideMimeType('text/html');
      const form = elt.tagName === 'FORM' ? elt : elt.form || elt.closest('form');
      const body = form ? formValues(form) : {};
      const vals = internal.getExpressionVars(elt);
      for (const k of Object.keys(vals)) setPath(body, k, vals[k]);
      // A control outside a list's form (data-selection="<form id>")
      // sends the ids of the rows ticked for that form: "Purge selected".
      if (elt.dataset && elt.dataset.selection) {
        const sel = CSS.escape(elt.dataset.selection);
        body.userIds = Array.from(document.querySelectorAll(`[data-select][form="${sel}"]:checked`), (c) => c.value);
      }
      return JSON.stringify(body);
    },
  });

  // ---- Toasts ------------------------------------------------------------
  // A response's HX-Trigger {"plaza:toast": {message, kind}} confirms an
  // action without a reload; errors come through the same region. A toast
  // waits while the pointer rests on it or the focus is in it (WCAG 2.2.1),
  // then goes after what was left of its time (at least two seconds).
  function toast(message, kind, undo) {
    const region = document.getElementById('toasts');
    if (!region || !message) return;
    const el = document.createElement('div');
    el.className = 'toast ' + (kind === 'error' ? 'toast-error' : 'toast-success');
    el.dataset.testid = 'toast';
    el.dataset.kind = kind || 'success';
    el.textContent = message;
    if (undo) offerUndo(el, [].concat(undo), message);
    region.appendChild(el);
    dismissLater(el, kind === 'error' ? 10000 : 5000);
  }

  function dismissLater(el, ms) {
    let left = ms;
    let since = 0;
    let timer = 0;
    const held = () => el.matches(':hover') || el.contains(document.activeElement);
    const run = () => { since = Date.now(); timer = setTimeout(() => el.remove(), left); };
    const pause = () => {
      if (!timer) return;
      clearTimeout(timer);
      timer = 0;
      left = Math.max(left - (Date.now() - since), 2000);
    };
    const resume = () => { if (!timer && el.isConnected && !held()) run(); };
    el.addEventListener('mouseenter', pause);
    el.addEventListener('focusin', pause);
    el.addEventListener('mouseleave', resume);
    el.addEventListener('focusout', () => setTimeout(resume, 0)); // activeElement moves after the event
    run();
  }

  document.body.addEventListener('plaza:toast', (e) => toast(e.detail.message, e.detail.kind, e.detail.undo));

  // ---- Errors ------------------------------------------------------------
  // The server answers an htmx request's failure with ErrorAlert: its
  // message, and for invalid input one line per field (data-field). Field
  // lines go under their fields; the rest to the form's error box or a toast.
  function parseAlert(html) {
    const doc = new DOMParser().parseFromString(html || '', 'text/html');
    const alert = doc.querySelector('[data-testid="error-alert"]');
    if (!alert) return null;
    return {
      message: (alert.querySelector('[data-message]') || alert).textContent.trim(),
      issues: Array.from(alert.querySelectorAll('[data-field]'), (li) => ({ field: li.dataset.field, message: li.textContent.trim() })),
    };
  }

  function clearErrors(form) {
    form.querySelectorAll('[data-error-for]').forEach((p) => { p.hidden = true; p.textContent = ''; });
    form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
    form.querySelectorAll('[data-form-error]').forEach((p) => { p.hidden = true; p.textContent = ''; });
  }

  function showErrors(form, alert) {
    clearErrors(form);
    const rest = [];
    for (const is of alert.issues) {
      const slot = form.querySelector(`[data-error-for="${CSS.escape(is.field)}"]`);
      if (!slot) { rest.push(is.message); continue; }
      slot.textContent = is.message;
      slot.hidden = false;
      form.querySelectorAll(`[name="${CSS.escape(is.field)}"]`).forEach((el) => {
        el.setAttribute('aria-invalid', 'true');
        el.setAttribute('aria-describedby', slot.id);
      });
    }
    const box = form.querySelector('[data-form-error]');
    const text = [alert.issues.length ? '' : alert.message, ...rest].filter(Boolean).join(' ');
    if (box && text) { box.textContent = text; box.hidden = false; } else if (text) toast(text, 'error');
    const first = form.querySelector('[aria-invalid="true"]');
    if (first) first.focus();
  }

  function formOf(elt) {
    return elt && (elt.tagName === 'FORM' ? elt : elt.form || elt.closest('form'));
  }

  document.body.addEventListener('htmx:beforeSwap', (e) => {
    const d = e.detail;
    if (d.xhr.status < 400) return;
    d.shouldSwap = false;
    d.isError = false;
    if (d.xhr.status === 403 && d.xhr.getResponseHeader('X-Plaza-Sudo') === 'required') {
      const elt = d.requestConfig && d.requestConfig.elt;
      const ev = d.requestConfig && d.requestConfig.triggeringEvent;
      askConfirmation(() => htmx.trigger(elt, ev && ev.type ? ev.type : 'click'));
      return;
    }
    const alert = parseAlert(d.xhr.responseText) || { message: 'Something went wrong (' + d.xhr.status + ').', issues: [] };
    const form = formOf(d.requestConfig && d.requestConfig.elt);
    if (form && (d.xhr.status === 422 || form.querySelector('[data-form-error]'))) showErrors(form, alert);
    else toast(alert.message, 'error');
  });

  document.body.addEventListener('htmx:sendError', () => toast('Plaza did not answer. Check the connection and try again.', 'error'));

  document.body.addEventListener('htmx:afterRequest', (e) => {
    const d = e.detail;
    // beforeSwap marks a 4xx as no error (it handles it), so htmx calls
    // it successful: a refused form keeps its errors and stays open.
    if (!d.successful || d.xhr.status >= 400) return;
    const form = formOf(d.elt);
    if (form && d.requestConfig.verb !== 'get') clearErrors(form);
    if (form && form.hasAttribute('data-reset-on-success') && d.requestConfig.verb !== 'get') {
      form.reset();
      form.querySelectorAll('input, textarea').forEach((el) => el.dispatchEvent(new Event('input', { bubbles: true })));
    }
    const dialog = d.elt.closest && d.elt.closest('dialog');
    if (dialog && dialog.open && d.requestConfig.verb !== 'get') {
      dialog.close();
      // Now, not on the close event, which a refresh the answer set off
      // may outrun by swapping the dialog out of the page.
      releaseLock(dialog);
    }
  });

  // ---- Phone menu --------------------------------------------------------
  // Below lg the sidebar folds behind a Menu button: open, every page of
  // it is in view (views/layout.templ), and Escape closes it again.
  function setNav(aside, open) {
    aside.toggleAttribute('data-nav-open', open);
    aside.querySelector('[data-nav-toggle]').setAttribute('aria-expanded', String(open));
  }
  document.addEventListener('click', (e) => {
    const toggle = e.target.closest('[data-nav-toggle]');
    if (toggle) setNav(toggle.closest('[data-nav]'), toggle.getAttribute('aria-expanded') !== 'true');
  });
  document.addEventListener('keydown', (e) => {
    const aside = e.key === 'Escape' && e.target.closest && e.target.closest('[data-nav-open]');
    if (aside) { setNav(aside, false); aside.querySelector('[data-nav-toggle]').focus(); }
  });

  // ---- Dialogs -----------------------------------------------------------
  // A list that polls skips its refresh while a dialog inside it is open:
  // the swap would take the dialog away from under the admin. A refresh an
  // event asked for (the dialog's own change done) still runs.
  document.body.addEventListener('htmx:beforeRequest', (e) => {
    const elt = e.detail.elt;
    const cfg = e.detail.requestConfig;
    if (cfg.verb === 'get' && !cfg.triggeringEvent && elt.querySelector && elt.querySelector('dialog[open]')) e.preventDefault();
  });
  document.addEventListener('click', (e) => {
    const opener = e.target.closest('[data-dialog-open]');
    if (opener) {
      const dialog = document.getElementById(opener.dataset.dialogOpen);
      if (dialog) { dialog.showModal(); dialog.dispatchEvent(new CustomEvent('plaza:open')); }
      return;
    }
    const closer = e.target.closest('[data-dialog-close]');
    if (closer) closer.closest('dialog').close();
  });

  // ---- Edit locks --------------------------------------------------------
  // A dialog with data-lock="type:id" holds the resource's edit lock while
  // it is open: taken on opening (its fieldset stays disabled until then,
  // and for good when another admin holds it), renewed every minute,
  // released on closing or leaving the page.
  const LOCKS = '/api/v1/admin/locks';
  const held = new Map();

  async function lockCall(method, url, body) {
    const res = await fetch(url, {
      method,
      credentials: 'same-origin',
      keepalive: method === 'DELETE',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    let json = {};
    try { json = await res.json(); } catch (_) { /* empty body */ }
    return { status: res.status, json };
  }

  async function takeLock(dialog) {
    const [type, id] = dialog.dataset.lock.split(':');
    const fieldset = dialog.querySelector('fieldset');
    const status = dialog.querySelector('[data-lock-status]');
    const { status: code, json } = await lockCall('POST', LOCKS, { type, id });
    if (code === 201) {
      fieldset.disabled = false;
      status.hidden = true;
      held.set(dialog, setInterval(() => lockCall('POST', LOCKS, { type, id }), 60000));
      const first = fieldset.querySelector('input, select, textarea');
      if (first) first.focus();
      return;
    }
    const err = json.error || {};
    status.textContent = code === 423
      ? `Being edited by ${err.lockedBy || 'another admin'} since ${new Date(err.lockedAt).toLocaleTimeString()}.`
      : err.message || 'The edit lock could not be taken.';
    status.hidden = false;
  }

  function releaseLock(dialog) {
    if (!held.has(dialog)) return;
    clearInterval(held.get(dialog));
    held.delete(dialog);
    const [type, id] = dialog.dataset.lock.split(':');
    lockCall('DELETE', `${LOCKS}/${encodeURIComponent(type)}/${encodeURIComponent(id)}`);
    dialog.querySelector('fieldset').disabled = true;
  }

  document.addEventListener('plaza:open', (e) => { if (e.target.dataset.lock) takeLock(e.target); }, true);
  document.addEventListener('close', (e) => { if (e.target.dataset && e.target.dataset.lock) releaseLock(e.target); }, true);
  window.addEventListener('pagehide', () => held.forEach((_, dialog) => releaseLock(dialog)));
  // A dialog a refresh swaps out while it holds its lock lets go of it.
  document.addEventListener('htmx:beforeCleanupElement', (e) => {
    held.forEach((_, dialog) => { if (e.target.contains(dialog)) releaseLock(dialog); });
  });

  // ---- Bulk selection ----------------------------------------------------
  // Row checkboxes (data-select) belong to a bulk form through their form
  // attribute; the bar of that form shows how many are chosen.
  function updateBulk() {
    document.querySelectorAll('[data-bulk-bar]').forEach((bar) => {
      const form = document.getElementById(bar.dataset.bulkBar);
      const n = form ? Array.from(form.elements).filter((el) => el.matches('[data-select]') && el.checked).length : 0;
      bar.hidden = n === 0;
      document.querySelectorAll('[data-bulk-count]').forEach((el) => { el.textContent = String(n); });
    });
  }

  document.addEventListener('change', (e) => {
    const all = e.target.closest('[data-select-all]');
    if (all) {
      document.querySelectorAll(`[data-select][form="${CSS.escape(all.getAttribute('form'))}"]`).forEach((cb) => { cb.checked = all.checked; });
    }
    if (e.target.matches('[data-select], [data-select-all]')) updateBulk();
  });
  document.body.addEventListener('htmx:afterSettle', updateBulk);

  // ---- Live previews ----------------------------------------------------
  // An element with data-mirror="<field id>" shows what the field says as
  // it is typed (data-empty when it says nothing).
  document.addEventListener('input', (e) => {
    if (!e.target.id) return;
    document.querySelectorAll(`[data-mirror="${CSS.escape(e.target.id)}"]`).forEach((el) => {
      el.textContent = e.target.value || el.dataset.empty || '';
    });
  });

  // A confirm button names what it will do: elements with
  // data-verb-of="<select id>" show the chosen option of that select
  // (data-verb), as in "Hide 3 posts".
  document.addEventListener('change', (e) => {
    const sel = e.target.closest('select[data-verb]');
    if (!sel) return;
    const label = sel.selectedOptions.length ? sel.selectedOptions[0].textContent.trim() : '';
    document.querySelectorAll(`[data-verb-of="${CSS.escape(sel.id)}"]`).forEach((el) => { el.textContent = label; });
  });

  // ---- Range outputs -----------------------------------------------------
  // A range input with data-output="<id>" shows its value, as a percentage,
  // in that element while it moves.
  document.addEventListener('input', (e) => {
    const el = e.target;
    if (!el.matches || !el.matches('input[type="range"][data-output]')) return;
    const out = document.getElementById(el.dataset.output);
    if (out) out.textContent = el.value + '%';
  });

  // ---- Copy buttons ------------------------------------------------------
  document.addEventListener('click', async (e) => {
    const btn = e.target.closest('[data-copy]');
    if (!btn) return;
    const src = document.getElementById(btn.dataset.copy);
    try {
      await navigator.clipboard.writeText(src.value || src.textContent.trim());
      toast('Copied to the clipboard');
    } catch (_) {
      src.select && src.select();
      toast('Select the text and copy it with Ctrl+C', 'error');
    }
  });

  // ---- Re-confirmation ("sudo mode") -------------------------------------
  // Dangerous actions answer 403 with X-Plaza-Sudo: required when the
  // session's last password or code is over 10 minutes old. The console then
  // asks for one in the sudo-confirm dialog, posts it to /api/auth/confirm
  // and, once confirmed, repeats the action. Links marked data-sudo (the
  // audit export's and the backups' downloads) ask first when
  // GET /api/auth/confirm says so.
  const CONFIRM = '/api/auth/confirm';
  let afterConfirm = null;

  function askConfirmation(then) {
    const dialog = document.getElementById('sudo-confirm');
    if (!dialog) return;
    const form = dialog.querySelector('form');
    form.reset();
    clearErrors(form);
    afterConfirm = then;
    dialog.showModal();
    form.querySelector('input').focus();
  }

  document.addEventListener('submit', async (e) => {
    const form = e.target.closest('[data-sudo-form]');
    if (!form) return;
    e.preventDefault();
    const body = {};
    for (const name of ['password', 'totp']) {
      const el = form.elements.namedItem(name); // no code field without two-factor sign-in
      if (el && el.value) body[name] = el.value;
    }
    const res = await fetch(CONFIRM, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'text/html', 'HX-Request': 'true' },
      body: JSON.stringify(body),
    });
    if (!res.ok) {
      const alert = parseAlert(await res.text()) || { message: 'Not confirmed (' + res.status + ').', issues: [] };
      showErrors(form, alert);
      return;
    }
    form.closest('dialog').close();
    const then = afterConfirm;
    afterConfirm = null;
    if (then) then();
  });

  document.addEventListener('click', async (e) => {
    const link = e.target.closest('a[data-sudo]');
    if (!link || link.dataset.confirmed) return;
    e.preventDefault();
    const res = await fetch(CONFIRM, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    const state = res.ok ? await res.json() : {};
    const follow = () => { link.dataset.confirmed = 'true'; link.click(); delete link.dataset.confirmed; };
    if (state.confirmed) follow(); else askConfirmation(follow);
  });

  // ---- Keyboard shortcuts ------------------------------------------------
  // "/" searches, "?" lists the shortcuts, j/k move through a list's rows
  // (data-row inside data-rows), Enter opens the selected row, a row's
  // buttons with data-key act on it (a/h/f/x/d in the moderation queue, a/r
  // in its applications),
  // u undoes what the last toast offers to undo, and Escape leaves a field
  // for its row, so the keys work again.
  function rows() {
    return Array.from(document.querySelectorAll('[data-rows] [data-row]'));
  }

  function select(row, focus) {
    // Unselected rows carry no aria-selected at all: a list item may not.
    rows().forEach((r) => (r === row ? r.setAttribute('aria-selected', 'true') : r.removeAttribute('aria-selected')));
    if (row && focus !== false) { row.scrollIntoView({ block: 'nearest' }); row.focus({ preventScroll: true }); }
  }

  function selected() {
    return document.querySelector('[data-rows] [data-row][aria-selected="true"]');
  }

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  function leaveField(el) {
    const row = el.closest('[data-row]');
    el.blur();
    if (row) select(row);
    else if (selected()) select(selected());
  }

  // A key that acts on the selected row, pressed while a decision (or an
  // undo) is on its way, waits for the list to settle and then acts, in
  // the order pressed; the page says which keys wait.
  const QUEUED = ['j', 'k', 'a', 'h', 'f', 'x', 'd', 'r', 'o', 'u', 'Enter'];
  let deciding = false;
  let waiting = [];

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && typing(e.target) && !e.target.closest('dialog')) {
      e.preventDefault();
      leaveField(e.target);
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || document.querySelector('dialog[open]')) return;
    if (deciding && QUEUED.includes(e.key)) {
      e.preventDefault();
      waiting.push(e.key);
      showWaiting();
      return;
    }
    if (runKey(e.key, e.target)) e.preventDefault();
  });

  // runKey does what key does, and says whether it did anything.
  function runKey(key, target) {
    const list = rows();
    const cur = selected();
    const at = list.indexOf(cur);
    switch (key) {
      case '/': {
        const search = document.querySelector('[data-search]');
        if (search) { search.focus(); search.select(); }
        return !!search;
      }
      case '?':
        document.getElementById('shortcut-help').showModal();
        return true;
      case 'j':
        if (list.length) select(list[Math.min(at + 1, list.length - 1)]);
        return list.length > 0;
      case 'k':
        if (list.length) select(list[Math.max(at - 1, 0)]);
        return list.length > 0;
      case 'u':
        return undoLast();
      case 'Enter': {
        const link = cur && cur.querySelector('[data-row-link]');
        if (link && target === cur) { link.click(); return true; }
        return false;
      }
    }
    const action = cur && cur.querySelector(`[data-key="${CSS.escape(key)}"]`);
    const outside = cur && document.querySelector(`[data-key="${CSS.escape(key)}"][form="decide-${CSS.escape(rowID(cur))}"]`);
    const button = action || outside;
    if (button && !button.disabled) { button.click(); return true; }
    return false;
  }

  function showWaiting() {
    const busy = deciding || waiting.length > 0;
    document.body.toggleAttribute('data-desk-busy', busy);
    const note = document.querySelector('[data-key-queue]');
    if (note) note.textContent = waiting.length ? `Waiting to act: ${waiting.join(' ')}` : '';
  }

  // The keys that waited act now, one after the other, until one starts
  // another decision (the rest wait again) or opens a dialog.
  function drain() {
    while (!deciding && waiting.length) {
      if (document.querySelector('dialog[open]')) { refuse('a dialog opened'); break; }
      const cur = selected();
      runKey(waiting.shift(), cur);
    }
    showWaiting();
  }

  function refuse(why) {
    if (waiting.length) toast(`Keys not carried out (${why}): ${waiting.join(' ')}`, 'error');
    waiting = [];
  }

  let settleTimer = 0;
  function startDeciding() {
    deciding = true;
    clearTimeout(settleTimer);
    showWaiting();
  }

  function doneDeciding() {
    deciding = false;
    clearTimeout(settleTimer);
    drain();
  }

  // A list that never settles after a decision (the refresh failed) lets
  // the waiting keys go after a while, on the selection as it is.
  function settleSoon() {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => { acted = null; restoring = null; doneDeciding(); }, 4000);
  }

  function failDeciding() {
    acted = null;
    restoring = null;
    deciding = false;
    clearTimeout(settleTimer);
    refuse('the decision failed');
    showWaiting();
  }

  // ---- Selecting by pointer and by Tab -----------------------------------
  // A click in a row selects it; so does the focus arriving in it by Tab.
  // A click selects on click, not on press: the rows around would move
  // under the pointer between press and release.
  let pressing = false;
  document.addEventListener('pointerdown', () => { pressing = true; }, true);
  document.addEventListener('pointerup', () => setTimeout(() => { pressing = false; }, 0), true);

  function tableRow(el) {
    const row = el && el.closest && el.closest('[data-rows] [data-row]');
    return row && row.tagName === 'TR' && !el.closest('dialog') ? row : null;
  }

  // Ticking a row for a bulk decision selects nothing: the row would open
  // and move the rows under it, where the next tick is aimed.
  document.addEventListener('click', (e) => {
    const row = tableRow(e.target);
    if (!row || row.getAttribute('aria-selected') === 'true' || e.target.closest('[data-select]')) return;
    select(row, !e.target.closest('a, button, input, select, textarea, summary, label'));
  });

  document.addEventListener('focusin', (e) => {
    const row = tableRow(e.target);
    if (!row || pressing || row.getAttribute('aria-selected') === 'true' || e.target.matches('[data-select]')) return;
    select(row, false);
  });

  // ---- Keeping the place -------------------------------------------------
  // A decision on a row re-renders its list (the row may leave it). The
  // next row is then selected and focused, so j/k and the action keys go
  // on working: the row after the one acted on, or the one now in its
  // place. Claiming, releasing and the claim's renewal are no decisions
  // and move nothing. A re-render nobody asked for (a filter, a live
  // refresh) keeps the selected row, without taking the focus from where
  // it is, and what was typed in the rows' reason fields.
  let acted = null;
  let restoring = null; // an undone post, to select once the list shows it again

  function rowID(row) {
    return row ? row.dataset.rowId || '' : '';
  }

  document.addEventListener('htmx:beforeRequest', (e) => {
    const elt = e.detail.elt;
    const row = elt && elt.closest && (elt.closest('[data-rows] [data-row]') || decisionRow(elt));
    // Only a table's rows may carry aria-selected; a list item (the inbox)
    // is left as it is.
    if (!row || row.tagName !== 'TR' || e.detail.requestConfig.verb === 'get' || !elt.hasAttribute('data-decision')) return;
    const list = rows();
    const at = list.indexOf(row);
    acted = { elt, id: rowID(row), next: rowID(list[at + 1]), index: at, done: false };
    startDeciding();
  });

  // decisionRow is the row of a decision button that names its row's form.
  function decisionRow(elt) {
    const form = elt.getAttribute && elt.getAttribute('form');
    return form && form.startsWith('decide-') ? document.querySelector(`[data-row-id="${CSS.escape(form.slice(7))}"]`) : null;
  }

  document.addEventListener('htmx:afterRequest', (e) => {
    if (!acted || e.detail.elt !== acted.elt) return;
    if (!e.detail.successful || e.detail.xhr.status >= 400) { failDeciding(); return; }
    drafts.delete(acted.id);
    acted.done = true;
    settleSoon();
  });
  document.body.addEventListener('htmx:sendError', () => { if (acted && !acted.done) failDeciding(); });

  let kept = null;
  let listSwapped = false;
  document.body.addEventListener('htmx:beforeSwap', (e) => {
    if (e.detail.target && e.detail.target.querySelector && e.detail.target.querySelector('[data-rows]')) {
      const cur = selected();
      const active = document.activeElement;
      kept = { id: rowID(cur), index: rows().indexOf(cur), focused: !active || active === document.body || (cur && cur.contains(active)) };
      listSwapped = true;
    }
  });

  function byID(list, id) {
    return id ? list.find((r) => rowID(r) === id) : undefined;
  }

  document.body.addEventListener('htmx:afterSettle', () => {
    restoreRows();
    // A swap in the selected row (Claim becoming Release) takes the focus
    // with the button it replaces: the row has it back, for the keys.
    const cur = selected();
    if (cur && (!document.activeElement || document.activeElement === document.body)) cur.focus({ preventScroll: true });
    if (!listSwapped) return;
    listSwapped = false;
    const list = rows();
    if (!list.length) {
      kept = null;
      if (acted && acted.done) { acted = null; doneDeciding(); }
      return;
    }
    if (restoring && restoring.done) {
      const back = byID(list, restoring.id);
      restoring = null;
      if (back) {
        select(back);
        kept = null;
        doneDeciding();
        return;
      }
      doneDeciding(); // not on this page of the list (a filter leaves it out)
    }
    if (acted && acted.done) {
      const still = list.indexOf(byID(list, acted.id));
      const row = still >= 0 ? list[Math.min(still + 1, list.length - 1)] : byID(list, acted.next) || list[Math.min(acted.index, list.length - 1)];
      if (!document.activeElement || document.activeElement === document.body || !typing(document.activeElement)) select(row);
      else select(row, false);
      acted = null;
      kept = null;
      doneDeciding();
      return;
    }
    // The selected row may have gone (another moderator decided on it):
    // the one now in its place is selected instead. A row still there
    // keeps the selection, and the focus when it had it; a control of the
    // row that htmx gave the focus back to (a flag's switch) keeps it.
    if (kept && kept.index >= 0) {
      const row = byID(list, kept.id) || list[Math.min(kept.index, list.length - 1)];
      const active = document.activeElement;
      const inRow = active && active !== row && row.contains(active);
      if (!selected() || kept.focused) select(row, kept.focused && !inRow);
    }
    kept = null;
  });

  // ---- What the moderator set and typed survives a refresh ---------------
  // Reason fields keep what was typed, row by row, until that row's post
  // is decided; "Tell author" and "Tell reporters" keep the moderator's
  // last choice, on every row and the next visit (localStorage).
  const drafts = new Map();
  const NOTIFY = 'plaza.desk.notify';

  document.addEventListener('input', (e) => {
    const field = e.target;
    if (field.name !== 'reason') return;
    const row = tableRow(field);
    if (!row) return;
    if (field.value) drafts.set(rowID(row), field.value);
    else drafts.delete(rowID(row));
  });

  function notifyChoice() {
    try { return JSON.parse(localStorage.getItem(NOTIFY)) || {}; } catch (_) { return {}; }
  }

  document.addEventListener('change', (e) => {
    const box = e.target.closest && e.target.closest('[data-notify-pref]');
    if (!box) return;
    const choice = notifyChoice();
    choice[box.dataset.notifyPref] = box.checked;
    try { localStorage.setItem(NOTIFY, JSON.stringify(choice)); } catch (_) { /* private mode: this page only */ }
    document.querySelectorAll(`[data-notify-pref="${CSS.escape(box.dataset.notifyPref)}"]`).forEach((b) => { b.checked = box.checked; });
  });

  function restoreRows() {
    const choice = notifyChoice();
    document.querySelectorAll('[data-notify-pref]').forEach((b) => { b.checked = !!choice[b.dataset.notifyPref]; });
    for (const row of rows()) {
      const field = row.querySelector('input[name="reason"]');
      const text = drafts.get(rowID(row));
      if (field && text !== undefined && field.value !== text) field.value = text;
    }
  }
  restoreRows();

  // ---- Undo --------------------------------------------------------------
  // A toast may offer to undo what was just done ({message, undo: url, or
  // a list of them for a bulk decision}): its button, or u while it shows,
  // posts to each URL, and the answer's HX-Trigger toasts and refreshes
  // like any other action's. Every such decision also goes to "My recent
  // decisions" (this tab's, for the server's ten minutes), whose Undo does
  // the same later; the post undone is selected again.
  const RECENT = 'plaza.desk.recent';
  const UNDO_WINDOW = 10 * 60 * 1000;
  const offers = new Map(); // recent decision id → its offer
  let lastUndo = null;

  function recent() {
    let list = [];
    try { list = JSON.parse(sessionStorage.getItem(RECENT)) || []; } catch (_) { list = []; }
    return list.filter((d) => Date.now() - d.at < UNDO_WINDOW);
  }

  function keepRecent(list) {
    try { sessionStorage.setItem(RECENT, JSON.stringify(list.slice(0, 100))); } catch (_) { /* private mode */ }
    renderRecent();
  }

  function offerUndo(el, urls, message) {
    const entry = { id: String(Date.now()) + '-' + Math.random().toString(36).slice(2), message, urls, at: Date.now() };
    keepRecent([entry, ...recent()]);
    const offer = { urls, el, used: false, entry: entry.id };
    offers.set(entry.id, offer);
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.className = 'toast-action';
    btn.dataset.testid = 'toast-undo';
    btn.textContent = 'Undo';
    btn.addEventListener('click', () => runUndo(offer));
    el.appendChild(document.createTextNode(' '));
    el.appendChild(btn);
    lastUndo = offer;
  }

  function renderRecent() {
    const list = document.querySelector('[data-recent-list]');
    if (!list) return;
    const items = recent();
    list.replaceChildren(...items.map((d) => {
      const li = document.createElement('li');
      li.className = 'flex items-center justify-between gap-3 py-2';
      li.dataset.testid = 'recent-decision';
      const what = document.createElement('span');
      what.className = 'min-w-0 break-words t-body';
      what.textContent = d.message + ', ' + new Date(d.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
      const btn = document.createElement('button');
      btn.type = 'button';
      btn.className = 'btn btn-sm btn-secondary';
      btn.dataset.testid = 'recent-undo';
      btn.textContent = 'Undo';
      btn.setAttribute('aria-label', 'Undo: ' + d.message);
      btn.addEventListener('click', () => {
        const dialog = btn.closest('dialog');
        if (dialog) dialog.close();
        runUndo(offers.get(d.id) || { urls: d.urls, el: null, used: false, entry: d.id });
      });
      li.append(what, btn);
      return li;
    }));
    const empty = document.querySelector('[data-recent-empty]');
    if (empty) empty.hidden = items.length > 0;
  }
  document.addEventListener('plaza:open', (e) => { if (e.target.id === 'recent-decisions') renderRecent(); }, true);
  renderRecent();

  function undoLast() {
    if (!lastUndo || lastUndo.used || !lastUndo.el || !lastUndo.el.isConnected) return false;
    runUndo(lastUndo);
    return true;
  }

  function postOf(url) {
    const m = /\/(\d+)\/undo$/.exec(url);
    return m ? m[1] : '';
  }

  async function undoOne(url) {
    let res;
    try {
      res = await fetch(url, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'HX-Request': 'true', Accept: 'text/html', 'Content-Type': 'application/json' }, body: '{}',
      });
    } catch (err) {
      return { ok: false, message: 'Plaza did not answer. Check the connection and try again.' };
    }
    if (!res.ok) {
      const alert = parseAlert(await res.text());
      return { ok: false, message: alert ? alert.message : 'Could not undo (' + res.status + ').' };
    }
    return { ok: true, url, trigger: res.headers.get('HX-Trigger') };
  }

  async function runUndo(offer) {
    if (offer.used) return;
    offer.used = true;
    if (offer.el) offer.el.remove();
    offers.delete(offer.entry);
    keepRecent(recent().filter((d) => d.id !== offer.entry));
    startDeciding();
    const results = [];
    for (const url of offer.urls) results.push(await undoOne(url));
    const done = results.filter((r) => r.ok);
    if (!done.length) {
      toast(results[0] ? results[0].message : 'Nothing to undo.', 'error');
      failDeciding();
      return;
    }
    restoring = { id: postOf(done[0].url), done: true };
    settleSoon();
    if (offer.urls.length === 1) {
      fire(JSON.parse(done[0].trigger || '{}'));
      return;
    }
    const failed = results.find((r) => !r.ok);
    toast(`Undid the decision on ${done.length} of ${offer.urls.length} posts` + (failed ? ': ' + failed.message : ''), failed ? 'error' : 'success');
    fire({ 'plaza:posts': true });
  }

  function fire(events) {
    for (const name of Object.keys(events)) {
      document.body.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: events[name] }));
    }
  }

  // ---- The bulk dialog's confirm button ----------------------------------
  // A button with data-tone-of="<select id>" takes the colour its chosen
  // option names (data-tone): red for hiding or deleting, not for approving.
  document.addEventListener('change', (e) => {
    const sel = e.target.closest && e.target.closest('select');
    if (!sel || !sel.id) return;
    const tone = sel.selectedOptions.length ? sel.selectedOptions[0].dataset.tone : '';
    if (!tone) return;
    document.querySelectorAll(`[data-tone-of="${CSS.escape(sel.id)}"]`).forEach((btn) => {
      btn.classList.remove('btn-danger', 'btn-primary', 'btn-secondary');
      btn.classList.add(tone);
    });
  });
})();
