// The game page: the table (SVG drawn by the server from your seat), moves made by
// clicking cards and targets (or the list of legal moves, for the keyboard), the bot's
// moves one by one, undo, hint, resign, and at the end the record and the review.
// The server checks every move; this script only proposes them.
//
// For scripts and tests: document.body.dataset.ready is '1' while the page waits for
// you (or the game is finished), and .ply, .phase, .status mirror the state;
// window.cuttle.state is the last state received.  ?delay=MS sets the pause before
// each bot move (default 700).
(function () {
  'use strict';
  const $ = id => document.getElementById(id);
  const body = document.body, gid = body.dataset.game, token = body.dataset.token;
  const params = new URLSearchParams(location.search);
  const DELAY = params.has('delay') ? Math.max(0, +params.get('delay') || 0) : 700;
  const PHASE_HELP = {
    main: 'play a card (click it) or draw (click the deck)',
    counter: 'counter the one-off with a 2, or resolve',
    three: 'take a card from the scrap', four: 'discard two cards',
    five: 'discard a card, then draw', seven: 'play a revealed card',
    discard: 'discard down to the hand limit', block: 'block the scuttle with a 10, or resolve',
    ten: 'discard a card'};
  let state = JSON.parse($('initial-state').textContent);
  let picked = [];          // the cards clicked so far
  let busy = false;         // a request in flight
  let timer = null;
  let resignArmed = false;
  window.cuttle = {get state() { return state; }};

  async function api(method, path, data) {
    const opts = {method, headers: {'X-Cuttle-Token': token}};
    if (data !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(data);
    }
    const r = await fetch('/api/games/' + gid + path, opts);
    let d = null;
    try { d = await r.json(); } catch (e) { /* no body */ }
    if (!r.ok) {
      const err = new Error((d && d.error) || 'HTTP ' + r.status);
      err.status = r.status;
      throw err;
    }
    return d;
  }

  function message(text) { $('message').textContent = text || ''; }
  function setReady(on) { body.dataset.ready = on ? '1' : '0'; }

  // -- what a click means --------------------------------------------------------------
  function fits(m, sel) {
    if (sel.length > m.cards.length) return false;
    if (m.verb === 'discard') return sel.every(c => m.cards.includes(c));
    return sel.every((c, i) => m.cards[i] === c);
  }
  function candidates(sel) { return state.legal.filter(m => fits(m, sel)); }
  function nextCards(sel) {
    const out = new Set();
    for (const m of candidates(sel)) {
      if (m.verb === 'discard') m.cards.filter(c => !sel.includes(c)).forEach(c => out.add(c));
      else if (m.cards.length > sel.length) out.add(m.cards[sel.length]);
    }
    return out;
  }
  function label(m) {
    const [c, t] = m.cards;
    switch (m.verb) {
      case 'points': return c + ': points';
      case 'oneoff': return c + ': one-off' + (t ? ' on ' + t : '');
      case 'royal': return c + ': permanent';
      case 'glasses': return c + ': glasses';
      case 'scuttle': return c + ': scuttle ' + t;
      case 'jack': return c + ': steal ' + t;
      case 'counter': return 'counter with ' + c;
      case 'take': return 'take ' + c;
      case 'discard': return 'discard ' + m.cards.join(' and ');
      case 'block': return 'block with ' + c;
      case 'resolve': return state.phase === 'block' ? 'resolve (no block)' : 'resolve (no counter)';
      default: return m.verb;
    }
  }
  function onCard(card) {
    if (!state.your_decision || busy) return;
    message('');
    if (picked.includes(card)) { picked = picked.slice(0, picked.indexOf(card)); return update(); }
    let sel = picked.concat([card]);
    if (!candidates(sel).length) sel = [card];
    if (!candidates(sel).length) {
      message('No legal move starts with ' + card + ' now.');
      picked = [];
      return update();
    }
    picked = sel;
    const cands = candidates(sel), done = cands.filter(m => m.cards.length === sel.length);
    if (cands.length === 1 && done.length === 1) return play(done[0].text);
    update();
  }
  function onDeck() {
    if (!state.your_decision || busy) return;
    if (state.legal.some(m => m.verb === 'draw')) play('draw');
    else message('You cannot draw now.');
  }

  // -- drawing ---------------------------------------------------------------------------
  function button(text, cls, onclick, move) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    if (cls) b.className = cls;
    if (move) { b.dataset.move = move; b.title = move; }
    b.onclick = onclick;
    return b;
  }
  function update() {
    // Mark the cards a click may use, the picked ones, and list the choices.
    const svg = $('board').querySelector('svg');
    const mine = state.your_decision && !busy;
    const next = mine ? nextCards(picked) : new Set();
    if (svg) {
      for (const g of svg.querySelectorAll('g.card')) {
        const c = g.dataset.card;
        g.classList.toggle('picked', !!c && picked.includes(c));
        const deck = g.classList.contains('deck') && mine && !picked.length &&
          state.legal.some(m => m.verb === 'draw');
        g.classList.toggle('clickable', deck || (!!c && next.has(c)));
      }
    }
    const box = $('choices');
    box.textContent = '';
    if (!mine) return;
    const shown = picked.length ? candidates(picked).filter(m => m.cards.length === picked.length)
                                : state.legal.filter(m => !m.cards.length);
    for (const m of shown) box.appendChild(button(label(m), '', () => play(m.text), m.text));
    if (picked.length) {
      if (next.size) {
        const note = document.createElement('span');
        note.className = 'note';
        note.textContent = (shown.length ? 'or ' : '') + 'click: ' + Array.from(next).join(', ');
        box.appendChild(note);
      }
      box.appendChild(button('cancel', 'cancel', () => { picked = []; update(); }));
    }
  }
  function render(s) {
    state = s;
    picked = [];
    resignArmed = false;
    $('resign').textContent = 'resign';
    $('board').innerHTML = s.svg;
    body.dataset.ply = s.ply;
    body.dataset.phase = s.phase;
    body.dataset.status = s.status;
    const you = 'P' + s.you;
    let status;
    if (s.result) status = 'Game over: ' + s.result.text + '.';
    else if (s.your_decision) status = 'Your decision (' + you + ', ' + s.phase + '): ' +
      (PHASE_HELP[s.phase] || '');
    else status = s.bot + ' (P' + (1 - s.you) + ') to decide: ' + s.phase;
    $('status').textContent = status;
    $('rules-warning').textContent = s.warning || '';   // (rules under which all games draw)
    // the legal moves, as buttons
    const list = $('legal');
    list.textContent = '';
    for (const m of s.legal) {
      const li = document.createElement('li');
      li.appendChild(button(m.text, '', () => play(m.text), m.text));
      list.appendChild(li);
    }
    if (!s.legal.length) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = s.result ? 'the game is over' : 'none: the bot is to decide';
      list.appendChild(li);
    }
    // the moves so far, the last one marked
    const hist = $('history');
    hist.textContent = '';
    for (const h of s.history) {
      const li = document.createElement('li');
      li.className = 'p' + h.player + (h === s.history[s.history.length - 1] ? ' last' : '');
      li.innerHTML = '<span class="n"></span><span class="who"></span> ';
      li.firstChild.textContent = h.ply + '.';
      li.children[1].className = 'p' + h.player;
      li.children[1].textContent = h.player === s.you ? 'you' : s.bot;
      li.appendChild(document.createTextNode(h.move));
      if (h.effect) {       // what the move did, as you saw it
        const e = document.createElement('span');
        e.className = 'effect';
        e.textContent = h.effect;
        li.appendChild(e);
      }
      hist.appendChild(li);
    }
    hist.scrollTop = hist.scrollHeight;
    $('undo').disabled = !s.can_undo;
    $('hint').disabled = !s.your_decision;
    $('resign').disabled = !!s.result;
    if (!s.your_decision) $('hint-box').hidden = true;
    showOver(s);
    update();
    schedule();
  }
  function showOver(s) {
    $('over').hidden = !s.result;
    if (!s.result) return;
    $('result').textContent = s.result.text[0].toUpperCase() + s.result.text.slice(1) +
      ' · ' + s.result.scores[s.you] + ' to ' + s.result.scores[1 - s.you] +
      ' · seed ' + s.result.seed;
    const rv = $('review');
    if (rv.dataset.shown) return;
    rv.textContent = '';
    rv.appendChild(button('review your moves', '', review));
    if (s.review && s.review.page) rv.appendChild(reviewLink(s.review.page));
  }

  // -- actions ---------------------------------------------------------------------------
  function schedule() {
    clearTimeout(timer);
    timer = null;
    if (state.result) return setReady(true);
    if (state.bot_to_move) { setReady(false); timer = setTimeout(botStep, DELAY); return; }
    if (state.your_decision && $('auto').checked && state.legal.length === 1) {
      setReady(false);
      timer = setTimeout(() => play(state.legal[0].text), DELAY);
      return;
    }
    setReady(!busy);
  }
  let seq = 0;
  async function request(fn) {
    // One request at a time (an undo or a resign may cut a bot's move short); only the
    // latest request's answer is drawn.
    if (busy) return;
    const mine = ++seq;
    busy = true;
    setReady(false);
    clearTimeout(timer);
    update();
    try {
      const s = await fn();
      if (mine !== seq) return;
      busy = false;
      if (s) render(s);
    } catch (e) {
      if (mine !== seq) return;
      busy = false;
      message(e.message);
      if (e.status === 409 || e.status === 422) {
        try { render(await api('GET', '')); } catch (e2) { message(e.message + ' · ' + e2.message); }
      } else { update(); schedule(); }
    }
  }
  function play(text) {
    message('');
    return request(() => api('POST', '/move', {move: text, ply: state.ply}));
  }
  function showThinking() {
    $('thinking-text').textContent = state.bot + ' is thinking…';
    $('thinking').hidden = false;
  }
  function botStep() {
    const show = setTimeout(showThinking, 150);
    return request(async () => {
      try { return await api('POST', '/bot', {ply: state.ply}); }
      catch (e) { return await thinkingElsewhere(e); }
      finally { clearTimeout(show); $('thinking').hidden = true; }
    });
  }
  async function thinkingElsewhere(e) {
    // The bot decides one move at a time: one asked for before (this page reloaded, or
    // open twice) is refused with 409.  Wait for that one's move, stop button shown.
    if (e.status !== 409) throw e;
    let s = await api('GET', '');
    if (!s.thinking) throw e;
    showThinking();
    while (s.thinking) {
      await new Promise(done => setTimeout(done, 200));
      s = await api('GET', '');
    }
    return s;
  }
  $('stop').onclick = () => api('POST', '/stop').catch(e => message(e.message));
  $('undo').onclick = () => {
    message('');
    if (busy && !state.bot_to_move) return;
    busy = false;       // a thinking bot is aborted by the undo
    return request(async () => {
      const s = await api('POST', '/undo');
      const bot = s.undone_bot ? ' and ' + s.undone_bot + ' move' + (s.undone_bot > 1 ? 's' : '') +
        ' of the bot' : '';
      let redealt = '';
      if (s.redealt) {
        const n = s.redealt.shown;
        redealt = ' They had shown you ' + n + ' card' + (n > 1 ? 's' : '') +
          ' now hidden from you again, so the cards hidden from you were dealt again (' +
          (s.redealt.hand ? "the deck's order and the bot's hand" : "the deck's order") +
          '): what you saw no longer tells where they are.';
      }
      message('Took back your ' + s.undone.join(', ') + bot + '.' + redealt);
      return s;
    });
  };
  $('resign').onclick = () => {
    if (!resignArmed) { resignArmed = true; $('resign').textContent = 'really resign?'; return; }
    busy = false;
    return request(() => api('POST', '/resign'));
  };
  $('hint').onclick = async () => {
    if (!state.your_decision || busy) return;
    const boxEl = $('hint-box'), out = $('hint-body');
    boxEl.hidden = false;
    out.textContent = 'working out the hint…';
    const ply = state.ply;
    try {
      const a = await api('POST', '/hint', {rollouts: 1000});   // (the review's engine)
      if (state.ply !== ply) return;
      out.textContent = '';
      const p = document.createElement('p');
      // (the server's words: the best move, and whether other moves are as good)
      p.id = 'hint-text';
      p.textContent = 'Best: ' + a.hint + ' · ' + a.engine;
      out.appendChild(p);
      const t = document.createElement('table');
      t.className = 'hint';
      t.innerHTML = '<tr><th>move</th><th>score</th><th>95% interval</th><th>win rate</th></tr>';
      const pct = x => (100 * x).toFixed(1) + '%';
      for (const m of a.moves) {
        const tr = t.insertRow();
        if (m.move === a.best) tr.className = 'best';
        else if (a.close_to_best.includes(m.move)) tr.className = 'close';
        for (const v of [m.move, pct(m.score),
                         pct(m.score_estimate.low) + ' – ' + pct(m.score_estimate.high),
                         pct(m.win_rate.value)])
          tr.insertCell().textContent = v;
      }
      out.appendChild(t);
      const pre = document.createElement('pre');
      pre.textContent = a.text;
      const det = document.createElement('details');
      det.innerHTML = '<summary>as cuttle analyse prints it</summary>';
      det.appendChild(pre);
      out.appendChild(det);
    } catch (e) { out.textContent = e.message; }
  };
  $('download').onclick = async () => {
    try {
      const r = await fetch('/api/games/' + gid + '/record', {headers: {'X-Cuttle-Token': token}});
      if (!r.ok) throw new Error((await r.json()).error);
      const url = URL.createObjectURL(await r.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = 'cuttle-game-' + gid + '.json';
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) { message(e.message); }
  };
  // The review: the server values each of your decisions from your own view (a few
  // seconds); its progress is polled from the state, and stop keeps what is done.
  function reviewLink(url) {
    const a = document.createElement('a');
    a.href = url;
    a.target = '_blank';
    a.rel = 'noopener';
    a.id = 'review-page';
    a.textContent = 'open the review page (evaluation graph, labels, best moves)';
    const p = document.createElement('p');
    p.appendChild(a);
    return p;
  }
  const ERRORS = {inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders'};
  async function review() {
    const rv = $('review');
    rv.dataset.shown = '1';
    rv.textContent = '';
    const line = document.createElement('p');
    line.id = 'review-progress';
    line.textContent = 'reviewing your moves…';
    const stop = button('stop: keep what is reviewed', '', async () => {
      stop.disabled = true;
      try { await api('POST', '/review/stop'); } catch (e) { message(e.message); }
    });
    stop.id = 'review-stop';
    rv.append(line, stop);
    body.dataset.reviewing = '1';
    const poll = setInterval(async () => {
      try {
        const r = (await api('GET', '')).review;
        if (r && r.running && r.total)
          line.textContent = 'reviewing your moves: ' + r.done + ' of ' + r.total + ' decisions';
      } catch (e) { /* the answer below says what went wrong */ }
    }, 500);
    try {
      const d = await api('GET', '/review');
      rv.textContent = '';
      // where the game was lost, in one sentence, then your accuracy
      const where = document.createElement('p');
      where.id = 'review-headline';
      where.textContent = d.where_lost.text;
      // an undo's re-deal: the moves before it were played on another deal
      const redealt = document.createElement('p');
      redealt.id = 'review-redealt';
      redealt.textContent = d.redealt || '';
      const head = document.createElement('p');
      head.id = 'review-summary';
      const me = d.players.find(p => p.player === state.you) || d.players[0] || {};
      head.textContent = (d.complete ? '' : 'Stopped after ' + d.reviewed + ' of ' +
        d.total + ' decisions. ') + 'Your accuracy: ' +
        (me.accuracy == null ? '-' : me.accuracy.toFixed(1) + '%') +
        ' (' + Object.entries(ERRORS).map(([k, plural]) => (me[k] || 0) + ' ' +
        (me[k] === 1 ? k : plural)).join(', ') +
        // a move that won at once, not played: said whatever its loss
        (me.missed_wins ? ', ' + me.missed_wins + (me.missed_wins === 1 ? ' win' : ' wins') +
         ' missed (a move that won at once)' : '') + ').';
      const pre = document.createElement('pre');
      pre.textContent = d.text;
      rv.append(where, ...(d.redealt ? [redealt] : []), head, reviewLink(d.page), pre,
                button('review again', '', review));
    } catch (e) { rv.textContent = e.message; }
    finally { clearInterval(poll); body.dataset.reviewing = '0'; }
  }
  $('board').addEventListener('click', e => {
    const g = e.target.closest('g.card');
    if (!g) return;
    if (g.classList.contains('deck')) onDeck();
    else if (g.dataset.card) onCard(g.dataset.card);
  });
  document.addEventListener('keydown', e => {
    if (e.key === 'Escape' && picked.length) { picked = []; update(); }
  });
  render(state);
})();
