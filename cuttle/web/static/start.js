// The start page: rule text from a preset, flags or text (checked by the server once you
// pause typing), the bot and its strength, the seat, a seed; POST /api/games, then the
// game page.
(function () {
  'use strict';
  const $ = id => document.getElementById(id);
  const token = document.body.dataset.startToken;
  const STRENGTH = [10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000];

  function iterations() { return STRENGTH[+$('strength').value] || 1000; }
  function botName() {
    const b = $('bot').value;
    return b.startsWith('ismcts') ? b + ':' + iterations() : b;   // (the searches)
  }
  function rulesText() {
    const parts = [];
    for (const el of document.querySelectorAll('[data-flag]')) {
      const v = el.value.trim().replace(/\s+/g, '');
      if (v) parts.push(el.dataset.flag + '=' + v);
    }
    const free = $('rules-text').value.trim();
    return ((free || $('preset').value) + ' ' + parts.join(' ')).trim();
  }
  function showStrength() {
    $('strength-row').hidden = !$('bot').value.startsWith('ismcts');
    $('strength-value').textContent = iterations().toLocaleString('en') + ' iterations';
  }
  let pending = 0;
  async function preview() {
    const mine = ++pending;
    try {
      const r = await fetch('/api/rules?text=' + encodeURIComponent(rulesText()));
      const d = await r.json();
      if (mine !== pending) return;
      $('rules-preview').textContent = r.ok ? d.rules : rulesText();
      $('rules-error').textContent = r.ok ? '' : d.error;
      $('rules-warning').textContent = (r.ok && d.warning) || '';   // (every game a draw)
      // Play's refusal of the rules (the server's "rules: ...") is stale once they are valid
      const refused = $('start-error');
      if (r.ok && refused.textContent.startsWith('rules:')) refused.textContent = '';
    } catch (e) {
      $('rules-error').textContent = String(e);
      $('rules-warning').textContent = '';
    }
  }
  // The preview waits for a pause in the typing: one request, not one a keystroke.
  const PREVIEW_DELAY = 250;
  let previewTimer = null;
  function previewSoon() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, PREVIEW_DELAY);
  }
  async function start(ev) {
    ev.preventDefault();
    $('go').disabled = true;
    $('start-error').textContent = '';
    const seat = document.querySelector('input[name=seat]:checked').value;
    const data = {rules: rulesText(), bot: botName(), seat: +seat,
                  seed: $('seed').value.trim() || null,
                  position: $('position').value.trim() || null};
    try {
      const r = await fetch('/api/games', {method: 'POST', body: JSON.stringify(data),
        headers: {'Content-Type': 'application/json', 'X-Cuttle-Token': token}});
      const d = await r.json();
      if (!r.ok) throw new Error(d.error || 'HTTP ' + r.status);
      location.href = d.url + location.search;
    } catch (e) {
      $('start-error').textContent = e.message;
      $('go').disabled = false;
    }
  }
  $('start').addEventListener('submit', start);
  $('bot').addEventListener('change', showStrength);
  $('strength').addEventListener('input', showStrength);
  for (const el of document.querySelectorAll('#preset, #rules-text, [data-flag]')) {
    el.addEventListener('input', previewSoon);
    el.addEventListener('change', previewSoon);
  }
  showStrength();
  preview();
  document.body.dataset.ready = '1';
})();
