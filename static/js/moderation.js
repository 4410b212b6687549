// Plaza console, moderation queue: the toast of a decision that can be
// taken back carries an Undo button. A response's HX-Trigger
// {"plaza:undo": {message, url}} stands for the usual plaza:toast; the
// button posts to url (htmx, with the console's JSON extension), whose own
// answer toasts what the undo did. Kept apart from console.js, which owns
// the keyboard and the other toasts.
(() => {
  'use strict';

  // How long the offer stays; the server allows ten minutes.
  const OFFER_MS = 15000;

  document.body.addEventListener('plaza:undo', (e) => {
    const region = document.getElementById('toasts');
    const { message, url } = e.detail || {};
    if (!region || !message || !url) return;
    const el = document.createElement('div');
    el.className = 'toast toast-success flex items-center justify-between gap-4';
    el.dataset.testid = 'toast';
    el.dataset.kind = 'success';
    const text = document.createElement('span');
    text.textContent = message;
    const undo = document.createElement('button');
    undo.type = 'button';
    undo.className = 'btn btn-sm btn-secondary';
    undo.textContent = 'Undo';
    undo.dataset.testid = 'toast-undo';
    undo.setAttribute('hx-post', url);
    undo.setAttribute('hx-swap', 'none');
    undo.addEventListener('htmx:afterRequest', () => el.remove());
    el.append(text, undo);
    region.appendChild(el);
    htmx.process(el);
    setTimeout(() => el.remove(), OFFER_MS);
  });
})();
