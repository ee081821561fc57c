// The lobby: create a game (game, options, seats), share invite links, join, watch, replay.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let catalog = [];

  const escape = (t) => String(t).replace(/[&<>"']/g, (c) => (
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));

  async function api(method, url, body) {
    const response = await fetch(url, {method, headers: {"Content-Type": "application/json"},
                                        body: body === undefined ? undefined : JSON.stringify(body)});
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.message || `HTTP ${response.status}`);
    return data;
  }

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
    } catch (err) { showError(err.message); }
  }

  function showCreated(game) {
    const box = $("created");
    let html = `<h3>Game ${escape(game.id)} created</h3>`;
    for (const seat of game.seats) {
      if (seat.url) html += `<p>Seat ${seat.seat} (you): <a class="button" href="${escape(seat.url)}">Play</a></p>`;
      if (seat.invite_url) html += `<label>Invite link for seat ${seat.seat} (send it to a friend)<input readonly value="${escape(seat.invite_url)}" onclick="this.select()"></label>`;
    }
    html += `<label>Spectator link<input readonly value="${escape(game.spectator_url)}" onclick="this.select()"></label>`;
    if (/^(localhost|127\.|\[::1\])/.test(location.host)) {
      html += "<p class=\"note\">These links use this page's address, which only this machine " +
        "can open. For friends on other machines, start the server with <code>--host 0.0.0.0</code> " +
        "and open the lobby with an address they can reach.</p>";
    }
    box.innerHTML = html;
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
          const title = (catalog.find((c) => c.name === g.game) || {title: g.game}).title;
          let act = `<a href="/games/${g.id}">watch</a>`;
          if (status === "open") act = `<button type="button" data-join="${g.id}">join</button> ` + act;
          if (status === "finished") act = `<a href="/games/${g.id}/replay">replay</a>`;
          return `<tr><td>${escape(title)}</td><td>${seatsText(g)}</td><td>${g.version}</td><td>${act}</td></tr>`;
        });
        box.innerHTML = `<table><thead><tr><th>game</th><th>seats</th><th>moves</th><th></th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
      } catch (err) { showError(err.message); }
    }
    document.querySelectorAll("[data-join]").forEach((b) => b.addEventListener("click", async () => {
      const name = prompt("Your name?", $("name").value || "") || null;
      try {
        const r = await api("POST", `/api/games/${b.dataset.join}/join`, {name});
        location.href = r.url;
      } catch (err) { showError(err.message); }
    }));
  }

  async function start() {
    catalog = await api("GET", "/api/catalog");
    $("game").replaceChildren(...catalog.map((g) => new Option(g.title, g.name)));
    $("game").addEventListener("change", fillGame);
    $("players").addEventListener("change", fillSeats);
    $("create").addEventListener("submit", create);
    fillGame();
    refresh();
    setInterval(refresh, 10000);
  }
  start().catch((err) => showError(err.message));
})();
