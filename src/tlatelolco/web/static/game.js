// The game page: a live view over a WebSocket, picking moves by clicking the board, the log,
// the result, replays. Game-specific drawing lives in games/<game>.js (see shell.js).
"use strict";
(function () {
  const T = window.Tlatelolco;
  const S = window.TlatelolcoSeats;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  const gameId = decodeURIComponent(parts[1] || "");
  const replayMode = parts[2] === "replay";
  const INVITE_KEY = `tlatelolco:invite:${gameId}`;  // an invite not claimed yet (this tab)
  const SEAT_KEY = `tlatelolco:seat:${gameId}`;      // this tab's pick among several seats held

  const session = {
    get(key) { try { return sessionStorage.getItem(key); } catch (err) { return null; } },
    set(key, value) { try { sessionStorage.setItem(key, value); } catch (err) { /* ignore */ } },
    drop(key) { try { sessionStorage.removeItem(key); } catch (err) { /* ignore */ } },
  };

  // The address bar never keeps a secret: an invite (#invite=) waits in this tab's
  // sessionStorage until it is claimed, a credential (#token=, the old form) goes to the
  // browser's seat store, a seat pick (#seat=, not secret) to this tab; the fragment goes.
  function absorbFragment() {
    const old = session.get(`tlatelolco:${gameId}`);  // the previous page kept it per tab
    if (old) { S.put(gameId, old, null, null); session.drop(`tlatelolco:${gameId}`); }
    if (location.hash.length <= 1) return;
    const hash = new URLSearchParams(location.hash.slice(1));
    history.replaceState(history.state, "", location.pathname + location.search);
    const invite = hash.get("invite");
    const legacy = hash.get("token");
    const seat = hash.get("seat");
    if (invite) session.set(INVITE_KEY, invite);
    if (legacy) { S.put(gameId, legacy, null, null); session.drop(SEAT_KEY); }
    if (seat !== null && /^\d{1,3}$/.test(seat)) session.set(SEAT_KEY, String(Number(seat)));
  }

  // the credential this tab plays with: its seat pick if this browser holds that seat, else
  // the game's default one, else any other seat held here; null: a spectator. A credential
  // the server refused is not tried again by this page (should forgetting it fail).
  const refusedTokens = new Set();
  function storedToken() {
    const entry = S.get(gameId);
    if (!entry) return null;
    const held = S.seatsOf(entry);
    const chosen = session.get(SEAT_KEY);
    const candidates = [chosen !== null ? held[chosen] : null, entry.token,
                        ...Object.values(held)];
    return candidates.find((t) => typeof t === "string" && t && !refusedTokens.has(t)) || null;
  }

  absorbFragment();
  let token = storedToken();
  let invite = session.get(INVITE_KEY);

  let view = null;          // the latest view
  let log = [];             // the whole log, kept from deltas
  let path = [];            // the keys picked so far for the next move
  let socket = null;
  let ready = false;        // the current connection has sent its first view
  let refusal = null;       // the error the server sent before closing a new connection
  let retry = 0;
  let sending = false;
  let replayStep = null;
  let hint = null;          // the last hint asked for: {version, data} ({version} while thinking)
  const invites = {};       // seat -> an invite link made on this page for that open seat

  function headers(auth) {
    return auth ? {"Authorization": `Bearer ${auth}`, "Content-Type": "application/json"}
                : {"Content-Type": "application/json"};
  }

  // `auth`: the credential to send (default: this tab's); errors carry .status and .code
  async function api(method, url, body, auth) {
    const response = await fetch(url, {method, headers: headers(auth === undefined ? token : auth),
                                        body: body === undefined ? undefined : JSON.stringify(body)});
    const data = await response.json().catch(() => ({message: response.statusText}));
    if (!response.ok) {
      const err = new Error(data.message || `HTTP ${response.status}`);
      err.status = response.status;
      err.code = data.error;
      throw err;
    }
    return data;
  }

  function banner(message, ...extra) {
    const box = $("banner");
    box.replaceChildren();
    if (!message) return;
    const text = document.createElement("span");
    text.textContent = message;
    box.append(text, ...extra);
  }

  function showError(message) {
    const box = $("error");
    box.textContent = message;
    box.hidden = !message;
    if (message) setTimeout(() => { if (box.textContent === message) box.hidden = true; }, 8000);
  }

  function renderer() {
    return T.renderers[view.game] || {
      draw(root, v) { root.textContent = JSON.stringify(v.observation, null, 1); },
      keys(move) { return [JSON.stringify(move)]; },
      result() { return ""; },
    };
  }

  // --- the live connection -------------------------------------------------------------
  // No secret in the address of the socket: the credential is the first message sent.
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
    const sent = token;
    socket = ws;
    ready = false;
    refusal = null;
    $("connection").textContent = "connecting…";
    // a move sent on the old connection may be lost: the full view that opens every
    // connection says whether it was played, so the page may move again either way
    ws.onopen = () => {
      if (ws !== socket) return;
      sending = false;
      ws.send(JSON.stringify({type: "hello", token: sent || null}));
    };
    ws.onmessage = (event) => {
      if (ws !== socket) return;
      let message;
      try { message = JSON.parse(event.data); } catch (err) { return; }
      if (message.type === "error" && !ready) { refusal = message; return; }  // then it closes
      if (message.type === "view" && !ready) {
        ready = true;
        retry = 0;
        $("connection").textContent = "live";
        if (sent) S.touch(gameId, sent, message.viewer, message.game);
      }
      receive(message);
    };
    ws.onclose = (event) => {
      if (ws !== socket) return;  // replaced on purpose (a claimed seat, another seat)
      sending = false;
      ready = false;
      if (event.code >= 4400 && event.code < 4500 && ![4408, 4409, 4429].includes(event.code)) {
        refused(event.code, sent);  // a bad credential or unknown game: retrying cannot help
        return;
      }
      $("connection").textContent = "reconnecting…";
      const delay = Math.min(5000, 300 * 2 ** retry++);
      setTimeout(() => { if (socket === ws) connect(); }, delay);
    };
  }

  function refused(code, sent) {
    $("connection").textContent = "closed";
    if (code === 4403 && sent) {
      // the stored credential holds no seat any more (given up, or the seat was taken)
      refusedTokens.add(sent);
      S.drop(gameId, sent);
      if (token === sent) token = storedToken();
      banner("The seat this browser kept for this game is no longer yours (it was given up " +
             "or taken by someone else), so it was forgotten. You are watching the game.");
      connect();  // another credential (another seat held here) or none: as a spectator
      return;
    }
    if (code === 4404) banner("There is no such game (any more).", link("/", "Lobby"));
    else {
      banner("The server refused the connection to this game" +
             (refusal && refusal.message ? `: ${refusal.message}` : "."), link("/", "Lobby"));
    }
  }

  // a different credential for this page (a claimed seat, another seat held): a new connection
  function reconnect() {
    const old = socket;
    socket = null;
    if (old) { try { old.close(1000); } catch (err) { /* closed already */ } }
    path = [];
    sending = false;
    hint = null;
    if (replayMode) loadReplay(replayStep || 0);
    else connect();
  }

  function link(href, text, cls) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    if (cls) a.className = cls;
    return a;
  }

  function receive(message) {
    if (message.type === "error") {
      sending = false;
      showError(message.message);
      if (message.status === 409 && message.error === "stale_version") send({type: "sync"});
      if (view) draw();
      return;
    }
    if (message.type !== "view") return;
    if (message.log_from === 0) log = message.log;
    else if (message.log_from === log.length) log = log.concat(message.log);
    else { send({type: "sync"}); return; }
    const moved = !view || view.version !== message.version;
    const same = !moved && summary(view) === summary(message);
    view = message;
    if (moved) { path = []; sending = false; }
    if (same) drawPlayers();  // only who is online changed: keep the board (and the focus)
    else draw();
  }

  function summary(v) {
    return JSON.stringify([v.viewer, v.status, v.to_move, v.legal.length, v.rematch_id, v.result,
                           v.players.map((p) => [p.kind, p.name])]);
  }

  function send(message) {
    if (!socket || !ready || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function play(move) {
    if (sending) return;
    path = [];
    sending = send({type: "action", action: move.id, version: view.version});
    if (!sending) showError("Not connected to the server; reconnecting — try again in a moment.");
    draw();
  }

  // --- picking a move by its key path ----------------------------------------------------
  function keysOf(move) {
    try { return renderer().keys(move.move, view) || [move.text]; }
    catch (err) { return [move.text]; }
  }

  function candidates() {
    return view.legal.filter((m) => {
      const keys = keysOf(m);
      return path.every((k, i) => keys[i] === k);
    });
  }

  function pick(key) {
    path = path.concat([key]);
    const left = candidates();
    const exact = left.filter((m) => keysOf(m).length === path.length);
    if (left.length === 1 && exact.length === 1) { play(exact[0]); return; }
    if (left.length === 0) path = [];
    draw();
  }

  function markPickable(root, moves) {
    const next = new Map();
    for (const m of moves) {
      const keys = keysOf(m);
      if (keys.length > path.length) next.set(keys[path.length], m);
    }
    const drawn = new Set();
    for (const el of root.querySelectorAll("[data-key]")) {
      const key = el.getAttribute("data-key");
      drawn.add(key);
      el.classList.toggle("picked", path.includes(key));
      if (!next.has(key) || sending) continue;
      el.classList.add("pick");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.addEventListener("click", (e) => { e.stopPropagation(); pick(key); });
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(key); }
      });
    }
    return {next, drawn};
  }

  function drawPicker(moves, marks) {
    const box = $("picker");
    box.replaceChildren();
    if (!moves.length || sending) {
      if (sending) box.append(note("Sending your move…"));
      return;
    }
    // moves with no board target at the next key, and moves complete at the current path
    const buttons = moves.filter((m) => {
      const keys = keysOf(m);
      return keys.length === path.length || !marks.drawn.has(keys[path.length]);
    });
    if (path.length) {
      const chosen = document.createElement("div");
      chosen.className = "path";
      chosen.append(note(`Picked: ${path.join(" → ")}`));
      chosen.append(button("Cancel (Esc)", () => { path = []; draw(); }, "secondary"));
      box.append(chosen);
    }
    const row = document.createElement("div");
    row.className = "moves";
    for (const m of buttons.slice(0, 40)) row.append(button(m.text, () => play(m)));
    if (buttons.length > 40) row.append(note(`… and ${buttons.length - 40} more in the list`));
    box.append(row);
    const all = document.createElement("details");
    all.className = "all-moves";
    const sum = document.createElement("summary");
    sum.textContent = `All ${moves.length} legal move${moves.length === 1 ? "" : "s"}`;
    const filter = document.createElement("input");
    filter.type = "search";
    filter.placeholder = "filter moves";
    filter.setAttribute("aria-label", "Filter the legal moves");
    const list = document.createElement("div");
    list.className = "moves";
    const fill = () => {
      list.replaceChildren();
      const q = filter.value.trim().toLowerCase();
      const shown = moves.filter((m) => !q || m.text.toLowerCase().includes(q));
      for (const m of shown.slice(0, 200)) list.append(button(m.text, () => play(m)));
    };
    filter.addEventListener("input", fill);
    all.addEventListener("toggle", () => { if (all.open) fill(); });
    all.append(sum, filter, list);
    box.append(all);
  }

  function button(label, onClick, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }

  function note(text) {
    const span = document.createElement("span");
    span.className = "note";
    span.textContent = text;
    return span;
  }

  // --- drawing the page ------------------------------------------------------------------
  function draw() {
    if (!view) return;
    document.body.dataset.game = view.game;
    $("title").textContent = view.title + (replayMode ? " — replay" : "");
    const root = $("board");
    const focused = document.activeElement && root.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-key") : null;
    root.replaceChildren();
    try { renderer().draw(root, view); }
    catch (err) { root.textContent = `The board could not be drawn: ${err}`; console.error(err); }
    const moves = replayMode ? [] : candidates();
    const marks = markPickable(root, moves);
    if (focused) {  // a redraw must not throw a keyboard user back to the top of the page
      const again = root.querySelector(`.pick[data-key="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
    if (!replayMode) drawPicker(moves, marks);
    drawHint();
    drawTurn();
    drawPlayers();
    drawLog();
    drawResult();
    drawClaim();
    drawLinks();
  }

  // --- hints: a search bot's best moves, in games against bots only ------------------------
  function hintsAllowed() {
    return !replayMode && view.viewer !== null && view.status === "running" &&
      view.to_move === view.viewer && view.legal.length > 0 && !sending &&
      view.players.every((p) => p.seat === view.viewer || p.kind === "bot");
  }

  async function askHint() {
    const version = view.version;
    hint = {version};
    drawHint();
    try {
      const data = await api("POST", `/api/games/${gameId}/hint`);
      if (hint && hint.version === version) hint = {version, data};
    } catch (err) {
      if (hint && hint.version === version) hint = null;
      showError(err.message);
    }
    if (view && view.version === version) drawHint();
  }

  function drawHint() {
    const box = $("hint");
    box.replaceChildren();
    box.hidden = !hintsAllowed();
    if (box.hidden) return;
    const shown = hint && hint.version === view.version ? hint : null;
    if (!shown) { box.append(button("Hint", askHint, "secondary")); return; }
    if (!shown.data) { box.append(note("Thinking about your move…")); return; }
    const h = shown.data;
    const head = document.createElement("p");
    head.className = "note";
    head.textContent = h.why === "only move" ? "You have only one move:" :
      h.why === "settled" ? "The bot's knowledge settles this move without searching:" :
      `What a search (${h.bot.split(":")[0]}, ${h.iterations} tries in ` +
      `${h.seconds.toFixed(1)} s) likes, with the share of victory it expects after it:`;
    const list = document.createElement("ol");
    list.className = "hint-moves";
    for (const m of h.moves) {
      const li = document.createElement("li");
      const value = document.createElement("span");
      value.className = "value";
      value.textContent = m.value === null ? "" : `${Math.round(100 * m.value)}%`;
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = m.text;
      li.append(value, text);
      if (m.visits) li.append(note(`${m.visits} ${m.visits === 1 ? "try" : "tries"}`));
      const move = view.legal.find((x) => x.id === m.action);
      if (move) {
        const playIt = button("Play", () => play(move));
        playIt.setAttribute("aria-label", `Play ${m.text}`);
        li.append(playIt);
      }
      list.append(li);
    }
    box.append(head, list);
  }

  function drawTurn() {
    const el = $("turn");
    let text;
    if (view.status === "finished" || view.to_move === -4) text = "Game over";
    else if (view.status === "open") text = "Waiting for players to take the open seats";
    else if (view.to_move === view.viewer && view.legal.length) text = "Your turn";
    else if (view.to_move >= 0) text = `${T.seatName(view, view.to_move)} to move`;
    else text = "…";
    if (replayMode) text = `Step ${view.version} of ${view.length} · ${text}`;
    el.textContent = text;
    el.classList.toggle("mine", text === "Your turn");
    document.title = `${text === "Your turn" ? "● " : ""}${view.title} — Tlatelolco`;
  }

  function drawPlayers() {
    const list = $("players");
    list.replaceChildren();
    const live = !replayMode && view.status !== "finished";
    const held = replayMode ? {} : S.seatsOf(S.get(gameId));  // the seats this browser holds
    view.players.forEach((p) => {
      const li = document.createElement("li");
      li.className = `player seat-${p.seat}` + (p.seat === view.to_move ? " to-move" : "") +
        (p.seat === view.viewer ? " you" : "");
      const score = view.scores && view.scores[p.seat] !== undefined ? view.scores[p.seat] : "";
      const kind = p.kind === "bot" ? `bot (${p.bot})` : p.kind === "open" ? "open seat" :
        (p.connected ? "online" : "offline");
      li.innerHTML = `<span class="dot ${p.connected ? "on" : "off"}" aria-hidden="true"></span>` +
        `<span class="name">${T.escape(T.seatName(view, p.seat))}</span>` +
        `<span class="kind">${T.escape(kind)}</span>` +
        `<span class="score" aria-label="score">${T.escape(score)}</span>`;
      if (p.seat === view.to_move) li.setAttribute("aria-current", "true");
      const extra = document.createElement("div");
      extra.className = "seat-actions";
      if (p.kind !== "open") delete invites[p.seat];  // taken: that link is used up
      // an open seat: a seated player may make an invite link for it
      if (live && p.kind === "open" && view.viewer !== null) {
        if (invites[p.seat]) extra.append(copyBox(invites[p.seat], `Invite link for seat ${p.seat}`));
        else {
          const b = button("Invite", () => makeInvite(p.seat, b), "secondary small");
          b.setAttribute("aria-label", `Make an invite link for seat ${p.seat}`);
          extra.append(b);
        }
      }
      // another seat this browser holds (hot seat): play it from this page
      if (!replayMode && p.seat !== view.viewer && held[String(p.seat)] && p.kind === "human") {
        extra.append(button(`Play as seat ${p.seat}`, () => switchSeat(p.seat), "secondary small"));
      }
      if (extra.childNodes.length) li.append(extra);
      list.append(li);
    });
  }

  async function makeInvite(seat, b) {
    b.disabled = true;
    try {
      const r = await api("POST", `/api/games/${gameId}/invite`, {seat});
      invites[seat] = r.invite_url;
    } catch (err) { showError(err.message); }
    if (view) drawPlayers();
  }

  function switchSeat(seat) {
    const held = S.seatsOf(S.get(gameId));
    if (!held[String(seat)]) return;
    session.set(SEAT_KEY, String(seat));
    token = held[String(seat)];
    reconnect();
  }

  // a read-only text field with a link, and a button that copies it
  function copyBox(text, label) {
    const wrap = document.createElement("div");
    wrap.className = "copy-box";
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = text;
    input.setAttribute("aria-label", label);
    input.addEventListener("focus", () => input.select());
    input.addEventListener("click", () => input.select());
    const b = button("Copy", () => T.copy(input, b), "secondary small");
    wrap.append(input, b);
    return wrap;
  }

  function drawLog() {
    const list = $("log");
    const entries = replayMode ? view.log : log;
    list.replaceChildren();
    const start = Math.max(0, entries.length - 300);
    for (const e of entries.slice(start)) {
      const li = document.createElement("li");
      li.value = e.step + 1;
      li.className = e.seat < 0 ? "chance" : `seat-${e.seat}`;
      const who = e.seat < 0 ? "Chance" : T.seatName(view, e.seat);
      li.textContent = `${who}: ${e.text}`;
      list.append(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  function drawResult() {
    const box = $("result");
    if (!view.result) { box.hidden = true; return; }
    box.hidden = false;
    let html = "<h2>Result</h2>";
    try { html += renderer().result(view) || ""; } catch (err) { console.error(err); }
    box.innerHTML = html;
    if (replayMode) return;
    if (view.rematch_id) {
      const a = link(`/games/${encodeURIComponent(view.rematch_id)}`,
                     "Rematch ready: go to the new game", "button");
      a.id = "rematch-ready";
      if (token) {
        a.addEventListener("click", (event) => {  // take the credential along first
          if (event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
          event.preventDefault();
          rematch();
        });
      }
      box.append(a);
    } else if (view.viewer !== null) {
      const b = button("Rematch", () => rematch());
      b.id = "rematch";
      box.append(b);
    }
  }

  // The new game (or the one another player asked for already): every credential this
  // browser holds here holds its (rotated) seat there too. Store them under the new game,
  // then go there: nothing secret in the address.
  let rematching = false;
  async function rematch() {
    if (rematching) return;
    rematching = true;
    const held = S.seatsOf(S.get(gameId));
    const tokens = [token, ...Object.values(held).filter((t) => t !== token)].filter(Boolean);
    let mine = null;
    const others = [];
    try {
      for (const t of tokens) {
        try {
          const r = await api("POST", `/api/games/${gameId}/rematch`, undefined, t);
          if (t === token) mine = r;
          else others.push([r, t]);
        } catch (err) { if (t === token) throw err; }
      }
      const game = view ? view.game : null;
      for (const [r, t] of others) S.put(r.game_id, t, r.seat, game);
      S.put(mine.game_id, token, mine.seat, game);  // the default credential there
      location.assign(`/games/${encodeURIComponent(mine.game_id)}`);
    } catch (err) {
      showError(err.message);
      rematching = false;
    }
  }

  // --- taking the seat of an invite link -------------------------------------------------------
  function drawClaim() {
    const box = $("claim");
    if (replayMode || !invite) { box.hidden = true; box.replaceChildren(); return; }
    if (!box.hidden) return;  // keep what the person is typing
    box.hidden = false;
    const h = document.createElement("h2");
    h.textContent = "Take your seat";
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = "You were invited to play in this game. Until you take the seat you watch it.";
    const label = document.createElement("label");
    label.textContent = "Your name ";
    const input = document.createElement("input");
    input.id = "claim-name";
    input.maxLength = 40;
    input.autocomplete = "nickname";
    label.append(input);
    const take = button("Take the seat", () => claimSeat(take));
    take.id = "claim-button";
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") claimSeat(take); });
    box.replaceChildren(h, p, label, take);
  }

  async function claimSeat(take) {
    if (take.disabled || !invite) return;
    take.disabled = true;
    const name = $("claim-name").value.trim() || null;
    try {
      const r = await api("POST", `/api/games/${gameId}/claim`, {name}, invite);
      S.put(gameId, r.token, r.seat, view ? view.game : null);
      session.set(SEAT_KEY, String(r.seat));
      dropInvite();
      token = r.token;
      banner("");
      drawClaim();
      reconnect();  // as the seat now
    } catch (err) {
      if (err.status && err.status !== 422 && err.status !== 429) claimRefused(err.message);
      else { showError(err.message); take.disabled = false; }  // the name, or try again
    }
  }

  function dropInvite() { invite = null; session.drop(INVITE_KEY); }

  // the invite was used already (or is no good): say so; the person may keep watching
  function claimRefused(message) {
    const box = $("claim");
    const h = document.createElement("h2");
    h.textContent = "This invite cannot be used";
    const p = document.createElement("p");
    p.className = "claim-refused";
    p.setAttribute("role", "alert");
    p.textContent = message;
    const keep = button("Keep watching", () => { dropInvite(); drawClaim(); }, "secondary");
    keep.id = "keep-watching";
    box.replaceChildren(h, p, keep, link("/", "Lobby"));
    box.hidden = false;
  }

  function drawLinks() {
    const box = $("links");
    box.replaceChildren();
    const add = (href, text) => box.append(link(href, text));
    const here = `/games/${encodeURIComponent(gameId)}`;
    if (replayMode) add(here, "Back to the game");
    else add(`${here}/replay`, "Replay move by move");
    if (view.status === "finished") add(`/api/games/${encodeURIComponent(gameId)}/record`, "Download the record");
    add(`/rules/${view.game}`, "Rules");
    add("/", "Lobby");
    if (!replayMode && view.viewer !== null && view.status !== "finished") {
      box.append(button("Leave the seat", async () => {
        if (!confirm("Give up your seat? Somebody else may take it.")) return;
        try {
          await api("POST", `/api/games/${gameId}/leave`);
          S.drop(gameId, token);
          session.drop(SEAT_KEY);
          location.href = "/";
        } catch (err) { showError(err.message); }
      }, "secondary"));
    }
  }

  // --- replays -----------------------------------------------------------------------------
  async function loadReplay(step) {
    try {
      view = await api("GET", `/api/games/${gameId}/replay/${step}`);
      replayStep = view.version;
      draw();
      drawReplayControls();
    } catch (err) { showError(err.message); }
  }

  function drawReplayControls() {
    const box = $("replay");
    box.hidden = false;
    box.replaceChildren();
    const go = (n) => loadReplay(Math.max(0, Math.min(view.length, n)));
    box.append(button("⏮ Start", () => go(0)), button("◀ Back", () => go(replayStep - 1)),
               button("Forward ▶", () => go(replayStep + 1)),
               button("End ⏭", () => go(view.length)));
    const range = document.createElement("input");
    range.type = "range"; range.min = 0; range.max = view.length; range.value = replayStep;
    range.setAttribute("aria-label", "Jump to step");
    range.addEventListener("change", () => go(Number(range.value)));
    box.append(range, note(`step ${replayStep} / ${view.length}`));
  }

  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "Escape" && path.length) { path = []; draw(); }
    if (replayMode && view) {
      if (e.key === "ArrowLeft") loadReplay(Math.max(0, replayStep - 1));
      if (e.key === "ArrowRight") loadReplay(Math.min(view.length, replayStep + 1));
    }
  });

  // a new fragment typed or pasted into this page's address: read it as a fresh page would
  window.addEventListener("hashchange", () => { if (location.hash.length > 1) location.reload(); });

  async function start() {
    if (!replayMode) { connect(); return; }
    for (;;) {
      try {
        const v = await api("GET", `/api/games/${gameId}/view`);
        if (token) S.touch(gameId, token, v.viewer, v.game);
        await loadReplay(v.version);
        return;
      } catch (err) {
        if (err.status === 403 && token) {  // no seat any more: forget it, watch the replay
          refusedTokens.add(token);
          S.drop(gameId, token);
          token = storedToken();
          continue;
        }
        showError(err.message);
        return;
      }
    }
  }
  start();
  // for tests and the curious: the current view, the whole log, the live connection
  window.TlatelolcoPage = {get view() { return view; }, get log() { return log; },
                          get socket() { return socket; }, get sending() { return sending; }};
})();
