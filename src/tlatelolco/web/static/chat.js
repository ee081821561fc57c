// The chat beside a game's board: live while the game is played, up to the shown step in
// replays. What people typed is only ever set as textContent, never parsed as HTML. Two
// channels, as tabs: "Table" (the players talk; everybody reads) and "Spectators" (the
// spectators talk, when the game lets them). A player can mute a spectator from a message.
//
//   TlatelolcoChat.mount(section, {gameId, send, replay, lang, seated})
//       send(obj) -> sent or not; seated() -> whether this page holds a seat (default: the
//       game page's view says so)
//   TlatelolcoChat.receive(message)   // socket messages of type "chat" and "muted", chat errors
//   TlatelolcoChat.showUpTo(step)     // replays: what was said up to that step
"use strict";
(() => {
  const t = (m, p) => window.Tlatelolco.t(m, p);
  const tn = (s, p, n, q) => window.Tlatelolco.tn(s, p, n, q);
  const TEXT_MAX = 300;  // characters of one message (the server's limit too)
  const KEPT = 500;  // messages kept on the page
  const NARROW = "(max-width: 900px)";  // phones: the chat starts folded
  const TABLE = "players", WATCHERS = "spectators";  // the server's channel names

  let options = {};
  let parts = null;  // the mounted elements
  let said = new Map();  // id -> message
  let upTo = null;  // replays: the step shown
  let loading = null;  // replays: the fetch of every message
  let unread = 0;
  let draft = "";  // the text last sent, given back if the server refuses it
  let channel = TABLE;  // the tab shown (and written to)
  const muted = new Set();  // spectators' authors this page muted

  // whether this page holds a seat of the game (players talk at the table)
  function seatedNow() {
    if (typeof options.seated === "function") return Boolean(options.seated());
    const view = window.TlatelolcoPage && window.TlatelolcoPage.view;
    return Boolean(view && view.viewer !== null && view.viewer !== undefined);
  }

  function channelOf(m) { return m.channel === WATCHERS ? WATCHERS : TABLE; }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function mount(container, opts) {
    options = Object.assign({replay: false, send: () => false}, opts || {});
    said = new Map();
    upTo = null;
    loading = null;
    unread = 0;
    draft = "";
    channel = TABLE;
    muted.clear();
    container.classList.add("chat");
    container.setAttribute("aria-label", t("Chat"));
    const heading = element("h2", "chat-heading");
    const toggle = element("button", "chat-toggle", t("Chat"));
    toggle.type = "button";
    const badge = element("span", "chat-unread");
    heading.append(toggle, badge);
    const body = element("div", "chat-body");
    body.id = `chat-body-${Math.random().toString(36).slice(2, 8)}`;
    toggle.setAttribute("aria-controls", body.id);
    const tabs = element("div", "chat-tabs");
    tabs.setAttribute("role", "tablist");
    const tab = {};
    for (const [name, text] of [[TABLE, t("Table")], [WATCHERS, t("Spectators")]]) {
      tab[name] = element("button", "chat-tab", text);
      tab[name].type = "button";
      tab[name].dataset.channel = name;
      tab[name].setAttribute("role", "tab");
      tab[name].addEventListener("click", () => pick(name));
      tabs.append(tab[name]);
    }
    const rule = element("p", "chat-rule note");
    const list = element("ol", "chat-list");
    list.setAttribute("aria-live", "polite");
    list.setAttribute("aria-label", t("Chat messages"));
    const empty = element("p", "chat-empty note",
                          options.replay ? t("Nothing was said by this step.")
                                         : t("No messages yet. Say hello!"));
    const note = element("p", "chat-status note");
    note.setAttribute("role", "status");
    body.append(tabs, list, empty, rule);
    let form = null;
    let input = null;
    if (!options.replay) {
      form = element("form", "chat-form");
      input = element("input");
      input.type = "text";
      input.maxLength = TEXT_MAX;
      input.autocomplete = "off";
      input.placeholder = t("Say something…");
      input.setAttribute("aria-label", t("Message to everyone in this game"));
      const button = element("button", "", t("Send"));
      button.type = "submit";
      form.append(input, button);
      form.addEventListener("submit", (event) => { event.preventDefault(); submit(); });
      body.append(form);
    }
    body.append(note);
    container.replaceChildren(heading, body);
    parts = {container, toggle, badge, body, list, empty, status: note, input, form, tab, rule};
    toggle.addEventListener("click", () => fold(!body.hidden));
    fold(Boolean(window.matchMedia && window.matchMedia(NARROW).matches));
    pick(TABLE);
    if (options.replay) load();
  }

  // show a channel's tab: its messages, and the form where this page may talk in it
  function pick(name) {
    channel = name;
    for (const [key, button] of Object.entries(parts.tab)) {
      button.setAttribute("aria-selected", String(key === name));
      button.classList.toggle("active", key === name);
    }
    draw();
  }

  // who may talk in the channel shown: the form for them, a sentence for the others
  function drawRule() {
    let rule = "";
    if (!options.replay) {
      const seated = seatedNow();
      if (channel === TABLE && !seated) {
        rule = t("The table chat is for the players; talk in the Spectators tab.");
      } else if (channel === WATCHERS && seated) {
        rule = t("Players talk at the table; here you read the spectators.");
      }
    }
    parts.rule.textContent = rule;
    parts.rule.hidden = !rule;
    if (parts.form) parts.form.hidden = Boolean(rule);
  }

  // fold (true) or open the chat; opening it counts everything as read
  function fold(folded) {
    parts.body.hidden = folded;
    parts.toggle.setAttribute("aria-expanded", String(!folded));
    if (!folded) { unread = 0; scrollDown(); }
    drawBadge();
  }

  function drawBadge() {
    parts.badge.textContent = unread ? tn("{n} new", "{n} new", unread) : "";
  }

  function receive(message) {
    if (!parts || !message) return;
    if (message.type === "error") { refused(message); return; }
    if (message.type === "muted") {
      muted.add(message.author);
      status(t("Muted: that spectator's messages are no longer sent."));
      draw();
      return;
    }
    if (message.type !== "chat" || !Array.isArray(message.messages)) return;
    let fresh = 0;
    for (const m of message.messages) {
      if (!m || said.has(m.id)) continue;  // a reconnection sends the last ones again
      said.set(m.id, m);
      fresh += 1;
    }
    if (!fresh) return;
    if (message.messages.some((m) => m && m.text === draft)) draft = "";
    while (said.size > KEPT) said.delete(said.keys().next().value);
    if (parts.body.hidden) { unread += fresh; drawBadge(); }
    draw();
  }

  // a chat error from the server: said in the reader's words, the refused text given back
  function refused(error) {
    if (error.about !== "chat") return;
    let text = error.message;
    if (error.status === 429) {
      text = t("Too many messages: wait {s} s before sending again.",
               {s: error.retry_after || 10});
    } else if (error.error === "chat_too_long") {
      text = t("A message has at most {n} characters.", {n: TEXT_MAX});
    } else if (error.error === "chat_bad_character") {
      text = t("A message is one line of plain text, without control characters.");
    } else if (error.error === "chat_empty") {
      text = t("Write something first.");
    } else if (error.error === "players_only") {
      text = t("The table chat is for the players; talk in the Spectators tab.");
    } else if (error.error === "spectators_only") {
      text = t("Players talk at the table; here you read the spectators.");
    } else if (error.error === "spectator_chat_off") {
      text = t("Spectators cannot chat in this game.");
    } else if (error.error === "chat_muted") {
      text = t("You are muted in this game.");
    } else if (error.error === "chat_full") {
      text = t("This game's chat is full.");
    } else if (error.status === 403 || error.status === 401) {
      text = t("Your seat is no longer yours: reload the page to chat as a spectator.");
    }
    status(text, true);
    if (draft && parts.input && !parts.input.value) parts.input.value = draft;
    draft = "";
  }

  function status(text, problem) {
    parts.status.textContent = text || "";
    parts.status.classList.toggle("problem", Boolean(problem));
  }

  function submit() {
    const text = parts.input.value.trim();
    if (!text) return;
    if (text.length > TEXT_MAX) {
      status(t("A message has at most {n} characters.", {n: TEXT_MAX}), true);
      return;
    }
    if (!options.send({type: "chat", text, channel})) {
      status(t("Not connected to the server; try again in a moment."), true);
      return;
    }
    draft = text;
    parts.input.value = "";
    status("");
  }

  function label(m) {
    if (m.seat !== null && m.seat !== undefined) return m.name;
    if (m.name === "Spectator") return t("Spectator");
    return t("{name} (spectator)", {name: m.name});
  }

  function entry(m) {
    const li = element("li", "chat-message");
    const when = element("time");
    const at = new Date(m.at);
    if (!Number.isNaN(at.getTime())) {
      when.dateTime = m.at;
      when.textContent = at.toLocaleTimeString(options.lang || window.Tlatelolco.lang,
                                               {hour: "2-digit", minute: "2-digit"});
    }
    const name = element("span", "chat-name", label(m));
    if (m.seat === null || m.seat === undefined) li.classList.add("spectator");
    else {
      const colours = window.Tlatelolco.SEAT_COLOURS || [];
      if (colours.length) name.style.color = colours[m.seat % colours.length];
    }
    li.title = t("Said at step {n}", {n: m.version});
    li.append(when, name, element("span", "chat-text", m.text));
    if (m.author && !options.replay && seatedNow()) li.append(muteButton(m.author));
    return li;
  }

  // a player's button to mute the spectator who said a message (once muted, it says so)
  function muteButton(author) {
    if (muted.has(author)) return element("span", "chat-muted note", t("muted"));
    const button = element("button", "chat-mute", t("Mute"));
    button.type = "button";
    button.title = t("Mute this spectator: their messages are no longer sent");
    button.addEventListener("click", () => {
      if (!options.send({type: "mute", author})) {
        status(t("Not connected to the server; try again in a moment."), true);
      }
    });
    return button;
  }

  function shown() {
    const all = [...said.values()].sort((a, b) => a.id - b.id)
      .filter((m) => channelOf(m) === channel);
    return upTo === null ? all : all.filter((m) => m.version <= upTo);
  }

  function draw() {
    if (!parts) return;
    drawRule();
    const messages = options.replay && upTo === null ? [] : shown();
    parts.list.replaceChildren(...messages.map(entry));
    parts.empty.hidden = messages.length > 0;
    scrollDown();
  }

  function scrollDown() {
    parts.list.scrollTop = parts.list.scrollHeight;
  }

  // replays: every message of the game, fetched once
  function load() {
    status(t("Loading the chat…"));
    const url = `/api/games/${encodeURIComponent(options.gameId)}/chat`;
    loading = fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((body) => {
        for (const m of body.messages) said.set(m.id, m);
        status("");
        draw();
      })
      .catch(() => status(t("The chat could not be loaded."), true));
  }

  function showUpTo(version) {
    upTo = Number(version);
    if (parts) draw();
    return loading || Promise.resolve();
  }

  // after each view: redrawn when the page's seat changed (its first view, a claimed seat)
  let lastSeated = null;
  function refresh() {
    const seated = seatedNow();
    if (parts && seated !== lastSeated) { lastSeated = seated; draw(); }
  }

  window.TlatelolcoChat = {mount, receive, showUpTo, refresh};
})();
