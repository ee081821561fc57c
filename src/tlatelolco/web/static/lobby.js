// The lobby: create a game (game, options, seats with bots by level, live or turn-based), share
// invite links, join, watch, replay, filter the lists (kept in the address), and get back to
// the games this browser plays or watches. What it remembers stays in this browser: the
// player's name, the seat credentials (seats.js) and the games it only watches. With an
// account (account.js) it also shows the account's games, your turn first, its friends and
// their open tables, and invites a friend to an open seat by name.
"use strict";
(function () {
  const T = window.Tlatelolco;
  const el = T.el;
  const parseTime = (text) => T.parseTime(text);
  const api = T.api.bind(T);
  const S = window.TlatelolcoSeats;
  const A = window.TlatelolcoAccount || null;  // absent: the lobby works for guests alone
  const t = (m, p) => T.t(m, p);
  const tn = (s, p, n, q) => T.tn(s, p, n, q);
  const $ = (id) => document.getElementById(id);
  const NAME_KEY = "tlatelolco:name";  // the game page's claim form reads it too
  const WATCHED_KEY = "tlatelolco:watched";  // the game page adds the games it watches
  const HARD_TIME = 2;  // seconds a hard bot thinks a move
  const FILTERS = ["game", "players", "speed"];  // the lists' filters, as the API names them
  const PLAYER_COUNTS = [2, 3, 4, 5, 6, 7, 8];
  let catalog = [];
  let filters = {};  // filter name -> value, as in the address

  // The static text of lobby.html (its data-i18n attributes), written out here so that the
  // extractor finds it: Babel reads no HTML attributes.
  function pageText() {
    return {
      "Lobby": t("Lobby"),
      "New game": t("New game"),
      "Game": t("Game"),
      "Players": t("Players"),
      "Your name": t("Your name"),
      "Seats": t("Seats"),
      "Bots: Easy plays at random, Medium takes the best move it sees at once, Hard searches for about two seconds a move.":
        t("Bots: Easy plays at random, Medium takes the best move it sees at once, Hard searches for about two seconds a move."),
      "Show in the lobby lists": t("Show in the lobby lists"),
      "Spectators may chat (in their own channel)":
        t("Spectators may chat (in their own channel)"),
      "Create game": t("Create game"),
      "Your games": t("Your games"),
      "The games this browser holds a seat in or watches. A seat's key stays in this browser: the links carry none, so they are safe to share.":
        t("The games this browser holds a seat in or watches. A seat's key stays in this browser: the links carry none, so they are safe to share."),
      "Open games": t("Open games"),
      "Running games": t("Running games"),
      "Finished games": t("Finished games"),
      "Site": t("Site"),
      "Leaderboard": t("Leaderboard"),
      "Speed": t("Speed"),
      "Live": t("Live"),
      "Turn-based": t("Turn-based"),
      "Time per move": t("Time per move"),
      "5 minutes": t("5 minutes"),
      "1 hour": t("1 hour"),
      "12 hours": t("12 hours"),
      "1 day": t("1 day"),
      "3 days": t("3 days"),
      "On timeout": t("On timeout"),
      "A bot plays the turn": t("A bot plays the turn"),
      "Dropped after 3 timeouts": t("Dropped after 3 timeouts"),
      "Loses the game": t("Loses the game"),
      "Friends": t("Friends"),
      "Add a friend by name": t("Add a friend by name"),
      "Add friend": t("Add friend"),
      "Friends' open tables": t("Friends' open tables"),
      "Show only": t("Show only"),
      "All games": t("All games"),
      "Any number": t("Any number"),
      "Any speed": t("Any speed"),
    };
  }

  function translatePage() {
    T.translatePage(document);  // the messages: pageText(), for Babel
    document.title = t("Tlatelolco — lobby");
    $("name").placeholder = t("Player 1");
  }

  // --- what this browser remembers -------------------------------------------------------------
  function remembered(key) {
    try { return localStorage.getItem(key); } catch (err) { return null; }
  }

  function remember(key, value) {
    try { localStorage.setItem(key, value); } catch (err) { /* this page only */ }
  }

  function rememberName(name) {
    const clean = (name || "").trim();
    if (clean) remember(NAME_KEY, clean.slice(0, 40));
  }

  // The games watched without a seat. Accepted shapes (the game page writes them): a list of
  // ids or of {id, game, at}, or an object {id: {game, at}} or {id: at}; newest first.
  function watchedGames() {
    let data = null;
    try { data = JSON.parse(remembered(WATCHED_KEY) || "null"); } catch (err) { data = null; }
    let entries = [];
    if (Array.isArray(data)) {
      entries = data.map((e) => (typeof e === "string" ? {id: e} : e || {}));
    } else if (data && typeof data === "object") {
      entries = Object.entries(data).map(([id, e]) => (
        e && typeof e === "object" ? Object.assign({}, e, {id}) : {id, at: e}));
    }
    entries = entries.filter((e) => typeof e.id === "string" && /^[A-Za-z0-9_-]{1,16}$/.test(e.id));
    entries.sort((a, b) => (Number(b.at) || 0) - (Number(a.at) || 0));
    return entries.slice(0, 50);
  }

  function forgetWatched(id) {
    let data = null;
    try { data = JSON.parse(remembered(WATCHED_KEY) || "null"); } catch (err) { return; }
    if (Array.isArray(data)) {
      data = data.filter((e) => (typeof e === "string" ? e : e && e.id) !== id);
    } else if (data && typeof data === "object") {
      delete data[id];
    } else {
      return;
    }
    remember(WATCHED_KEY, JSON.stringify(data));
  }

  // a game this browser only watches: remembered as watched, no seat held
  const spectating = (id, watched) => S.get(id) === null && watched.has(id);

  // --- the server ------------------------------------------------------------------------------
  // (requests: T.api; errors carry .status and .code)

  const gamePath = (id) => "/games/" + encodeURIComponent(id);
  const infoOf = (name) => catalog.find((c) => c.name === name) || null;
  const titleOf = (name) => { const g = infoOf(name); return g ? t(g.title) : name; };
  const info = () => infoOf($("game").value);

  function showError(message) {
    $("error").textContent = message; $("error").hidden = false;
    setTimeout(() => { $("error").hidden = true; }, 8000);
  }

  // --- dates in the page's language ------------------------------------------------------------

  const UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400],
                 ["hour", 3600], ["minute", 60]];

  function ago(stamp) {
    const seconds = (stamp.getTime() - Date.now()) / 1000;
    const format = new Intl.RelativeTimeFormat(T.lang, {numeric: "auto"});
    for (const [unit, size] of UNITS) {
      if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
    }
    return format.format(0, "second");
  }

  function day(stamp) {
    return stamp.toLocaleDateString(T.lang, {year: "numeric", month: "short", day: "numeric"});
  }

  // a <time> saying when: relative ("5 minutes ago") or a date, the exact moment as its title
  function when(stamp, relative) {
    return el("time", {dateTime: stamp.toISOString(), title: stamp.toLocaleString(T.lang),
                       textContent: relative ? ago(stamp) : day(stamp)});
  }

  // --- the game picker and its options ---------------------------------------------------------
  function minutesText(g) {
    const [low, high] = g.minutes || [0, 0];
    if (!high) return "";
    if (low === high || !low) return t("about {n} min", {n: high});
    return t("{low}–{high} min", {low, high});
  }

  function fillPicker() {
    $("game").replaceChildren(...catalog.map((g) => {
      const length = minutesText(g);
      const text = length ? t("{game} ({length})", {game: t(g.title), length}) : t(g.title);
      return new Option(text, g.name);
    }));
  }

  function describeGame(g) {
    const [lo, hi] = g.players;
    const facts = [lo === hi ? tn("{n} player", "{n} players", lo)
      : t("{low} to {high} players", {low: lo, high: hi})];
    const length = minutesText(g);
    if (length) facts.push(length);
    const line = el("p", {className: "facts", textContent: facts.join(" · ")});
    $("about-game").replaceChildren(...(g.summary
      ? [el("p", {className: "summary", textContent: t(g.summary)}), line] : [line]));
  }

  // an option's name for players: its label, never its bare identifier or a rule id
  function optionLabel(name, spec) {
    if (spec.label && spec.label !== name) return t(spec.label);
    const words = name.replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  const choiceText = (value) => (
    value === true ? t("Yes") : value === false ? t("No") : t(String(value)));

  // the values offered for an option: its choices, else the only ones a server accepts
  function offered(spec) {
    if (Array.isArray(spec.choices)) return spec.choices;
    if (Array.isArray(spec.remote)) return spec.remote;
    return null;
  }

  // the input for one option; `read()` gives its value (undefined: leave it to the server)
  function optionInput(name, spec) {
    const id = "option-" + name;
    const values = offered(spec);
    let input;
    let read;
    if (typeof spec.default === "boolean") {
      input = el("input", {type: "checkbox", id, checked: spec.default});
      read = () => input.checked;
    } else if (values) {
      input = el("select", {id});
      values.forEach((v, i) => {
        input.append(new Option(choiceText(v), String(i), false, v === spec.default));
      });
      read = () => values[Number(input.value)];
    } else if (Number.isInteger(spec.minimum) || Number.isInteger(spec.maximum)) {
      input = el("input", {type: "number", id, step: 1, inputMode: "numeric"});
      if (Number.isInteger(spec.minimum)) input.min = spec.minimum;
      if (Number.isInteger(spec.maximum)) input.max = spec.maximum;
      if (spec.default !== null) input.value = String(spec.default);
      read = () => (input.value.trim() === "" ? undefined : Number(input.value));
    } else {
      input = el("input", {type: "text", id, maxLength: 64});
      if (spec.default !== null) input.value = String(spec.default);
      read = () => (input.value.trim() === "" ? undefined : input.value.trim());
    }
    input.dataset.option = name;
    return {input, read};
  }

  let readers = {};  // option name -> read()

  function fillOptions(g) {
    const box = $("options");
    box.replaceChildren();
    readers = {};
    for (const [name, spec] of Object.entries(g.options)) {
      if (name === "num_players") continue;
      const values = offered(spec);
      if (values && values.length === 1 && values[0] === spec.default) continue;  // no choice
      const {input, read} = optionInput(name, spec);
      readers[name] = read;
      const text = optionLabel(name, spec);
      const help = spec.about ? el("p", {className: "help", id: input.id + "-about",
                                         textContent: t(spec.about)}) : null;
      if (help) input.setAttribute("aria-describedby", help.id);
      const row = input.type === "checkbox"
        ? el("div", {className: "option"},
             el("label", {className: "check"}, input, el("span", {textContent: text})))
        : el("div", {className: "option"}, el("label", {htmlFor: input.id, textContent: text}),
             input);
      if (help) row.append(help);
      box.append(row);
    }
  }

  function fillGame() {
    const g = info();
    describeGame(g);
    const [lo, hi] = g.players;
    const spec = g.options.num_players || {};
    const count = $("players");
    count.replaceChildren(...Array.from({length: hi - lo + 1}, (_, i) => (
      new Option(String(lo + i), String(lo + i), false, lo + i === spec.default))));
    $("players-label").textContent = spec.label && spec.label !== "num_players"
      ? t(spec.label) : t("Players");
    $("players-about").textContent = spec.about ? t(spec.about) : "";
    $("players-about").hidden = !spec.about;
    fillOptions(g);
    fillSeats();
  }

  // --- seats: you, an invite link, or a bot by level -------------------------------------------
  // the search bot of a game: ISMCTS where seats hide things, else MCTS (as the server's hints)
  function searchBot(g) {
    const searchers = g.bots.filter((b) => b === "mcts" || b === "ismcts");
    const wanted = g.information === "imperfect" ? "ismcts" : "mcts";
    return searchers.includes(wanted) ? wanted : searchers[0] || null;
  }

  // [seat choice value, text]: Easy, Medium, Hard for the bots this game has
  function botLevels(g) {
    const levels = [];
    if (g.bots.includes("random")) levels.push(["bot:random", t("Bot: Easy")]);
    if (g.bots.includes("greedy")) levels.push(["bot:greedy", t("Bot: Medium")]);
    const search = searchBot(g);
    if (search) levels.push(["bot:" + search + ":time=" + HARD_TIME, t("Bot: Hard")]);
    return levels;
  }

  function fillSeats() {
    const g = info();
    const n = Number($("players").value);
    const box = $("seats");
    box.querySelectorAll(".seat").forEach((row) => row.remove());
    const levels = botLevels(g);
    const usual = levels.find(([v]) => v === "bot:greedy") || levels[0];
    const search = searchBot(g);
    const list = el("datalist", {id: "bot-specs"},
                    ...g.bots.map((b) => new Option(b === search ? b + ":time=5" : b)));
    for (let s = 0; s < n; s++) {
      const select = el("select", {id: "seat-" + s});
      select.dataset.seat = s;
      const choices = [["taken", t("You")], ["open", t("Open: an invite link")], ...levels,
                       ["advanced", t("Bot: advanced (a spec)…")]];
      for (const [value, text] of choices) select.append(new Option(text, value));
      select.value = s === 0 || !usual ? "taken" : usual[0];
      const spec = el("input", {type: "text", className: "bot-spec", maxLength: 60,
                                hidden: true, value: search ? search + ":time=5" : g.bots[0],
                                placeholder: "mcts:time=5"});
      spec.dataset.seatSpec = s;
      spec.setAttribute("list", "bot-specs");
      spec.setAttribute("aria-label", t("Bot for seat {n}, e.g. {example}",
                                        {n: s + 1, example: "ismcts:iterations=2000"}));
      select.addEventListener("change", () => { spec.hidden = select.value !== "advanced"; });
      box.append(el("div", {className: "seat"},
                    el("label", {htmlFor: select.id, textContent: t("Seat {n}", {n: s + 1})}),
                    select, spec));
    }
    box.querySelector("datalist")?.remove();
    box.append(list);
  }

  function seatChoices() {
    return [...document.querySelectorAll("[data-seat]")].map((select) => {
      if (select.value !== "advanced") return select.value;
      const spec = document.querySelector(`[data-seat-spec="${select.dataset.seat}"]`);
      const text = spec.value.trim().replace(/^bot:/, "");
      if (!text) {
        spec.focus();
        throw new Error(t("Write a bot for seat {n}, e.g. {example}.",
                          {n: Number(select.dataset.seat) + 1, example: "greedy"}));
      }
      return "bot:" + text;
    });
  }

  // --- creating a game ---------------------------------------------------------------------------
  // A game with a seat of the creator's opens at once, as that seat (the game page offers
  // invites for its open seats); one without shows its invite and spectator links here.
  async function create(event) {
    event.preventDefault();
    const options = {num_players: Number($("players").value)};
    for (const [name, read] of Object.entries(readers)) {
      const value = read();
      if (value !== undefined) options[name] = value;
    }
    const name = $("name").value.trim();
    rememberName(name);
    try {
      const body = {game: $("game").value, options, seats: seatChoices(), name: name || null,
                    listed: $("listed").checked, spectator_chat: $("spectator-chat").checked};
      if ($("speed").value === "turn") {  // a live game sends none: the server's default
        Object.assign(body, {speed: "turn", move_time: Number($("move-time").value),
                             on_timeout: $("on-timeout").value});
      }
      const game = await api("POST", "/api/games", body);
      if (keepSeats(game).length) { location.assign(gamePath(game.id)); return; }
      showCreated(game);
      refresh();
      refreshMine().catch(() => {});
      if (A) A.refresh();
    } catch (err) { showError(err.message); }
  }

  // --- speed: live, or turn-based with a time per move and what a timeout brings ----------------
  function speedText() {
    const turn = $("speed").value === "turn";
    $("turn-options").hidden = !turn;
    $("speed-about").textContent = turn
      ? t("Each player moves when they have time: a game can run over days. Players with an " +
          "account are reminded when it is their turn.")
      : t("Everyone plays at once, as at a table.");
    const about = {
      bot: t("When a player's time runs out, a bot plays that turn for them; they play on " +
             "afterwards."),
      drop: t("A bot plays each turn that runs out; after the third, the bot takes the seat " +
              "for good and the player counts as having left."),
      lose: t("The first turn that runs out loses the game for that player; a bot plays " +
              "their seat on."),
    };
    $("on-timeout-about").textContent = about[$("on-timeout").value] || "";
  }

  // a time per move in words: "5 minutes", "1 day" (under two minutes, in seconds)
  function duration(seconds) {
    if (seconds < 120 && seconds % 60 !== 0) return tn("{n} second", "{n} seconds", seconds);
    if (seconds >= 86400 && seconds % 86400 === 0) {
      return tn("{n} day", "{n} days", seconds / 86400);
    }
    if (seconds >= 3600 && seconds % 3600 === 0) return tn("{n} hour", "{n} hours", seconds / 3600);
    return tn("{n} minute", "{n} minutes", Math.max(1, Math.round(seconds / 60)));
  }

  // the seats taken here: their credentials stay in this browser, the links carry none
  function keepSeats(game) {
    const mine = game.seats.filter((seat) => seat.kind === "human" && seat.token);
    const tokens = {};
    for (const seat of mine) tokens[seat.seat] = seat.token;
    if (mine.length) S.putMany(game.id, tokens, game.game);
    return mine;
  }

  function showCreated(game) {
    const mine = keepSeats(game);
    const box = $("created");
    box.replaceChildren(el("h3", {textContent: t("Game {id} created", {id: game.id})}));
    mine.forEach((seat, i) => {
      // the first seat is the default one; another seat held here is picked with #seat=
      const a = el("a", {className: "button",
                         href: gamePath(game.id) + (i === 0 ? "" : "#seat=" + seat.seat),
                         textContent: mine.length > 1 ? t("Play seat {n}", {n: seat.seat + 1})
                           : t("Play")});
      box.append(el("p", {textContent: t("Seat {n} (you):", {n: seat.seat + 1}) + " "}, a));
    });
    for (const seat of game.seats) {
      if (seat.invite_url) {
        box.append(copyBox(seat.invite_url, t("Invite link for seat {n} (send it to a friend; " +
                                              "it works once)", {n: seat.seat + 1})));
      }
    }
    box.append(copyBox(game.spectator_url, t("Spectator link")));
    if (/^(localhost|127\.|\[::1\])/.test(location.host)) {
      const [before, after] = t("These links use this page's address, which only this " +
        "machine can open. For friends on other machines, start the server with {option} and " +
        "open the lobby with an address they can reach.").split("{option}");
      box.append(el("p", {className: "note"}, before,
                    el("code", {textContent: "--host 0.0.0.0"}), after || ""));
    }
  }

  // a labelled read-only field holding a link, and a button that copies it
  function copyBox(text, labelText) {
    const input = el("input", {readOnly: true, value: text});
    input.addEventListener("focus", () => input.select());
    input.addEventListener("click", () => input.select());
    const b = el("button", {type: "button", className: "secondary small",
                            textContent: t("Copy")});
    b.addEventListener("click", (event) => { event.preventDefault(); T.copy(input, b); });
    return el("label", {className: "copy-box"}, labelText,
              el("span", {className: "copy-row"}, input, b));
  }

  // --- the lists ---------------------------------------------------------------------------------
  // a bot's name by the level it is offered at (the game page names it so: views.seat_names)
  function botName(spec) {
    const name = String(spec || "random").split(":")[0];
    if (name === "random") return t("Easy bot");
    if (name === "greedy") return t("Medium bot");
    if (name === "mcts" || name === "ismcts") return t("Hard bot");
    return null;
  }

  // each seat's name in this page's language: a bot by level ("Medium bot 1", "Medium bot 2"
  // when two share one), an open seat by its number from 1, a person by their own name
  function seatNames(seats) {
    const levels = seats.map((s) => (s.kind === "bot" ? botName(s.bot) : null));
    const shared = {}, seen = {};
    for (const level of levels) if (level) shared[level] = (shared[level] || 0) + 1;
    return seats.map((s, i) => {
      const level = levels[i];
      if (level) {
        seen[level] = (seen[level] || 0) + 1;
        return shared[level] > 1 ? `${level} ${seen[level]}` : level;
      }
      return s.kind === "open" ? t("Open seat {n}", {n: s.seat + 1}) : s.name;
    });
  }

  // the players, open seats in italics, the ones `held` here ({seat: token}) in bold
  function seatsCell(g, held) {
    const cell = el("td", {className: "seats"});
    const names = seatNames(g.seats);
    g.seats.forEach((s, i) => {
      if (i) cell.append(", ");
      const name = s.kind === "open" ? t("open") : names[i];
      if (held && held[String(s.seat)]) {
        cell.append(el("strong", {textContent: t("{name} (you)", {name})}));
      } else {
        cell.append(s.kind === "open" ? el("em", {textContent: name}) : name);
      }
    });
    return cell;
  }

  // the winners of a finished game: the seats with the best result, named as in the list
  // (the listing's `winners` are the stored names, in no reader's language)
  function winnersOf(g) {
    const returns = (g.result && g.result.returns) || [];
    if (!returns.length) return Array.isArray(g.winners) ? g.winners : [];
    const best = Math.max(...returns);
    const names = seatNames(g.seats);
    return g.seats.filter((s) => returns[s.seat] >= best - 1e-9).map((s) => names[s.seat]);
  }

  // `text` with its {when} filled by a <time> element
  function withTime(text, stamp, relative) {
    const [before, after] = text.split("{when}");
    return [before, when(stamp, relative), after || ""];
  }

  // what a game's row says of it: who won and when, how long it has run, or how it waits
  function details(g) {
    const lines = [];
    const clock = g.clock && g.clock.speed === "turn" ? g.clock : null;
    if (clock && Number.isInteger(clock.move_time)) {
      lines.push([t("turn-based, {time} a move", {time: duration(clock.move_time)})]);
    }
    if (g.status === "finished") {
      const names = winnersOf(g);
      if (names.length > 1 && names.length === g.seats.length) lines.push([t("Draw")]);
      else if (names.length) {
        lines.push([tn("Winner: {names}", "Winners: {names}", names.length,
                       {names: names.join(", ")})]);
      }
      const stamp = parseTime(g.finished_at || g.updated_at);
      if (stamp) lines.push(withTime(t("finished {when}"), stamp, false));
    } else if (g.status === "running") {
      const stamp = parseTime(g.started_at || g.created_at);
      if (stamp) lines.push(withTime(t("started {when}"), stamp, true));
      lines.push([tn("{n} move", "{n} moves", g.version)]);
    } else {
      const free = g.seats.filter((s) => s.kind === "open").length;
      lines.push([tn("{n} seat free", "{n} seats free", free)]);
      const stamp = parseTime(g.created_at);
      if (stamp) lines.push(withTime(t("created {when}"), stamp, true));
    }
    return lines.map((line) => el("span", {className: "line"}, ...line));
  }

  function statusText(status) {
    const names = {open: t("waiting for players"), running: t("in play")};
    return names[status] || status;
  }

  function titleCell(game, watchedOnly) {
    return el("td", {className: "title"}, titleOf(game),
              watchedOnly ? el("span", {className: "badge spectating", textContent:
                                        t("Spectating")}) : null);
  }

  function headRow(...names) {
    return el("thead", {}, el("tr", {}, ...names.map((n) => el("th", {textContent: n}))));
  }

  // the account's seat in a game, if it holds one (from its games, unfinished ones only)
  function accountSeat(id) {
    const found = A && A.user ? A.games.find((g) => g.id === id) : null;
    return found && Number.isInteger(found.my_seat) ? found.my_seat : null;
  }

  function listTable(status, games, watched) {
    const body = el("tbody");
    for (const g of games) {
      const mine = accountSeat(g.id);
      const held = S.get(g.id) !== null || mine !== null;
      const seats = S.get(g.id) !== null ? S.seatsOf(S.get(g.id))
        : mine !== null ? {[mine]: true} : null;
      const act = el("td", {className: "actions"});
      if (status === "open" && mine === null) {
        const b = el("button", {type: "button", textContent: t("Join")});
        b.dataset.join = g.id;
        act.append(b);
      }
      if (status === "finished") {
        act.append(el("a", {className: "button secondary", href: gamePath(g.id) + "/replay",
                            textContent: t("Replay")}));
      } else {
        act.append(el("a", {className: "button secondary", href: gamePath(g.id),
                            textContent: held ? t("Resume") : t("Watch")}));
      }
      const tr = el("tr", {}, titleCell(g.game, spectating(g.id, watched)),
                    seatsCell(g, seats), el("td", {className: "details"}, ...details(g)), act);
      tr.dataset.game = g.id;
      body.append(tr);
    }
    return el("table", {}, headRow(t("Game"), t("Players"), t("Details"), ""), body);
  }

  let refreshing = 0;  // the latest refresh: an older one's answers are not drawn

  async function refresh() {
    const run = ++refreshing;
    const watched = new Set(watchedGames().map((e) => e.id));
    const query = filterQuery();
    const none = query ? t("No game fits these filters.") : t("None right now.");
    for (const status of ["open", "running", "finished"]) {
      try {
        const games = await api("GET", `/api/games?status=${status}&limit=20${query}`);
        if (run !== refreshing) return;
        const box = $(`${status}-games`);
        box.replaceChildren(games.length ? listTable(status, games, watched)
          : el("p", {className: "note", textContent: none}));
      } catch (err) { showError(err.message); }
    }
  }

  // --- filters: which games the lists show, kept in the address (?game=&players=&speed=) -------
  function fillFilters() {
    $("filter-game").append(...catalog.map((g) => new Option(t(g.title), g.name)));
    $("filter-players").append(...PLAYER_COUNTS.map((n) => new Option(String(n), String(n))));
    readFilters();
    for (const name of FILTERS) {
      $("filter-" + name).addEventListener("change", () => {
        filters = {};
        for (const n of FILTERS) if ($("filter-" + n).value) filters[n] = $("filter-" + n).value;
        keepFilters();
        refresh();
      });
    }
  }

  // the filters of the address; one the lobby does not offer is dropped from it
  function readFilters() {
    const query = new URLSearchParams(location.search);
    filters = {};
    for (const name of FILTERS) {
      const value = query.get(name);
      const select = $("filter-" + name);
      if (value && [...select.options].some((o) => o.value === value)) filters[name] = value;
      select.value = filters[name] || "";
    }
    keepFilters();
  }

  function keepFilters() {
    const query = new URLSearchParams(location.search);
    for (const name of FILTERS) {
      if (filters[name]) query.set(name, filters[name]); else query.delete(name);
    }
    const search = query.toString();
    const address = location.pathname + (search ? "?" + search : "") + location.hash;
    if (address !== location.pathname + location.search + location.hash) {
      history.replaceState(null, "", address);
    }
  }

  const filterQuery = () => FILTERS.filter((n) => filters[n])
    .map((n) => `&${n}=${encodeURIComponent(filters[n])}`).join("");

  // an open seat of a listed game: the credential this browser holds there (if any) goes
  // along, so that the server can refuse a second seat in a game with hidden information
  async function join(b) {
    const id = b.dataset.join;
    const account = A && A.user;  // an account plays under its own name
    const name = account ? ""
      : prompt(t("Your name?"), $("name").value || remembered(NAME_KEY) || "");
    if (name === null) return;  // cancelled
    if (!account) rememberName(name);
    b.disabled = true;
    try {
      const r = await api("POST", `/api/games/${encodeURIComponent(id)}/join`,
                          {name: name.trim() || null}, S.tokenFor(id, null));
      S.put(id, r.token, r.seat, null);
      location.assign(gamePath(id));
    } catch (err) { showError(err.message); b.disabled = false; }
  }

  // --- your games: the ones this browser holds a seat in or watches ----------------------------
  async function refreshMine() {
    const shown = new Set(A && A.user ? A.games.map((g) => g.id) : []);  // as the account's
    const held = S.ids().filter((id) => !shown.has(id));
    const watched = watchedGames().filter((e) => !held.includes(e.id) && !shown.has(e.id));
    const ids = [...held, ...watched.map((e) => e.id)];
    const found = [];
    for (let i = 0; i < ids.length; i += 20) {  // at most 20 requests at a time
      const batch = ids.slice(i, i + 20);
      const answers = await Promise.all(batch.map((id) =>
        api("GET", `/api/games/${encodeURIComponent(id)}`).then((g) => ({id, g}),
                                                               (err) => ({id, err}))));
      for (const {id, g, err} of answers) {
        if (err && err.status === 404) { S.drop(id); forgetWatched(id); continue; }  // gone
        found.push({id, g, err, watching: !held.includes(id)});
      }
    }
    drawMine(found, watched);
  }

  // "Your games": the account's (account-games) and this browser's (my-games); shown when
  // either has some, or for an account
  function showMine() {
    const here = $("my-games").children.length > 0;
    $("mine-note").hidden = !here;
    $("mine").hidden = !here && !(A && A.user);
  }

  function drawMine(found, watched) {
    const box = $("my-games");
    box.replaceChildren();
    showMine();
    if (!found.length) return;
    const body = el("tbody");
    for (const {id, g, err, watching} of found) {
      const entry = watching ? (watched.find((e) => e.id === id) || {}) : (S.get(id) || {});
      const title = titleCell(g ? g.game : entry.game || "?", watching);
      const status = el("td", {className: "details"});
      let seats = el("td");
      if (g) {
        seats = seatsCell(g, watching ? null : S.seatsOf(entry));
        if (g.status !== "finished") {  // a finished game's details say so, with the date
          status.append(el("span", {className: "line status", textContent: statusText(g.status)}));
        }
        status.append(...details(g));
      } else {
        status.textContent = t("unavailable");
        status.title = err.message;
      }
      const finished = g && g.status === "finished";
      const act = el("td", {className: "actions"},
                     el("a", {className: "button", href: gamePath(id) + (finished ? "/replay" : ""),
                              textContent: finished ? t("Replay")
                                : watching ? t("Watch") : t("Resume")}));
      if (g && !watching) inviteButton(act, g, S.tokenFor(id, null));
      const tr = el("tr", {}, title, seats, status, act);
      tr.dataset.game = id;
      if (finished || watching) {
        const forget = el("button", {type: "button", className: "secondary",
                                     textContent: t("forget")});
        forget.setAttribute("aria-label", t("Forget {game} {id}",
                                            {game: title.firstChild.textContent, id}));
        forget.addEventListener("click", () => {
          if (watching) forgetWatched(id); else S.drop(id);
          tr.remove();
          if (!body.children.length) { box.replaceChildren(); showMine(); }
        });
        act.append(forget);
      }
      body.append(tr);
    }
    box.append(el("table", {}, headRow(t("Game"), t("Players"), t("Status"), ""), body));
    showMine();
  }

  // --- an account: its games (your turn first), its name on new seats, friends, invites ----------
  function onAccount() {
    const user = A && A.user;
    $("name").hidden = Boolean(user);
    $("name-label").hidden = Boolean(user);
    $("playing-as").hidden = !user;
    $("playing-as").textContent = user ? t("You play as {name}.", {name: user.name}) : "";
    drawAccountGames(user ? A.games : null);
    refreshMine().catch(() => {});
    refreshFriends();
    refresh();  // the lists mark the account's seats
  }

  function drawAccountGames(games) {
    const box = $("account-games");
    if (!games) { box.replaceChildren(); showMine(); return; }
    if (!games.length) {
      box.replaceChildren(el("p", {className: "note", textContent:
        t("Your account has no unfinished game: create one, or join a table.")}));
      showMine();
      return;
    }
    const body = el("tbody");
    const mine = games.filter((g) => g.your_turn).concat(games.filter((g) => !g.your_turn));
    for (const g of mine) {
      const title = titleCell(g.game, false);
      if (g.your_turn) {
        title.append(el("span", {className: "badge your-turn", textContent: t("Your turn")}));
      }
      const status = el("td", {className: "details"},
                        el("span", {className: "line status", textContent: statusText(g.status)}));
      const deadline = parseTime(g.deadline || (g.clock && g.clock.deadline));
      if (g.your_turn && deadline) {
        status.append(el("span", {className: "line deadline"},
                         ...withTime(t("move {when}"), deadline, true)));
      }
      status.append(...details(g));
      const act = el("td", {className: "actions"},
                     el("a", {className: "button", href: gamePath(g.id),
                              textContent: g.your_turn ? t("Play") : t("Resume")}));
      inviteButton(act, g, null);
      const held = Number.isInteger(g.my_seat) ? {[g.my_seat]: true} : null;
      const tr = el("tr", {className: g.your_turn ? "your-turn" : ""}, title,
                    seatsCell(g, held), status, act);
      tr.dataset.game = g.id;
      body.append(tr);
    }
    box.replaceChildren(el("table", {className: "account-games"},
                           headRow(t("Game"), t("Players"), t("Status"), ""), body));
    showMine();
  }

  // friends: a list with their profiles, a form to add one, their open tables
  let friendNames = [];

  async function refreshFriends() {
    const section = $("friends");
    if (!(A && A.user)) { section.hidden = true; friendNames = []; return; }
    let found;
    try { found = await api("GET", "/api/friends"); } catch (err) {
      section.hidden = err.status === 404 || err.status === 401;  // not offered by this server
      return;
    }
    section.hidden = false;
    const friends = Array.isArray(found.friends) ? found.friends : [];
    friendNames = friends.map((f) => f.name);
    const list = $("friend-list");
    list.replaceChildren(...friends.map((f) => {
      const remove = el("button", {type: "button", className: "secondary small",
                                   textContent: t("Remove")});
      remove.setAttribute("aria-label", t("Remove {name} from your friends", {name: f.name}));
      remove.addEventListener("click", async () => {
        remove.disabled = true;
        try {
          await api("DELETE", "/api/friends/" + encodeURIComponent(f.name));
          refreshFriends();
        } catch (err) { showError(err.message); remove.disabled = false; }
      });
      return el("li", {}, el("a", {href: "/players/" + encodeURIComponent(f.name),
                                   textContent: f.name}), " ", remove);
    }));
    if (!friends.length) {
      list.append(el("li", {className: "note", textContent:
        t("No friends yet: add a player by the name they play under.")}));
    }
    const tables = Array.isArray(found.tables) ? found.tables : [];
    const watched = new Set(watchedGames().map((e) => e.id));
    $("friend-tables").replaceChildren(tables.length ? listTable("open", tables, watched)
      : el("p", {className: "note", textContent: t("None of your friends has an open table.")}));
  }

  async function addFriend(event) {
    event.preventDefault();
    const name = $("friend-name").value.trim();
    if (!name) { $("friend-name").focus(); return; }
    $("add-friend-button").disabled = true;
    try {
      await api("POST", "/api/friends", {name});
      $("friend-name").value = "";
      await refreshFriends();
    } catch (err) {
      showError(err.code === "own_name" ? t("That is your own name.") : refusedName(err, name));
    } finally { $("add-friend-button").disabled = false; }
  }

  // a refusal that names a player, in the reader's words where its reason is known
  function refusedName(err, name) {
    if (err.code === "unknown_player") return t("There is no player named {name}.", {name});
    if (err.code === "not_their_friend") {
      return t("{name} has not added you as a friend, and only players who did can be seated " +
               "by name: send them an invite link instead.", {name});
    }
    return err.message;
  }

  // "Invite a friend": fills one of a game's open seats with a player named, who is told so.
  // `token`: this browser's credential in the game, if any (else the account's seat speaks)
  function inviteButton(cell, g, token) {
    if (!(A && A.user) || g.status !== "open" || !g.seats.some((s) => s.kind === "open")) return;
    const b = el("button", {type: "button", className: "secondary",
                            textContent: t("Invite a friend")});
    b.setAttribute("aria-label", t("Invite a friend by name to {game} {id}",
                                   {game: titleOf(g.game), id: g.id}));
    b.addEventListener("click", () => openInvite(g, token));
    cell.append(b);
  }

  function openInvite(g, token) {
    const old = $("invite-dialog");
    if (old) old.remove();
    const heading = el("h2", {id: "invite-dialog-title",
                              textContent: t("Invite a friend by name")});
    const close = el("button", {type: "button", className: "link-button close",
                                textContent: "×"});
    close.setAttribute("aria-label", t("Close"));
    const seat = el("select", {id: "invite-seat"});
    for (const s of g.seats.filter((x) => x.kind === "open")) {
      seat.append(new Option(t("Seat {n}", {n: s.seat + 1}), String(s.seat)));
    }
    const name = el("input", {id: "invite-name", type: "text", maxLength: 24, required: true,
                              autocomplete: "off", autocapitalize: "none", spellcheck: false});
    const names = el("datalist", {id: "invite-friends"},
                     ...friendNames.map((n) => new Option(n)));
    name.setAttribute("list", names.id);
    const note = el("p", {className: "dialog-message", hidden: true});
    note.setAttribute("role", "alert");
    const submit = el("button", {type: "submit", textContent: t("Invite")});
    const form = el("form", {noValidate: true},
                    el("p", {className: "help", textContent: t(
                      "The seat becomes theirs at once, and they are told so.")}),
                    el("label", {htmlFor: seat.id, textContent: t("Seat")}), seat,
                    el("label", {htmlFor: name.id, textContent: t("Player's name")}), name,
                    names, el("div", {className: "dialog-buttons"}, submit));
    const box = el("dialog", {id: "invite-dialog", className: "account-dialog"},
                   el("div", {className: "dialog-head"}, heading, close), form, note);
    box.setAttribute("aria-labelledby", heading.id);
    close.addEventListener("click", () => box.close());
    box.addEventListener("close", () => box.remove());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const who = name.value.trim();
      if (!who) { name.focus(); return; }
      submit.disabled = true;
      try {
        await api("POST", `/api/games/${encodeURIComponent(g.id)}/invite`,
                  {seat: Number(seat.value), user: who}, token);
        note.textContent = t("{name} now holds seat {n}.", {name: who, n: Number(seat.value) + 1});
        note.classList.add("good");
        note.hidden = false;
        form.hidden = true;
        refresh();
        refreshMine().catch(() => {});
        if (A) A.refresh();
      } catch (err) {
        note.textContent = refusedName(err, who);
        note.classList.remove("good");
        note.hidden = false;
        submit.disabled = false;
      }
    });
    document.body.append(box);
    box.showModal();
    name.focus();
  }

  async function start() {
    await T.loadLanguage();
    translatePage();
    document.querySelector("header.top").append(T.languageSwitch());
    $("name").value = remembered(NAME_KEY) || "";
    $("name").addEventListener("change", () => rememberName($("name").value));
    catalog = await api("GET", "/api/catalog");
    fillPicker();
    fillFilters();
    $("game").addEventListener("change", fillGame);
    $("players").addEventListener("change", fillSeats);
    $("speed").addEventListener("change", speedText);
    $("on-timeout").addEventListener("change", speedText);
    $("create").addEventListener("submit", create);
    $("add-friend").addEventListener("submit", addFriend);
    // one listener for every join button, present and future: a button drawn by a refresh
    // works at once (listeners added after all three lists loaded missed early clicks)
    for (const box of ["open-games", "friend-tables"]) {
      $(box).addEventListener("click", (event) => {
        const b = event.target.closest("[data-join]");
        if (b && !b.disabled) join(b);
      });
    }
    fillGame();
    speedText();
    refreshMine().catch((err) => showError(err.message));
    refresh();
    setInterval(refresh, 10000);
    setInterval(() => refreshMine().catch(() => {}), 30000);
    if (A) {
      await A.ready;
      onAccount();
      // a login, a logout, the account's games looked at again (every 30 s)
      document.addEventListener("tlatelolco:account", (event) => {
        const user = event.detail.user;
        if ((user && user.id) !== shownUser) { shownUser = user && user.id; onAccount(); }
        else drawAccountGames(user ? event.detail.games : null);
      });
      shownUser = A.user && A.user.id;
    }
  }
  let shownUser = null;  // the account whose games and friends are shown
  start().catch((err) => showError(err.message));
})();
