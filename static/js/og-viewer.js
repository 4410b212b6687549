// The og-image viewer (views/og_viewer.templ): live preview, save as PNG or
// SVG, copy link, and a context menu on the image. It loads nothing but
// Plaza's own /api/og-image, so the page's strict CSP (script-src 'self',
// no inline script or style attributes) holds.
(() => {
  'use strict';

  const root = document.getElementById('og-viewer');
  if (!root) return;

  const API = '/api/og-image';
  const VIEWER = '/og-image-viewer';
  const WIDTH = 1200;
  const HEIGHT = 630;
  const byId = (id) => document.getElementById(id);
  const form = byId('og-form');
  const frame = byId('og-frame');
  const img = byId('og-preview');
  const menu = byId('og-menu');
  const menuButton = byId('og-menu-button');
  const statusBox = byId('og-status');
  const errorBox = byId('og-error');
  const quoteCount = byId('og-quote-count');
  const field = (name) => form.elements.namedItem(name);
  const publicURL = (root.dataset.publicUrl || location.origin).replace(/\/+$/, '');

  // current holds the parameters of the image on show; form edits count
  // only once applied, so saving and copying always match the preview.
  let current = readForm();

  function readForm() {
    return { seed: field('seed').value, quote: field('quote').value.trim(), author: field('author').value.trim() };
  }

  // imageURL builds /api/og-image for p, parameters in the server's order
  // (api.OGImageURL): seed, quote, author, type, direct.
  function imageURL(p, { svg = false, direct = false } = {}) {
    const q = new URLSearchParams();
    if (p.seed) q.append('seed', p.seed);
    if (p.quote) q.append('quote', p.quote);
    if (p.author) q.append('author', p.author);
    if (svg) q.append('type', 'svg');
    if (direct) q.append('direct', 'true');
    const s = q.toString();
    return s ? API + '?' + s : API;
  }

  // The link to share: crawlers get the PNG from it, people this page.
  const shareURL = () => publicURL + imageURL(current);
  // The image itself, whoever opens it.
  const directImageURL = () => new URL(imageURL(current, { direct: true }), location.href).href;

  // randomSeed makes the same kind of seed as the server (handlers.RandomSeed).
  function randomSeed() {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = crypto.getRandomValues(new Uint8Array(10));
    return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  }

  // ---- Feedback ----

  let statusTimer = 0;
  function say(message) {
    statusBox.textContent = message;
    clearTimeout(statusTimer);
    statusTimer = setTimeout(() => { statusBox.textContent = ''; }, 4000);
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = !message;
  }

  // problem turns a failed answer into words: the API's {error, details}.
  async function problem(res) {
    try {
      const body = await res.json();
      const details = Array.isArray(body.details) ? body.details.map((d) => d.message).filter(Boolean) : [];
      return [body.error, ...details].filter(Boolean).join(': ') || res.statusText;
    } catch {
      return 'The image could not be made (' + res.status + ').';
    }
  }

  // ---- Preview ----

  function setBusy(busy) { frame.setAttribute('aria-busy', busy ? 'true' : 'false'); }

  function apply() {
    current = readForm();
    const url = imageURL(current, { svg: true, direct: true });
    showError('');
    setBusy(true);
    img.src = url;
    img.alt = 'Quote card: “' + current.quote + '”' + (current.author ? ' — ' + current.author : '');
    const pageQuery = new URL(imageURL(current), location.href).search;
    history.replaceState(null, '', VIEWER + pageQuery);
  }

  img.addEventListener('load', () => { setBusy(false); });
  img.addEventListener('error', async () => {
    setBusy(false);
    const res = await fetch(img.src, { headers: { Accept: 'application/json' } }).catch(() => null);
    if (!res) { showError('The image could not be loaded: the server did not answer.'); return; }
    showError(res.ok ? 'The image could not be shown.' : await problem(res));
  });
  // The server-rendered image may still be loading, or have failed, before
  // this script ran.
  if (!img.complete) setBusy(true);
  else if (img.naturalWidth === 0) img.dispatchEvent(new Event('error'));

  // ready checks the form before an image is made from it. A quote of
  // spaces passes the required attribute but is no quote: the API would
  // draw a random one on every load, and saving would not match the preview.
  function ready() {
    const quote = field('quote');
    if (!quote.value.trim()) quote.value = '';
    return form.reportValidity();
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!ready()) return;
    if (!field('seed').value) field('seed').value = randomSeed();
    apply();
  });

  field('quote').addEventListener('input', () => {
    quoteCount.textContent = String([...field('quote').value].length);
  });

  byId('og-new').addEventListener('click', () => {
    if (!ready()) return;
    field('seed').value = randomSeed();
    apply();
  });

  // ---- Saving ----

  async function fetchSVG() {
    const res = await fetch(imageURL(current, { svg: true, direct: true }), { headers: { Accept: 'image/svg+xml' } });
    if (!res.ok) throw new Error(await problem(res));
    return res.blob();
  }

  // toPNG draws the SVG on a 1200×630 canvas: the PNG is made here, in the
  // browser, from the very SVG on show.
  async function toPNG(svg) {
    const url = URL.createObjectURL(svg);
    try {
      const pic = new Image(WIDTH, HEIGHT);
      pic.src = url;
      await pic.decode();
      const canvas = document.createElement('canvas');
      canvas.width = WIDTH;
      canvas.height = HEIGHT;
      canvas.getContext('2d').drawImage(pic, 0, 0, WIDTH, HEIGHT);
      return await new Promise((resolve, reject) => {
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('This browser could not make the PNG.'))), 'image/png');
      });
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  function fileName(ext) {
    const slug = current.seed.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
    return 'plaza-quote-' + (slug || 'card') + '.' + ext;
  }

  function download(blob, name) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    // Revoked later, not at once: the download reads the blob after click().
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  async function save(kind) {
    try {
      const svg = await fetchSVG();
      const name = fileName(kind);
      download(kind === 'png' ? await toPNG(svg) : svg, name);
      say('Saved ' + name);
    } catch (err) {
      showError(err.message || String(err));
    }
  }

  // ---- Copying ----

  // copyText uses the asynchronous clipboard, and the older selection copy
  // where that is missing (plain http on another host is not a secure context).
  async function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      try { await navigator.clipboard.writeText(text); return true; } catch { /* fall back below */ }
    }
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'sr-only';
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    area.remove();
    return ok;
  }

  async function copy(text, what) {
    if (await copyText(text)) say(what + ' copied to the clipboard');
    else say('Copy this link: ' + text);
  }

  byId('og-save-png').addEventListener('click', () => save('png'));
  byId('og-save-svg').addEventListener('click', () => save('svg'));
  byId('og-copy').addEventListener('click', () => copy(shareURL(), 'Link'));

  // ---- Context menu ----

  const actions = {
    'save-png': () => save('png'),
    'save-svg': () => save('svg'),
    'copy-image-link': () => copy(directImageURL(), 'Image link'),
    'open': () => { window.open(directImageURL(), '_blank', 'noopener'); },
  };
  const items = () => Array.from(menu.querySelectorAll('[role="menuitem"]'));
  let returnFocus = null;

  // openMenu shows the menu with its top-left corner at (x, y), or its
  // top-right corner when alignRight, kept inside the window, and focuses
  // its first item.
  function openMenu(x, y, alignRight = false) {
    // Opened twice (a long press on Android fires our timer and contextmenu):
    // keep the first opener, not the menu item that has the focus by now.
    if (menu.hidden) returnFocus = document.activeElement;
    menu.hidden = false;
    menuButton.setAttribute('aria-expanded', 'true');
    const w = menu.offsetWidth; // measurable only once shown
    const h = menu.offsetHeight;
    const left = alignRight ? x - w : x;
    // CSSOM positioning: the CSP forbids style attributes, not this.
    menu.style.left = Math.max(8, Math.min(left, window.innerWidth - w - 8)) + 'px';
    menu.style.top = Math.max(8, Math.min(y, window.innerHeight - h - 8)) + 'px';
    items()[0].focus({ preventScroll: true });
  }

  function closeMenu(restore) {
    if (menu.hidden) return;
    menu.hidden = true;
    menuButton.setAttribute('aria-expanded', 'false');
    if (restore && returnFocus && document.contains(returnFocus)) returnFocus.focus();
    returnFocus = null;
  }

  frame.addEventListener('contextmenu', (e) => {
    e.preventDefault();
    // A keyboard-opened menu (context-menu key, Shift+F10) has no pointer
    // position: show it at the frame's centre.
    if (e.clientX === 0 && e.clientY === 0) {
      const r = frame.getBoundingClientRect();
      openMenu(r.left + r.width / 2, r.top + r.height / 2);
    } else {
      openMenu(e.clientX, e.clientY);
    }
  });

  // iOS Safari fires no contextmenu on a long press: time one ourselves.
  let pressTimer = 0;
  frame.addEventListener('touchstart', (e) => {
    if (e.touches.length !== 1) return;
    const t = e.touches[0];
    pressTimer = setTimeout(() => openMenu(t.clientX, t.clientY), 550);
  }, { passive: true });
  for (const type of ['touchend', 'touchmove', 'touchcancel']) {
    frame.addEventListener(type, () => clearTimeout(pressTimer), { passive: true });
  }

  menuButton.addEventListener('click', () => {
    if (!menu.hidden) { closeMenu(true); return; }
    const r = menuButton.getBoundingClientRect();
    openMenu(r.right, r.bottom + 6, true);
  });
  menuButton.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && menu.hidden) { e.preventDefault(); menuButton.click(); }
  });

  menu.addEventListener('click', (e) => {
    const item = e.target.closest('[role="menuitem"]');
    if (!item) return;
    closeMenu(true);
    actions[item.dataset.action]();
  });

  menu.addEventListener('keydown', (e) => {
    const list = items();
    const at = list.indexOf(document.activeElement);
    const moves = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: list.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      list[(moves[e.key] + list.length) % list.length].focus();
    } else if (e.key === 'Tab') {
      // The menu sits at the end of the document: tabbing on from it would
      // leave the page, so the focus goes back where the menu came from.
      e.preventDefault();
      closeMenu(true);
    }
  });

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !menu.hidden) { e.preventDefault(); closeMenu(true); }
  });
  // A press anywhere outside the menu closes it, without moving focus away
  // from where the press lands.
  document.addEventListener('pointerdown', (e) => {
    if (!menu.hidden && !menu.contains(e.target) && !menuButton.contains(e.target)) closeMenu(false);
  }, true);
  window.addEventListener('resize', () => closeMenu(false));
  window.addEventListener('scroll', () => closeMenu(false), { passive: true });
})();
