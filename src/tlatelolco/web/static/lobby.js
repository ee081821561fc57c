// The lobby: create a game (game, options, seats), share invite links, join, watch, replay,
// and get back to the games this browser holds a seat in (their credentials: seats.js).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const S = window.TlatelolcoSeats;
  let catalog = [];

  const escape = (t) => String(t).replace(/[&<>"']/g, (c) => (
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));

  // `auth`: a seat credential to send; errors carry .status and .code
  async function api(method, url, body, auth) {
    const headers = {"Content-Type": "application/json"};
    if (auth) headers.Authorization = `Bearer ${auth}`;
    const response = await fetch(url, {method, headers,
                                        body: body === undefined ? undefined : JSON.stringify(body)});
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const err = new Error(data.message || `HTTP ${response.status}`);
      err.status = response.status;
      err.code = data.error;
      throw err;
    }
    return data;
  }

  const gamePath = (id) => `/games/${encodeURIComponent(id)}`;
  const titleOf = (name) => (catalog.find((c) => c.name === name) || {title: name}).title;

  function showError(message) {
    $("error").textContent = message; $("error").hidden = false;
    setTimeout(() => { $("error").hidden = true; }, 8000);
  }

  function info() { return catalog.find((g) => g.name === $("game").value); }

  function fillGame() {
    const g = info();
    const [lo, hi] = g.players;
    const count = $("players");
    const def = (g.options.num_players || {}).default;
    count.replaceChildren(...Array.from({length: hi - lo + 1}, (_, i) => {
      const o = new Option(String(lo + i), String(lo + i));
      o.selected = lo + i === def; return o;
    }));
    const box = $("options");
    box.replaceChildren();
    for (const [name, spec] of Object.entries(g.options)) {
      if (name === "num_players") continue;
      const label = document.createElement("label");
      label.textContent = `${name.replace(/_/g, " ")} `;
      const input = document.createElement("input");
      input.dataset.option = name;
      input.value = spec.default === null ? "" : String(spec.default);
      input.title = `${spec.help || ""} (allowed: ${spec.allowed})`;
      label.append(input);
      box.append(label);
    }
    fillSeats();
  }

  function fillSeats() {
    const g = info();
    const n = Number($("players").value);
    const box = $("seats");
    box.querySelectorAll("label").forEach((l) => l.remove());
    for (let s = 0; s < n; s++) {
      const label = document.createElement("label");
      label.textContent = `Seat ${s} `;
      const select = document.createElement("select");
      select.dataset.seat = s;
      const choices = [["taken", "you"], ["open", "open (invite link)"],
                       ...g.bots.map((b) => [`bot:${b}`, `bot: ${b}`])];
      for (const [value, text] of choices) select.append(new Option(text, value));
      select.value = s === 0 ? "taken" : (g.bots.includes("greedy") ? "bot:greedy" : "bot:random");
      label.append(select);
      box.append(label);
    }
  }

  function optionValue(text) {
    if (text === "") return null;
    if (/^-?\d+$/.test(text)) return Number(text);
    if (text === "true" || text === "false") return text === "true";
    return text;
  }

  async function create(event) {
    event.preventDefault();
    const options = {num_players: Number($("players").value)};
    document.querySelectorAll("[data-option]").forEach((i) => {
      const v = optionValue(i.value.trim());
      if (v !== null) options[i.dataset.option] = v;
    });
    const seats = [...document.querySelectorAll("[data-seat]")].map((s) => s.value);
    try {
      const game = await api("POST", "/api/games", {
        game: $("game").value, options, seats, name: $("name").value.trim() || null,
        listed: $("listed").checked});
      showCreated(game);
      refresh();
      refreshMine().catch(() => {});
    } catch (err) { showError(err.message); }
  }

  function showCreated(game) {
    // the seats taken here: their credentials stay in this browser, the links carry none
    const mine = game.seats.filter((seat) => seat.kind === "human" && seat.token);
    const tokens = {};
    for (const seat of mine) tokens[seat.seat] = seat.token;
    if (mine.length) S.putMany(game.id, tokens, game.game);
    const box = $("created");
    box.replaceChildren();
    const h = document.createElement("h3");
    h.textContent = `Game ${game.id} created`;
    box.append(h);
    mine.forEach((seat, i) => {
      const p = document.createElement("p");
      p.textContent = `Seat ${seat.seat} (you): `;
      const a = document.createElement("a");
      a.className = "button";
      // the first seat is the default one; another seat held here is picked with #seat=
      a.href = gamePath(game.id) + (i === 0 ? "" : `#seat=${seat.seat}`);
      a.textContent = mine.length > 1 ? `Play seat ${seat.seat}` : "Play";
      p.append(a);
      box.append(p);
    });
    for (const seat of game.seats) {
      if (seat.invite_url) {
        box.append(copyBox(seat.invite_url,
                           `Invite link for seat ${seat.seat} (send it to a friend; it works once)`));
      }
    }
    box.append(copyBox(game.spectator_url, "Spectator link"));
    if (/^(localhost|127\.|\[::1\])/.test(location.host)) {
      const p = document.createElement("p");
      p.className = "note";
      p.innerHTML = "These links use this page's address, which only this machine " +
        "can open. For friends on other machines, start the server with <code>--host 0.0.0.0</code> " +
        "and open the lobby with an address they can reach.";
      box.append(p);
    }
  }

  // a labelled read-only field holding a link, and a button that copies it
  function copyBox(text, labelText) {
    const label = document.createElement("label");
    label.className = "copy-box";
    label.append(document.createTextNode(labelText));
    const row = document.createElement("span");
    row.className = "copy-row";
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = text;
    input.addEventListener("focus", () => input.select());
    input.addEventListener("click", () => input.select());
    const b = document.createElement("button");
    b.type = "button";
    b.className = "secondary small";
    b.textContent = "Copy";
    b.addEventListener("click", (event) => { event.preventDefault(); window.Tlatelolco.copy(input, b); });
    row.append(input, b);
    label.append(row);
    return label;
  }

  function seatsText(g) {
    return g.seats.map((s) => s.kind === "open" ? "<em>open</em>" : escape(s.name)).join(", ");
  }

  async function refresh() {
    for (const status of ["open", "running", "finished"]) {
      try {
        const games = await api("GET", `/api/games?status=${status}&limit=20`);
        const box = $(`${status}-games`);
        if (!games.length) { box.innerHTML = "<p class=\"note\">none</p>"; continue; }
        const rows = games.map((g) => {
          const title = titleOf(g.game);
          const held = S.get(g.id) !== null;
          let act = `<a href="${gamePath(g.id)}">${held ? "resume" : "watch"}</a>`;
          if (status === "open") act = `<button type="button" data-join="${escape(g.id)}">join</button> ` + act;
          if (status === "finished") act = `<a href="${gamePath(g.id)}/replay">replay</a>`;
          return `<tr><td>${escape(title)}</td><td>${seatsText(g)}</td><td>${g.version}</td><td>${act}</td></tr>`;
        });
        box.innerHTML = `<table><thead><tr><th>game</th><th>seats</th><th>moves</th><th></th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
      } catch (err) { showError(err.message); }
    }
  }

  // an open seat of a listed game: the credential this browser holds there (if any) goes
  // along, so that the server can refuse a second seat in a game with hidden information
  async function join(b) {
    const id = b.dataset.join;
    const name = prompt("Your name?", $("name").value || "");
    if (name === null) return;  // cancelled
    b.disabled = true;
    try {
      const r = await api("POST", `/api/games/${encodeURIComponent(id)}/join`,
                          {name: name.trim() || null}, S.tokenFor(id, null));
      S.put(id, r.token, r.seat, null);
      location.assign(gamePath(id));
    } catch (err) { showError(err.message); b.disabled = false; }
  }

  // --- your games: the ones this browser holds a seat in --------------------------------------
  async function refreshMine() {
    const ids = S.ids();
    const found = [];
    for (let i = 0; i < ids.length; i += 20) {  // at most 20 requests at a time
      const batch = ids.slice(i, i + 20);
      const answers = await Promise.all(batch.map((id) =>
        api("GET", `/api/games/${encodeURIComponent(id)}`).then((g) => ({id, g}),
                                                               (err) => ({id, err}))));
      for (const {id, g, err} of answers) {
        if (err && err.status === 404) { S.drop(id); continue; }  // the game is gone
        found.push({id, g, err});
      }
    }
    drawMine(found);
  }

  function drawMine(found) {
    const section = $("mine");
    const box = $("my-games");
    section.hidden = !found.length;
    box.replaceChildren();
    if (!found.length) return;
    const table = document.createElement("table");
    table.innerHTML = "<thead><tr><th>game</th><th>seats</th><th>status</th><th>moves</th>" +
      "<th></th></tr></thead>";
    const body = document.createElement("tbody");
    for (const {id, g, err} of found) {
      const tr = document.createElement("tr");
      tr.dataset.game = id;
      const entry = S.get(id) || {};
      const held = S.seatsOf(entry);
      const cells = [document.createElement("td"), document.createElement("td"),
                     document.createElement("td"), document.createElement("td"),
                     document.createElement("td")];
      cells[0].textContent = titleOf(g ? g.game : entry.game || "?");
      if (g) {
        cells[1].innerHTML = g.seats.map((s) => {
          const text = s.kind === "open" ? "<em>open</em>" : escape(s.name);
          return held[String(s.seat)] ? `<strong>${text} (you)</strong>` : text;
        }).join(", ");
        cells[2].textContent = g.status;
        cells[3].textContent = String(g.version);
      } else {
        cells[2].textContent = "unavailable";
        cells[2].title = err.message;
      }
      const finished = g && g.status === "finished";
      const a = document.createElement("a");
      a.className = "button";
      a.href = gamePath(id) + (finished ? "/replay" : "");
      a.textContent = finished ? "Replay" : "Resume";
      cells[4].append(a);
      if (finished) {
        const forget = document.createElement("button");
        forget.type = "button";
        forget.className = "secondary";
        forget.textContent = "forget";
        forget.setAttribute("aria-label", `Forget ${cells[0].textContent} ${id}`);
        forget.addEventListener("click", () => { S.drop(id); tr.remove(); if (!body.children.length) section.hidden = true; });
        cells[4].append(forget);
      }
      tr.append(...cells);
      body.append(tr);
    }
    table.append(body);
    box.append(table);
  }

  async function start() {
    catalog = await api("GET", "/api/catalog");
    $("game").replaceChildren(...catalog.map((g) => new Option(g.title, g.name)));
    $("game").addEventListener("change", fillGame);
    $("players").addEventListener("change", fillSeats);
    $("create").addEventListener("submit", create);
    // one listener for every join button, present and future: a button drawn by a refresh
    // works at once (listeners added after all three lists loaded missed early clicks)
    $("open-games").addEventListener("click", (event) => {
      const b = event.target.closest("[data-join]");
      if (b && !b.disabled) join(b);
    });
    fillGame();
    refreshMine().catch((err) => showError(err.message));
    refresh();
    setInterval(refresh, 10000);
    setInterval(() => refreshMine().catch(() => {}), 30000);
  }
  start().catch((err) => showError(err.message));
})();
