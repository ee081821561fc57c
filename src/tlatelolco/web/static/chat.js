// The chat beside a game's board: live while the game is played, up to the shown step in
// replays. What people typed is only ever set as textContent, never parsed as HTML.
//
//   TlatelolcoChat.mount(section, {gameId, send, replay, lang})  // send(obj) -> sent or not
//   TlatelolcoChat.receive(message)   // every socket message of type "chat" (and chat errors)
//   TlatelolcoChat.showUpTo(step)     // replays: what was said up to that step
"use strict";
(() => {
  const t = (m, p) => window.Tlatelolco.t(m, p);
  const tn = (s, p, n, q) => window.Tlatelolco.tn(s, p, n, q);
  const TEXT_MAX = 300;  // characters of one message (the server's limit too)
  const KEPT = 500;  // messages kept on the page
  const NARROW = "(max-width: 900px)";  // phones: the chat starts folded

  let options = {};
  let parts = null;  // the mounted elements
  let said = new Map();  // id -> message
  let upTo = null;  // replays: the step shown
  let loading = null;  // replays: the fetch of every message
  let unread = 0;
  let draft = "";  // the text last sent, given back if the server refuses it

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
    const list = element("ol", "chat-list");
    list.setAttribute("aria-live", "polite");
    list.setAttribute("aria-label", t("Chat messages"));
    const empty = element("p", "chat-empty note",
                          options.replay ? t("Nothing was said by this step.")
                                         : t("No messages yet. Say hello!"));
    const note = element("p", "chat-status note");
    note.setAttribute("role", "status");
    body.append(list, empty);
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
    parts = {container, toggle, badge, body, list, empty, status: note, input};
    toggle.addEventListener("click", () => fold(!body.hidden));
    fold(Boolean(window.matchMedia && window.matchMedia(NARROW).matches));
    if (options.replay) load();
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
    if (!options.send({type: "chat", text})) {
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
    return li;
  }

  function shown() {
    const all = [...said.values()].sort((a, b) => a.id - b.id);
    return upTo === null ? all : all.filter((m) => m.version <= upTo);
  }

  function draw() {
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

  window.TlatelolcoChat = {mount, receive, showUpTo};
})();
