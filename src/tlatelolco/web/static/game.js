// The game page: a live view over a WebSocket, picking moves by clicking the board, the log,
// the result, replays. Game-specific drawing lives in games/<game>.js (see shell.js).
"use strict";
(function () {
  const T = window.Tlatelolco;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  const gameId = parts[1];
  const replayMode = parts[2] === "replay";
  const hash = new URLSearchParams(location.hash.slice(1));
  let token = hash.get("token") || sessionStorage.getItem(`tlatelolco:${gameId}`) || null;
  if (token) sessionStorage.setItem(`tlatelolco:${gameId}`, token);

  let view = null;          // the latest view
  let log = [];             // the whole log, kept from deltas
  let path = [];            // the keys picked so far for the next move
  let socket = null;
  let retry = 0;
  let sending = false;
  let replayStep = null;
  let hint = null;          // the last hint asked for: {version, data} ({version} while thinking)

  function headers() {
    return token ? {"Authorization": `Bearer ${token}`, "Content-Type": "application/json"}
                 : {"Content-Type": "application/json"};
  }

  async function api(method, url, body) {
    const response = await fetch(url, {method, headers: headers(),
                                        body: body === undefined ? undefined : JSON.stringify(body)});
    const data = await response.json().catch(() => ({message: response.statusText}));
    if (!response.ok) throw new Error(data.message || `HTTP ${response.status}`);
    return data;
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
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}${query}`);
    $("connection").textContent = "connecting…";
    // a move sent on the old connection may be lost: the full view that opens every
    // connection says whether it was played, so the page may move again either way
    socket.onopen = () => { retry = 0; sending = false; $("connection").textContent = "live"; };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      $("connection").textContent = "reconnecting…";
      sending = false;
      if (event.code >= 4400 && event.code < 4500 && event.code !== 4409) {
        $("connection").textContent = "closed";
        return;  // a bad credential or unknown game: retrying cannot help
      }
      const delay = Math.min(5000, 300 * 2 ** retry++);
      setTimeout(connect, delay);
    };
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
    return JSON.stringify([v.status, v.to_move, v.legal.length, v.rematch_id, v.result,
                           v.players.map((p) => [p.kind, p.name])]);
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
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
      list.append(li);
    });
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
      const a = document.createElement("a");
      a.href = `/games/${view.rematch_id}` + (token ? `#token=${token}` : "");
      a.textContent = "Rematch ready: go to the new game";
      a.className = "button";
      a.addEventListener("click", () => setTimeout(() => location.reload(), 50));
      box.append(a);
    } else if (view.viewer !== null) {
      box.append(button("Rematch", async () => {
        try {
          const r = await api("POST", `/api/games/${gameId}/rematch`);
          location.href = `/games/${r.game_id}#token=${token}`;
          location.reload();
        } catch (err) { showError(err.message); }
      }));
    }
  }

  function drawClaim() {
    const box = $("claim");
    const me = view.viewer !== null ? view.players[view.viewer] : null;
    if (replayMode || !me || me.kind !== "open") { box.hidden = true; return; }
    if (!box.hidden) return;  // keep what the person is typing
    box.hidden = false;
    box.innerHTML = `<h2>Take your seat</h2><label>Your name <input id="claim-name" maxlength="40" value=""></label>`;
    box.append(button("Take the seat", async () => {
      try {
        await api("POST", `/api/games/${gameId}/claim`, {name: $("claim-name").value || null});
        box.hidden = true;
      } catch (err) { showError(err.message); }
    }));
  }

  function drawLinks() {
    const box = $("links");
    box.replaceChildren();
    const add = (href, text) => {
      const a = document.createElement("a"); a.href = href; a.textContent = text; box.append(a);
    };
    const suffix = token ? `#token=${token}` : "";
    if (replayMode) add(`/games/${gameId}${suffix}`, "Back to the game");
    else add(`/games/${gameId}/replay${suffix}`, "Replay move by move");
    if (view.status === "finished") add(`/api/games/${gameId}/record`, "Download the record");
    add(`/rules/${view.game}`, "Rules");
    add("/", "Lobby");
    if (!replayMode && view.viewer !== null && view.status !== "finished") {
      box.append(button("Leave the seat", async () => {
        if (!confirm("Give up your seat? Somebody else may take it.")) return;
        try { await api("POST", `/api/games/${gameId}/leave`); location.href = "/"; }
        catch (err) { showError(err.message); }
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

  window.addEventListener("hashchange", () => location.reload());

  if (replayMode) {
    api("GET", `/api/games/${gameId}/view`).then((v) => loadReplay(v.version))
      .catch((err) => showError(err.message));
  } else {
    connect();
  }
  // for tests and the curious: the current view, the whole log, the live connection
  window.TlatelolcoPage = {get view() { return view; }, get log() { return log; },
                          get socket() { return socket; }, get sending() { return sending; }};
})();
