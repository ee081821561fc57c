// The game page: a live view over a WebSocket, picking moves by clicking the board, the log,
// the result, replays. Game-specific drawing lives in games/<game>.js (see shell.js).
"use strict";
(function () {
  const T = window.Tlatelolco;
  const S = window.TlatelolcoSeats;
  const t = (m, p) => T.t(m, p);
  const tn = (one, many, n, p) => T.tn(one, many, n, p);
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
  let gameOver = false;     // the game is finished (a replay's step may be before its end)
  let hint = null;          // the last hint asked for: {version, data} ({version} while thinking)
  const invites = {};       // seat -> an invite link made on this page for that open seat
  let drawnVersion = null;  // the version the board was last drawn at (new steps animate)
  let highlightStep = null; // a log entry the player clicked: its move is shown on the board
  let historyView = null;   // the board as it was at that entry (the replay's view), or null
  let reason = null;        // why the last wrong click was not a move: {version, text}
  let wasMyTurn = false;
  const prefs = {           // this browser's choices, kept in localStorage
    get(key, fallback) {
      try { const v = localStorage.getItem(`tlatelolco:${key}`); return v === null ? fallback : v; }
      catch (err) { return fallback; }
    },
    set(key, value) { try { localStorage.setItem(`tlatelolco:${key}`, value); } catch (err) { /* */ } },
  };

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
    $("connection").textContent = t("connecting…");
    // a move sent on the old connection may be lost: the full view that opens every
    // connection says whether it was played, so the page may move again either way
    ws.onopen = () => {
      if (ws !== socket) return;
      sending = false;
      ws.send(JSON.stringify({type: "hello", token: sent || null, lang: T.lang}));
    };
    ws.onmessage = (event) => {
      if (ws !== socket) return;
      let message;
      try { message = JSON.parse(event.data); } catch (err) { return; }
      if (message.type === "error" && !ready) { refusal = message; return; }  // then it closes
      if (message.type === "view" && !ready) {
        ready = true;
        retry = 0;
        $("connection").textContent = t("live");
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
      $("connection").textContent = t("reconnecting…");
      const delay = Math.min(5000, 300 * 2 ** retry++);
      setTimeout(() => { if (socket === ws) connect(); }, delay);
    };
  }

  function refused(code, sent) {
    $("connection").textContent = t("closed");
    if (code === 4403 && sent) {
      // the stored credential holds no seat any more (given up, or the seat was taken)
      refusedTokens.add(sent);
      S.drop(gameId, sent);
      if (token === sent) token = storedToken();
      banner(t("The seat this browser kept for this game is no longer yours (it was given up or taken by someone else), so it was forgotten. You are watching the game."));
      connect();  // another credential (another seat held here) or none: as a spectator
      return;
    }
    if (code === 4404) banner(t("There is no such game (any more)."), link("/", t("Lobby")));
    else {
      banner(refusal && refusal.message
        ? t("The server refused the connection to this game: {why}", {why: refusal.message})
        : t("The server refused the connection to this game."), link("/", t("Lobby")));
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
    if (message.type === "why") { showReason(message); return; }
    if (message.type === "chat" || message.type === "muted"
        || (message.type === "error" && message.about === "chat")) {
      if (window.TlatelolcoChat) window.TlatelolcoChat.receive(message);
      return;
    }
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
    noteTimeouts();
    if (moved) { path = []; sending = false; if (!historyView) highlightStep = null; }
    if (same) drawPlayers();  // only who is online changed: keep the board (and the focus)
    else draw();
    alertTurn();
    rememberWatching();
    if (window.TlatelolcoChat) window.TlatelolcoChat.refresh();  // seated or not: its tabs
  }

  function summary(v) {
    return JSON.stringify([v.viewer, v.status, v.to_move, v.legal.length, v.rematch_id, v.result,
                           v.undo, v.players.map((p) => [p.kind, p.name]),
                           v.clock ? [v.clock.seat, v.clock.deadline] : null]);
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
    if (!sending) showError(t("Not connected to the server; reconnecting — try again in a moment."));
    reason = null;
    askNotificationsOnce();  // a user gesture: the one moment a browser lets a page ask
    draw();
  }

  function undo() {
    if (sending || !view || !view.undo) return;
    sending = send({type: "undo", version: view.version});
    if (!sending) showError(t("Not connected to the server; reconnecting — try again in a moment."));
    draw();
  }

  // --- a wrong click: the engine says why -------------------------------------------------
  // The renderer's attempt(path, key, view) turns the click into the move it most likely
  // meant (its notation: the server answers with the rules' reason), or {reason} in words.
  function explain(key) {
    if (replayMode || !view || sending) return;
    const r = renderer();
    let text = null;
    try { text = r.attempt ? r.attempt(path, key, view) : null; } catch (err) { text = null; }
    if (view.viewer === null) { showReason({reason: t("You are watching: spectators do not move.")}); return; }
    if (view.status !== "running") { showReason({reason: drawTurnText()}); return; }
    if (view.to_move !== view.viewer) {
      showReason({reason: t("It is not your turn: {name} is to move.",
                            {name: T.seatName(view, view.to_move)})});
      return;
    }
    if (text && typeof text === "object" && text.reason) { showReason(text); return; }
    if (typeof text === "string" && send({type: "why", text})) return;
    // a piece of a legal move picked too early (a square before the tile to put there)
    const later = view.legal.map(keysOf).find((keys) => keys.indexOf(key) > path.length &&
                                               path.every((k, i) => keys[i] === k));
    if (later) {
      showReason({reason: t("Not yet: first pick {what}.", {what: labelOf(later[path.length])})});
      return;
    }
    showReason({reason: t("That is not one of your moves now.")});
  }

  function showReason(message) {
    if (!view) return;
    const text = message.reason || t("That move is legal: pick it on the board.");
    reason = {version: view.version, text};
    drawReason();
  }

  function drawReason() {
    const box = $("reason");
    const shown = reason && view && reason.version === view.version && !historyView ? reason.text : "";
    box.textContent = shown;
    box.title = shown;
    box.hidden = !shown;
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
    reason = null;  // a valid pick: the last wrong click's message goes
    const left = candidates();
    const exact = left.filter((m) => keysOf(m).length === path.length);
    if (left.length === 1 && exact.length === 1) { play(exact[0]); return; }
    if (left.length === 0) path = [];
    draw();
  }

  // where a renderer's pieces end up: the board, the dock (its [data-dock] parts, the turn's
  // controls, kept in sight) and the extras below (its [data-extra] parts, tables to read)
  const PLAY_AREA = ["board-content", "dock-game", "extras"];
  function keyed(key) {
    const sel = key === undefined ? "[data-key]" : `[data-key="${CSS.escape(key)}"]`;
    return PLAY_AREA.flatMap((id) => [...$(id).querySelectorAll(sel)]);
  }
  function inPlayArea(el) { return PLAY_AREA.some((id) => $(id).contains(el)); }

  function markPickable(moves) {
    const next = new Map();
    for (const m of moves) {
      const keys = keysOf(m);
      if (keys.length > path.length) next.set(keys[path.length], m);
    }
    const drawn = new Set();
    for (const el of keyed()) {
      const key = el.getAttribute("data-key");
      drawn.add(key);
      el.classList.toggle("picked", path.includes(key));
      if (!next.has(key) || sending) {
        if (!replayMode && !historyView && !path.includes(key)) {
          el.addEventListener("click", (e) => { e.stopPropagation(); explain(key); });
        }
        continue;
      }
      el.classList.add("pick");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", labelOf(key));
      el.addEventListener("click", (e) => { e.stopPropagation(); pick(key); });
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(key); }
      });
    }
    return {next, drawn};
  }

  // a pick key in words (the renderer knows its board), else the move it starts
  function labelOf(key) {
    const r = renderer();
    try { const label = r.label ? r.label(key, view) : null; if (label) return label; }
    catch (err) { /* the fallback below */ }
    const move = view.legal.find((m) => keysOf(m)[path.length] === key || keysOf(m).includes(key));
    return move ? move.text : t("this piece");
  }

  const DOCK_BUTTONS = 8;  // more moves without a place on the board: in the list below
  function drawPicker(moves, marks) {
    const box = $("picker");
    box.replaceChildren();
    $("all-moves").replaceChildren();
    if (view && view.undo > 0 && !replayMode && !sending) {
      const b = button(t("Undo"), undo, "secondary");
      b.id = "undo";
      b.title = t("Take back your last move of this turn (Ctrl+Z)");
      box.append(b);
    }
    if (!moves.length || sending) {
      if (sending) box.append(note(t("Sending your move…")));
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
      chosen.append(note(t("Picked: {what}", {what: path.map(labelOf).join(" → ")})));
      chosen.append(button(t("Cancel (Esc)"), () => { path = []; draw(); }, "secondary"));
      box.append(chosen);
    }
    const row = document.createElement("div");
    row.className = "moves";
    for (const m of buttons.slice(0, DOCK_BUTTONS)) row.append(button(m.text, () => play(m)));
    if (buttons.length > DOCK_BUTTONS) {
      row.append(note(t("… and {n} more in the list", {n: buttons.length - DOCK_BUTTONS})));
    }
    if (row.childNodes.length) box.append(row);
    const all = document.createElement("details");
    all.className = "all-moves";
    const sum = document.createElement("summary");
    sum.textContent = tn("All {n} legal move", "All {n} legal moves", moves.length);
    const filter = document.createElement("input");
    filter.type = "search";
    filter.placeholder = t("filter moves");
    filter.setAttribute("aria-label", t("Filter the legal moves"));
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
    $("all-moves").append(all);
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
    keptZoom();
    const title = t(view.title);
    $("title").textContent = replayMode ? t("{title} — replay", {title}) : title;
    const root = $("board-content");
    const active = document.activeElement;
    const focused = active && inPlayArea(active) ? (active.getAttribute("data-key") || "") : null;
    const fromPicker = !!(active && active.closest && active.closest("#picker"));
    const shown = historyView || view;
    for (const id of PLAY_AREA) $(id).replaceChildren();
    try {
      renderer().draw(root, shown);
      for (const el of [...root.querySelectorAll("[data-dock]")]) $("dock-game").append(el);
      for (const el of [...root.querySelectorAll("[data-extra]")]) $("extras").append(el);
    } catch (err) {
      root.textContent = t("The board could not be drawn: {why}", {why: String(err)});
      console.error(err);
    }
    const moves = replayMode || historyView ? [] : candidates();
    const marks = markPickable(moves);
    const fresh = markMoves();
    if (!replayMode) drawPicker(moves, marks);
    // a redraw must not throw a keyboard user back to the top of the page: the same target,
    // else the board's first target, else the board itself
    if (focused !== null || (fromPicker && !document.body.contains(active))) {
      const again = (focused && keyed(focused).find((el) => el.classList.contains("pick"))) ||
        keyed().find((el) => el.classList.contains("pick"));
      (again || $("board")).focus({preventScroll: true});
    }
    layoutBoard();
    followAction(fresh);
    drawHistory();
    drawReason();
    drawHint();
    drawTurn();
    drawPlayers();
    drawLog();
    drawResult();
    drawClaim();
    drawLinks();
    gameOver = gameOver || (!replayMode && view.status === "finished");
    if (window.TlatelolcoReview) window.TlatelolcoReview.drawn(view, {finished: gameOver});
  }

  // --- the last move of each seat, a clicked log entry, new pieces -------------------------
  function moveKeys(move) {
    const r = renderer();
    try {
      if (r.lastMoveKeys) return r.lastMoveKeys(move, view) || [];
      return r.keys ? r.keys(move, view) || [] : [];
    } catch (err) { return []; }
  }

  function mark(keys, classes) {
    for (const key of keys) {
      for (const el of keyed(key)) el.classList.add(...classes);
    }
  }

  // the last move of each seat, the clicked log entry; true when new steps were drawn
  function markMoves() {
    const shown = historyView || view;
    const entries = replayMode || historyView ? shown.log : log;
    const seen = new Set();
    const newest = entries.length ? entries[entries.length - 1].step : -1;
    const fresh = !historyView && drawnVersion !== null && drawnVersion < view.version;
    // each seat's latest move that has a place on the board ("end turn" has none)
    for (let i = entries.length - 1; i >= 0 && seen.size < view.players.length; i--) {
      const e = entries[i];
      if (e.seat < 0 || seen.has(e.seat) || !e.move) continue;
      const keys = moveKeys(e.move);
      if (!keys.length) continue;
      seen.add(e.seat);
      const classes = ["last-move", `last-seat-${e.seat}`];
      if (fresh && e.step >= (drawnVersion || 0) && e.step <= newest) classes.push("fresh");
      mark(keys, classes);
    }
    if (highlightStep !== null) {
      const e = entries.find((x) => x.step === highlightStep);
      if (e && e.move) mark(moveKeys(e.move), ["highlight"]);
    }
    if (!historyView) drawnVersion = view.version;
    return fresh;
  }

  // --- the board's frame: fit to the screen, zoom and pan inside it, follow the action ------
  // The page never grows wider than the screen: the board is laid out at the frame's width
  // (zoom ≥ 1: at that many times its width, panned inside the frame) or scaled down with
  // CSS zoom (zoom < 1, and "fit": the whole board within the frame's height, which leaves
  // room below for the dock, so a whole turn is on one screen).
  const ZOOMS = [0.5, 0.75, 1, 1.5, 2, 3, 4];
  const MIN_ZOOM = 0.4, MAX_ZOOM = 4;
  const MIN_FRAME = 180;    // px: below this the frame stops shrinking for the dock
  const HINT_EQUAL = 0.05;  // values closer than this are within a short search's noise
  let zoom = "fit";         // "fit" or a scale
  let scale = 1;            // the scale the board is drawn at now
  let zoomedGame = null;    // the game whose kept zoom the board shows
  function keptZoom() {
    if (zoomedGame === view.game) return;
    zoomedGame = view.game;
    const kept = prefs.get(`zoom:${view.game}`, "fit");
    const z = Number(kept);
    zoom = kept !== "fit" && z >= MIN_ZOOM && z <= MAX_ZOOM ? z : "fit";
  }
  function setZoom(z, anchor) {
    const frame = $("board");
    const before = scale;
    const at = anchor || {x: frame.clientWidth / 2, y: frame.clientHeight / 2};
    const cx = frame.scrollLeft + at.x, cy = frame.scrollTop + at.y;
    zoom = z === "fit" ? "fit" : Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, z));
    if (view) prefs.set(`zoom:${view.game}`, String(zoom));
    layoutBoard();
    const k = scale / before;  // keep the point under the anchor where it was
    frame.scrollLeft = cx * k - at.x;
    frame.scrollTop = cy * k - at.y;
  }
  function zoomBy(step) {
    if (!view) return;
    // a step is at least 5 %: from a fit of 99 %, "+" goes to 150 %, not to 100 %
    const next = step > 0 ? ZOOMS.find((z) => z > scale * 1.05)
      : [...ZOOMS].reverse().find((z) => z < scale / 1.05);
    setZoom(next === undefined ? (step > 0 ? ZOOMS[ZOOMS.length - 1] : ZOOMS[0]) : next);
  }

  // the room the frame has: the screen below its top, less the dock kept in sight under it
  function frameRoom() {
    const frame = $("board");
    const top = frame.getBoundingClientRect().top + window.scrollY;
    const dock = $("dock").getBoundingClientRect().height;
    return Math.max(MIN_FRAME, Math.floor(window.innerHeight - top - dock - 6));
  }

  function layoutBoard() {
    const frame = $("board"), content = $("board-content");
    const room = frameRoom();
    frame.style.maxHeight = `${room}px`;
    const css = getComputedStyle(frame);
    const pad = (a, b) => (parseFloat(css[a]) || 0) + (parseFloat(css[b]) || 0);
    const width = Math.max(100, frame.clientWidth - pad("paddingLeft", "paddingRight"));
    const height = room - pad("paddingTop", "paddingBottom") - pad("borderTopWidth", "borderBottomWidth");
    let w = width, s = 1;
    if (zoom === "fit") {
      content.style.zoom = "1";
      content.style.width = `${w}px`;
      // a board with a width of its own (wider than the frame) is laid out at it, scaled down
      w = Math.max(w, content.scrollWidth);
      content.style.width = `${w}px`;
      s = Math.max(0.2, Math.min(1, height / content.scrollHeight, width / w));
    } else if (zoom < 1) s = zoom;
    else w = Math.round(width * zoom);
    content.style.width = `${w}px`;
    content.style.zoom = String(s);
    scale = zoom === "fit" ? s : zoom;
    frame.classList.toggle("fit", zoom === "fit");
    $("zoom-level").textContent = `${Math.round(scale * 100)}%`;
    $("zoom-fit").setAttribute("aria-pressed", String(zoom === "fit"));
    $("zoom-fit").title = t("Show the whole board");
  }

  // after a move, a board larger than its frame scrolls to what changed (else to the first
  // piece to click), unless that is in sight already
  function followAction(fresh) {
    const frame = $("board");
    if (frame.scrollWidth <= frame.clientWidth + 1 && frame.scrollHeight <= frame.clientHeight + 1) return;
    const root = $("board-content");
    const target = (historyView && root.querySelector(".highlight")) ||
      (fresh && [...root.querySelectorAll(".fresh")].pop()) ||
      (fresh && myTurn() && root.querySelector(".pick")) || null;
    if (!target) return;
    const f = frame.getBoundingClientRect(), r = target.getBoundingClientRect();
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;  // its middle in sight: enough
    if (x >= f.left && x <= f.right && y >= f.top && y <= f.bottom) return;
    frame.scrollBy({left: x - (f.left + f.right) / 2, top: y - (f.top + f.bottom) / 2});
  }

  // two fingers on the board zoom it (the page itself keeps its size); Ctrl+wheel too
  function setUpPinch() {
    const frame = $("board");
    const touches = new Map();
    let start = null;
    const spread = () => {
      const [a, b] = [...touches.values()];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    frame.addEventListener("pointerdown", (e) => {
      if (e.pointerType !== "touch") return;
      touches.set(e.pointerId, {x: e.clientX, y: e.clientY});
      if (touches.size === 2) start = {d: spread(), scale};
    });
    frame.addEventListener("pointermove", (e) => {
      if (!touches.has(e.pointerId)) return;
      touches.set(e.pointerId, {x: e.clientX, y: e.clientY});
      if (touches.size !== 2 || !start || !start.d) return;
      const [a, b] = [...touches.values()];
      const f = frame.getBoundingClientRect();
      setZoom(start.scale * spread() / start.d, {x: (a.x + b.x) / 2 - f.left, y: (a.y + b.y) / 2 - f.top});
    });
    const lift = (e) => { touches.delete(e.pointerId); if (touches.size < 2) start = null; };
    frame.addEventListener("pointerup", lift);
    frame.addEventListener("pointercancel", lift);
    frame.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      const f = frame.getBoundingClientRect();
      setZoom(scale * (e.deltaY < 0 ? 1.1 : 1 / 1.1), {x: e.clientX - f.left, y: e.clientY - f.top});
    }, {passive: false});
    let pending = false;
    const again = () => {
      if (pending || !view) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; layoutBoard(); });
    };
    window.addEventListener("resize", again);
    if (window.ResizeObserver) new ResizeObserver(again).observe($("dock"));
  }

  // --- your turn: a sound (if switched on) and a notification while the tab is hidden ------
  function myTurn() {
    return !!view && !replayMode && view.status === "running" && view.viewer !== null &&
      view.to_move === view.viewer && view.legal.length > 0;
  }

  function alertTurn() {
    const mine = myTurn();
    if (mine && !wasMyTurn) {
      if (prefs.get("sound", "off") === "on") beep();
      if (document.hidden && "Notification" in window && Notification.permission === "granted") {
        try {
          const n = new Notification(t("Your turn in {title}", {title: t(view.title)}),
                                     {body: t("Tlatelolco: it is your move."), tag: `turn-${gameId}`});
          n.onclick = () => { window.focus(); n.close(); };
        } catch (err) { /* some browsers allow notifications only from a service worker */ }
      }
    }
    wasMyTurn = mine;
  }

  let audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.3);
    } catch (err) { /* no sound here */ }
  }

  // asked once, after the player's own click (never on page load)
  function askNotificationsOnce() {
    if (!("Notification" in window) || Notification.permission !== "default") return;
    if (prefs.get("asked-notifications", "") === "yes") return;
    prefs.set("asked-notifications", "yes");
    try { Notification.requestPermission().catch(() => {}); } catch (err) { /* old API */ }
  }

  function drawAlerts() {
    const box = $("alerts");
    box.replaceChildren();
    if (replayMode) return;
    const on = prefs.get("sound", "off") === "on";
    const b = button(on ? t("Sound: on") : t("Sound: off"), () => {
      prefs.set("sound", on ? "off" : "on");
      if (!on) beep();
      drawAlerts();
    }, "secondary small");
    b.id = "sound";
    b.setAttribute("aria-pressed", String(on));
    b.title = t("A short sound when it becomes your turn");
    box.append(b);
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
      const data = await api("POST", `/api/games/${gameId}/hint?lang=${T.lang}`);
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
    if (!shown) {
      const b = button(t("Hint"), askHint, "secondary");
      b.id = "hint-button";
      box.append(b);
      return;
    }
    if (!shown.data) { box.append(note(t("Thinking about your move…"))); return; }
    const h = shown.data;
    // best first by value; moves within the search's measured noise of the best are ordered
    // by how often it tried them (a rarely tried move may look best by luck); when all are
    // within the noise, say so instead of ranking noise (docs/hints.md)
    const noise = typeof h.noise === "number" ? h.noise : HINT_EQUAL;
    const values = h.moves.map((m) => m.value).filter((v) => v !== null && v !== undefined);
    const best = values.length ? Math.max(...values) : 0;
    const near = (m) => m.value !== null && m.value !== undefined && m.value >= best - noise;
    const moves = h.moves.slice().sort((a, b) => (near(b) - near(a)) ||
      (near(a) ? (b.visits || 0) - (a.visits || 0) : (b.value ?? -1) - (a.value ?? -1)));
    const equal = moves.length > 1 && values.length > 1 &&
      best - Math.min(...values) < noise;
    const head = document.createElement("p");
    head.className = "note";
    head.textContent = h.why === "only move" ? t("You have only one move:") :
      h.why === "settled" ? t("The bot's knowledge settles this move without searching:") :
      equal ? t("All about equal: a search of {n} tries cannot tell these moves apart.", {n: h.iterations}) :
      t("What a search ({n} tries in {s} s) expects of each move against these bots:",
        {n: h.iterations, s: h.seconds.toFixed(1)});
    const list = document.createElement("ol");
    list.className = "hint-moves";
    for (const m of moves) {
      const li = document.createElement("li");
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = m.words || m.text;
      text.title = m.text;
      li.append(text);
      if (m.value !== null && m.value !== undefined && !equal) {
        const value = document.createElement("span");
        value.className = "value";
        value.textContent = t("wins about {k} games in 10", {k: Math.round(10 * m.value)});
        value.title = t("share of victory {p}% after {n} tries", {p: Math.round(100 * m.value), n: m.visits});
        li.append(value);
      }
      const move = view.legal.find((x) => x.id === m.action);
      if (move) {
        const playIt = button(t("Play"), () => play(move));
        playIt.setAttribute("aria-label", t("Play {move}", {move: m.words || m.text}));
        li.append(playIt);
      }
      list.append(li);
    }
    box.append(head, list);
  }

  function drawTurnText() {
    if (view.status === "finished" || view.to_move === -4) return t("Game over");
    if (view.status === "open") return t("Waiting for players to take the open seats");
    if (view.to_move === view.viewer && view.legal.length) return t("Your turn");
    if (view.to_move >= 0) return t("{name} to move", {name: T.seatName(view, view.to_move)});
    if (view.to_move === -1) return view.version === 0 ? t("Setting up the game") : t("Chance draws");
    return "…";
  }

  function drawTurn() {
    const el = $("turn");
    let text = drawTurnText();
    const mine = myTurn();
    if (replayMode) {
      text = view.version === 0
        ? t("Step 0 of {n} · the game before the first move", {n: view.length})
        : t("Step {k} of {n} · {turn}", {k: view.version, n: view.length, turn: text});
    }
    el.textContent = text;
    const clock = view.clock;
    if (!replayMode && clock && clock.deadline && view.status === "running" && clock.seat === view.to_move) {
      el.append(" · ", clockLeft(clock));  // the time left of the seat to move, in sight
    }
    el.classList.toggle("mine", mine);
    $("watching").hidden = replayMode || view.viewer !== null;
    document.title = `${mine ? "● " : ""}${t(view.title)} — Tlatelolco`;
  }

  // a bot's spec as the lobby offers it: easy, medium or hard (else the spec itself)
  function botLevel(spec) {
    const name = String(spec || "random").split(":")[0];
    if (name === "random") return t("easy");
    if (name === "greedy") return t("medium");
    if (name === "mcts" || name === "ismcts") return t("hard");
    return String(spec);
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
      const kind = p.kind === "bot" ? t("bot ({level})", {level: botLevel(p.bot)}) :
        p.kind === "open" ? t("open seat") : (p.connected ? t("online") : t("offline"));
      li.innerHTML = `<span class="dot ${p.connected ? "on" : "off"}" aria-hidden="true"></span>` +
        `<span class="name">${T.escape(T.seatName(view, p.seat))}</span>` +
        `<span class="kind">${T.escape(kind)}</span>` +
        `<span class="score" aria-label="${T.escape(t("score"))}">${T.escape(score)}</span>`;
      if (p.seat === view.to_move) li.setAttribute("aria-current", "true");
      const clocked = seatClock(p);
      if (clocked) li.append(clocked);
      const extra = document.createElement("div");
      extra.className = "seat-actions";
      if (p.kind !== "open") delete invites[p.seat];  // taken: that link is used up
      // an open seat: a seated player may make an invite link for it
      if (live && p.kind === "open" && view.viewer !== null) {
        if (invites[p.seat]) extra.append(copyBox(invites[p.seat], t("Invite link for seat {n}", {n: p.seat + 1})));
        else {
          const b = button(t("Invite"), () => makeInvite(p.seat, b), "secondary small");
          b.setAttribute("aria-label", t("Make an invite link for seat {n}", {n: p.seat + 1}));
          extra.append(b);
        }
      }
      // another seat this browser holds (hot seat): play it from this page
      if (!replayMode && p.seat !== view.viewer && held[String(p.seat)] && p.kind === "human") {
        extra.append(button(t("Play as seat {n}", {n: p.seat + 1}), () => switchSeat(p.seat), "secondary small"));
      }
      if (extra.childNodes.length) li.append(extra);
      list.append(li);
    });
    drawClockInfo();
  }

  // --- the clock of a turn-based game: the running seat's time left, each seat's timeouts ----
  let seenTimeouts = null;  // each seat's timeouts in the last view: a rise is a new timeout
  const timeoutNotes = {};  // seat -> what its latest timeout (seen on this page) brought

  function noteTimeouts() {
    const clock = view && view.clock;
    if (!clock || replayMode) return;
    if (seenTimeouts) {
      clock.timeouts.forEach((n, seat) => {
        if (n <= (seenTimeouts[seat] || 0)) return;
        const p = view.players[seat];
        timeoutNotes[seat] = clock.forfeited[seat] ? t("Time out: the seat forfeits, a bot plays it on")
          : p && p.kind === "bot" ? t("Time out: a bot took the seat for good")
          : t("Time out: a bot played");
      });
    }
    seenTimeouts = clock.timeouts.slice();
  }

  const pad = (n) => String(n).padStart(2, "0");
  // "2 d 3 h" over a day, "5:04:09" over an hour, else "14:05" or "0:42"
  function timeLeft(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60), sec = s % 60;
    if (d > 0) return t("{d} d {h} h", {d, h});
    if (h > 0) return `${h}:${pad(m)}:${pad(sec)}`;
    return `${m}:${pad(sec)}`;
  }

  // a move time in words: "2 d", "1 d 12 h", "3 h", "1 h 30 min", "45 min", "30 s"
  function duration(seconds) {
    const d = Math.floor(seconds / 86400), h = Math.floor((seconds % 86400) / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    if (d > 0) return h ? t("{d} d {h} h", {d, h}) : t("{d} d", {d});
    if (h > 0) return m ? t("{h} h {m} min", {h, m}) : t("{h} h", {h});
    if (m > 0) return t("{m} min", {m});
    return t("{s} s", {s: seconds});
  }

  function tickClock(el) {
    const left = Date.parse(el.dataset.deadline) - Date.now();
    const text = timeLeft(left);
    if (el.textContent !== text) el.textContent = text;
    // red in the last minute, or the last tenth of the move time
    el.classList.toggle("low", left < 60000 || left < Number(el.dataset.moveTime) * 100);
  }

  function clockLeft(clock) {
    const el = document.createElement("span");
    el.className = "clock-left";
    el.dataset.deadline = clock.deadline;
    el.dataset.moveTime = String(clock.move_time);
    el.title = t("Time left for this move");
    tickClock(el);
    return el;
  }
  setInterval(() => { for (const el of document.querySelectorAll(".clock-left")) tickClock(el); }, 1000);

  function tag(text, cls) {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    return span;
  }

  // a seat's line under its name: its time left while its clock runs, its timeouts, forfeit
  function seatClock(p) {
    const clock = view.clock;
    if (!clock) return null;
    const box = document.createElement("div");
    box.className = "seat-clock";
    if (!replayMode && clock.seat === p.seat && clock.deadline && view.status === "running") {
      box.append(tag(t("Time left:"), "note"), clockLeft(clock));
    }
    if (clock.forfeited[p.seat]) box.append(tag(t("forfeited"), "forfeit"));
    const n = clock.timeouts[p.seat] || 0;
    if (n) box.append(tag(tn("{n} timeout", "{n} timeouts", n), "timeouts"));
    if (!replayMode && timeoutNotes[p.seat]) box.append(tag(timeoutNotes[p.seat], "timeout-note"));
    return box.childNodes.length ? box : null;
  }

  // under the players: the table's speed and what running out of time brings
  function drawClockInfo() {
    let box = $("clock-info");
    const clock = view.clock;
    if (!clock) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("p");
      box.id = "clock-info";
      box.className = "clock-info note";
      $("players").after(box);
    }
    const what = clock.on_timeout === "lose" ? t("the seat forfeits the game (a bot plays it on)")
      : clock.on_timeout === "drop" ? t("a bot plays that turn; at the third timeout it takes the seat")
      : t("a bot plays that turn");
    box.textContent = t("Turn-based: {time} per move. Out of time: {what}.",
                        {time: duration(clock.move_time), what});
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
    const b = button(t("Copy"), () => T.copy(input, b), "secondary small");
    wrap.append(input, b);
    return wrap;
  }

  // The log in words, newest last. A line marks what happened since your last move; a click
  // on an entry shows its move on the board (in a replay: goes to that step).
  function drawLog() {
    const list = $("log");
    const entries = replayMode ? view.log : log;
    list.replaceChildren();
    const start = Math.max(0, entries.length - 300);
    let mineLast = -1;
    if (!replayMode && view.viewer !== null) {
      for (let i = entries.length - 1; i >= 0; i--) {
        if (entries[i].seat === view.viewer) { mineLast = i; break; }
      }
    }
    let current = null;
    for (let i = start; i < entries.length; i++) {
      const e = entries[i];
      if (i === mineLast + 1 && mineLast >= 0 && i < entries.length) {
        const marker = document.createElement("li");
        marker.className = "since-mine";
        marker.setAttribute("aria-hidden", "false");
        marker.textContent = t("Since your last turn");
        list.append(marker);
      }
      const li = document.createElement("li");
      li.value = e.step + 1;
      li.className = e.seat < 0 ? "chance" : `seat-${e.seat}`;
      li.dataset.step = String(e.step);
      const words = document.createElement("span");
      words.className = "words";
      words.textContent = e.words || e.text;
      li.append(words);
      if (e.words && e.words !== e.text) {
        const code = document.createElement("code");
        code.className = "notation";
        code.textContent = e.text;
        li.append(" ", code);
      }
      li.tabIndex = 0;
      li.title = replayMode ? t("Go to this step") : t("Show the board as it was after this move");
      const choose = () => {
        if (replayMode) { loadReplay(e.step + 1); return; }
        showHistory(e.step);
      };
      li.addEventListener("click", choose);
      li.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); choose(); }
      });
      if ((replayMode && e.step === view.version - 1) || e.step === highlightStep) {
        li.classList.add("current");
        li.setAttribute("aria-current", "step");
        current = li;
      }
      list.append(li);
    }
    if (current) current.scrollIntoView({block: "nearest"});
    else list.scrollTop = list.scrollHeight;
  }

  // --- a log entry clicked: the board as it was just after that move, and the way back -----
  let historyAsked = null;
  async function showHistory(step) {
    if (highlightStep === step && historyView) { closeHistory(); return; }
    historyAsked = step;
    try {
      const v = await api("GET", `/api/games/${gameId}/replay/${step + 1}?lang=${T.lang}`);
      if (historyAsked !== step) return;
      historyView = v;
      highlightStep = step;
      path = [];
      draw();
    } catch (err) { showError(err.message); }
  }

  function closeHistory() {
    historyAsked = null;
    if (!historyView) return;
    historyView = null;
    highlightStep = null;
    draw();
  }

  function drawHistory() {
    const box = $("history");
    box.replaceChildren();
    document.body.classList.toggle("in-history", !!historyView);
    box.hidden = !historyView;
    if (!historyView) return;
    const entry = historyView.log.find((e) => e.step === highlightStep);
    const text = document.createElement("span");
    text.className = "what";
    text.textContent = t("The board just after move {n}: {move}",
                         {n: highlightStep + 1, move: entry ? entry.words || entry.text : ""});
    const back = button(t("Back to the game"), closeHistory, "small");
    back.id = "history-back";
    const earlier = button("◀", () => showHistory(Math.max(0, highlightStep - 1)), "secondary small");
    earlier.setAttribute("aria-label", t("The move before"));
    earlier.disabled = highlightStep <= 0;
    const later = button("▶", () => {
      if (highlightStep + 1 >= log.length) closeHistory(); else showHistory(highlightStep + 1);
    }, "secondary small");
    later.setAttribute("aria-label", t("The move after"));
    box.append(text, earlier, later, back);
  }

  function drawResult() {
    const box = $("result");
    if (!view.result) { box.hidden = true; return; }
    box.hidden = false;
    let html = `<h2>${T.escape(t("Result"))}</h2>`;
    const res = view.result;
    const lost = res.forfeited || [];
    if (typeof res.forfeit === "number") {  // a forfeit ended it before the rules would
      const winners = (res.returns || []).map((r, s) => (r > 0 ? T.seatName(view, s) : null))
        .filter((name) => name !== null).join(", ");
      html += `<p class="forfeit-note">${T.escape(t("{name} ran out of time and forfeits the game. Winner: {winners}",
                                                     {name: T.seatName(view, res.forfeit), winners}))}</p>`;
    } else {
      try { html += renderer().result(view) || ""; } catch (err) { console.error(err); }
      if (lost.length) {  // ranked last: out of time at a table that said so
        const names = lost.map((s) => T.seatName(view, s)).join(", ");
        html += `<p class="note forfeit-note">${T.escape(t("Forfeited on time, ranked last: {names}", {names}))}</p>`;
      }
    }
    box.innerHTML = html;
    if (replayMode) return;
    if (view.rematch_id) {
      const a = link(`/games/${encodeURIComponent(view.rematch_id)}`,
                     t("Rematch ready: go to the new game"), "button");
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
      const b = button(t("Rematch"), () => rematch());
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
    h.textContent = t("Take your seat");
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = t("You were invited to play in this game. Until you take the seat you watch it.");
    const label = document.createElement("label");
    label.textContent = t("Your name") + " ";
    const input = document.createElement("input");
    input.id = "claim-name";
    input.value = prefs.get("name", "");
    input.maxLength = 40;
    input.autocomplete = "nickname";
    label.append(input);
    const take = button(t("Take the seat"), () => claimSeat(take));
    take.id = "claim-button";
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") claimSeat(take); });
    box.replaceChildren(h, p, label, take);
  }

  async function claimSeat(take) {
    if (take.disabled || !invite) return;
    take.disabled = true;
    const name = $("claim-name").value.trim() || null;
    if (name) prefs.set("name", name);
    try {
      // the seat this browser holds here, if any: one person, one seat where seats hide things
      const held = storedToken();
      const r = await api("POST", `/api/games/${gameId}/claim`, {name, token: held}, invite);
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
    h.textContent = t("This invite cannot be used");
    const p = document.createElement("p");
    p.className = "claim-refused";
    p.setAttribute("role", "alert");
    p.textContent = message;
    const keep = button(t("Keep watching"), () => { dropInvite(); drawClaim(); }, "secondary");
    keep.id = "keep-watching";
    box.replaceChildren(h, p, keep, link("/", t("Lobby")));
    box.hidden = false;
  }

  function drawLinks() {
    const box = $("links");
    box.replaceChildren();
    const add = (href, text) => box.append(link(href, text));
    const here = `/games/${encodeURIComponent(gameId)}`;
    if (replayMode) add(here, t("Back to the game"));
    else add(`${here}/replay`, t("Replay move by move"));
    if (view.status === "finished") add(`/api/games/${encodeURIComponent(gameId)}/record`, t("Download the record"));
    const rules = link(`/rules/${view.game}?lang=${T.lang}`, t("Rules"));
    rules.id = "rules-link";
    rules.addEventListener("click", (event) => {  // over the game, not instead of it
      if (!window.TlatelolcoRules || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      window.TlatelolcoRules.open(view.game);
    });
    box.append(rules);
    add("/", t("Lobby"));
    if (!replayMode && view.viewer !== null && view.status !== "finished") {
      box.append(button(t("Leave the seat"), async () => {
        if (!confirm(t("Give up your seat? Somebody else may take it."))) return;
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
  // `then`: an action played at `step` instead of the game's move (a review's better move)
  async function loadReplay(step, then) {
    const tried = then === undefined || then === null ? "" : `&then=${encodeURIComponent(then)}`;
    try {
      view = await api("GET", `/api/games/${gameId}/replay/${step}?lang=${T.lang}${tried}`);
      replayStep = view.version;
      draw();
      drawReplayControls();
      if (window.TlatelolcoChat) window.TlatelolcoChat.showUpTo(replayStep);
    } catch (err) { showError(err.message); }
  }

  // icons drawn as SVG paths (font glyphs may be missing), each button labelled in words
  const ICONS = {
    start: "M6 5h2v14H6zM20 5v14L9 12z",
    back: "M18 5v14L7 12z",
    forward: "M6 5v14l11-7z",
    end: "M16 5h2v14h-2zM4 5v14l11-7z",
  };
  function iconButton(icon, label, onClick) {
    const b = button("", onClick, "secondary icon");
    const svg = T.svg("svg", {viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true",
                             focusable: "false"});
    T.svg("path", {d: ICONS[icon], fill: "currentColor"}, svg);
    const text = document.createElement("span");
    text.className = "label";
    text.textContent = label;
    b.append(svg, text);
    return b;
  }

  function drawReplayControls() {
    const box = $("replay");
    box.hidden = false;
    box.replaceChildren();
    const go = (n) => loadReplay(Math.max(0, Math.min(view.length, n)));
    box.append(iconButton("start", t("Start"), () => go(0)),
               iconButton("back", t("Back"), () => go(replayStep - 1)),
               iconButton("forward", t("Forward"), () => go(replayStep + 1)),
               iconButton("end", t("End"), () => go(view.length)));
    const range = document.createElement("input");
    range.type = "range"; range.min = 0; range.max = view.length; range.value = replayStep;
    range.setAttribute("aria-label", t("Jump to step"));
    range.addEventListener("change", () => go(Number(range.value)));
    box.append(range, note(t("step {k} / {n}", {k: replayStep, n: view.length})));
  }

  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "Escape" && historyView) { closeHistory(); return; }
    if (e.key === "Escape" && path.length) { path = []; draw(); }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z" && view && view.undo > 0) {
      e.preventDefault();
      undo();
    }
    if (replayMode && view) {
      if (e.key === "ArrowLeft") loadReplay(Math.max(0, replayStep - 1));
      if (e.key === "ArrowRight") loadReplay(Math.min(view.length, replayStep + 1));
    }
  });

  // a new fragment typed or pasted into this page's address: read it as a fresh page would
  window.addEventListener("hashchange", () => { if (location.hash.length > 1) location.reload(); });

  // the page around the board: language switch, zoom, alerts, chat
  // the page's static text (game.html), listed here so that Babel extracts it
  const PAGE_TEXT = [t("Loading…"), t("Board"), t("Zoom"), t("Zoom out"), t("Zoom in"),
                     t("Fit"), t("You are watching this game"), t("Your move"), t("Hint"),
                     t("Players"), t("Moves"), t("Move log")];

  function setUpPage() {
    if (PAGE_TEXT.length) T.translatePage(document);
    $("language").append(T.languageSwitch());
    $("zoom-out").addEventListener("click", () => zoomBy(-1));
    $("zoom-in").addEventListener("click", () => zoomBy(1));
    $("zoom-fit").addEventListener("click", () => setZoom("fit"));
    setUpPinch();
    drawAlerts();
    if (window.TlatelolcoChat) {
      window.TlatelolcoChat.mount($("chat"), {gameId, replay: replayMode, lang: T.lang,
                                             send: (message) => send(message)});
    }
    if (window.TlatelolcoReview) {
      window.TlatelolcoReview.mount($("review"), {gameId, replay: replayMode,
                                                 api: (method, url) => api(method, url),
                                                 goTo: (step, then) => loadReplay(step, then)});
    }
  }

  // games this browser watches without a seat, for the lobby's "Spectating" badge
  function rememberWatching() {
    if (!view || view.viewer !== null || replayMode) return;
    let watched = {};
    try { watched = JSON.parse(localStorage.getItem("tlatelolco:watched") || "{}") || {}; }
    catch (err) { watched = {}; }
    watched[gameId] = {game: view.game, title: view.title, at: Date.now()};
    const ids = Object.keys(watched).sort((a, b) => watched[b].at - watched[a].at).slice(0, 20);
    const kept = {};
    for (const id of ids) kept[id] = watched[id];
    try { localStorage.setItem("tlatelolco:watched", JSON.stringify(kept)); } catch (err) { /* */ }
  }

  async function start() {
    await T.loadLanguage();
    setUpPage();
    if (!replayMode) { connect(); return; }
    for (;;) {
      try {
        const v = await api("GET", `/api/games/${gameId}/view`);
        if (token) S.touch(gameId, token, v.viewer, v.game);
        gameOver = v.status === "finished";
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
                          get socket() { return socket; }, get sending() { return sending; },
                          get scale() { return scale; }, get zoom() { return zoom; },
                          get history() { return historyView; }};
})();
