// The registry the per-game renderers add themselves to, and small helpers they share.
"use strict";
window.Tlatelolco = {
  renderers: {},
  // Seat colours, in the same order on every board; none of them is a gem's or a good's colour.
  SEAT_COLOURS: ["#e08a1e", "#7d63b8", "#c2577f", "#2f9c95", "#8c6d46", "#5b7fb5", "#8f9a2a"],
  // An SVG element with attributes (null and undefined ones left out), added to `parent`.
  svg(tag, attrs, parent) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) node.setAttribute(k, String(v));
    }
    if (parent) parent.appendChild(node);
    return node;
  },
  // An HTML element of class `cls` holding `text` (each optional), added to `parent`.
  html(tag, cls, parent, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  },
  // An SVG <text> at (x, y) holding `content`.
  text(parent, x, y, content, attrs) {
    const node = this.svg("text", Object.assign({x, y}, attrs || {}), parent);
    node.textContent = content;
    return node;
  },
  // An element with properties (className, textContent, href, ...) and children.
  el(tag, props, ...children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  },
  // A JSON request to this server: with `token`, a seat's credential (else the session
  // cookie, when logged in, says who asks). Errors carry the server's message, .status and
  // .code (its `error`).
  async api(method, url, body, token) {
    const headers = body === undefined ? {} : {"Content-Type": "application/json"};
    if (token) headers.Authorization = "Bearer " + token;
    const response = await fetch(url, {method, headers, credentials: "same-origin",
                                        body: body === undefined ? undefined : JSON.stringify(body)});
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const err = new Error(data.message || this.t("The server answered {status}.",
                                                   {status: response.status}));
      err.status = response.status;
      err.code = data.error;
      throw err;
    }
    return data;
  },
  // A time the server sent (UTC, ISO 8601) as a Date; an older answer may leave out the
  // offset. null for none or for text that is no time.
  parseTime(text) {
    if (!text) return null;
    const stamp = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : text + "Z");
    return Number.isNaN(stamp.getTime()) ? null : stamp;
  },
  register(name, renderer) { this.renderers[name] = renderer; },
  // --- English and Spanish (the catalogues of tlatelolco/locale, served as /i18n/<lang>.json) --
  LANGUAGES: ["en", "es"],
  lang: "en",
  messages: {},
  plurals: {},
  // the language of this browser: the one picked with the switch, else the browser's own
  chooseLanguage() {
    let picked = null;
    try { picked = localStorage.getItem("tlatelolco:lang"); } catch (err) { picked = null; }
    if (this.LANGUAGES.includes(picked)) return picked;
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const code = String(tag).toLowerCase().split("-")[0];
      if (this.LANGUAGES.includes(code)) return code;
    }
    return "en";
  },
  async loadLanguage(lang) {
    this.lang = lang || this.chooseLanguage();
    document.documentElement.lang = this.lang;
    this.messages = {};
    this.plurals = {};
    if (this.lang === "en") return;
    try {
      const r = await fetch(`/i18n/${this.lang}.json`);
      if (r.ok) { const c = await r.json(); this.messages = c.messages; this.plurals = c.plurals; }
    } catch (err) { /* English, then */ }
  },
  setLanguage(lang) {
    try { localStorage.setItem("tlatelolco:lang", lang); } catch (err) { /* this page only */ }
    location.reload();
  },
  // `message` (English, the catalogue's id) in the page's language, {fields} filled from `params`
  t(message, params) {
    const text = Object.prototype.hasOwnProperty.call(this.messages, message)
      ? this.messages[message] : message;
    return this.fill(text, params);
  },
  tn(singular, plural, n, params) {
    const forms = Object.prototype.hasOwnProperty.call(this.plurals, singular)
      ? this.plurals[singular] : [singular, plural];
    const text = n === 1 ? forms[0] : forms[Math.min(1, forms.length - 1)];
    return this.fill(text, Object.assign({n}, params || {}));
  },
  fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (all, key) => (
      Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : all));
  },
  // static text of a page: data-i18n="English" (its text), data-i18n-label="English" (its
  // aria-label); the page lists the same strings in a t() table so that Babel extracts them
  translatePage(root) {
    for (const el of (root || document).querySelectorAll("[data-i18n]")) {
      el.textContent = this.t(el.getAttribute("data-i18n"));
    }
    for (const el of (root || document).querySelectorAll("[data-i18n-label]")) {
      el.setAttribute("aria-label", this.t(el.getAttribute("data-i18n-label")));
    }
  },
  // a small "English | Español" switch
  languageSwitch() {
    const box = document.createElement("span");
    box.className = "language-switch";
    const names = {en: "English", es: "Español"};
    for (const code of this.LANGUAGES) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "link-button" + (code === this.lang ? " current" : "");
      b.lang = code;
      b.textContent = names[code];
      b.setAttribute("aria-pressed", String(code === this.lang));
      b.addEventListener("click", () => { if (code !== this.lang) this.setLanguage(code); });
      box.append(b);
    }
    return box;
  },
  // Copy a read-only field's text (an invite or spectator link), saying so on `button`.
  async copy(input, button) {
    input.select();
    let done = false;
    try { await navigator.clipboard.writeText(input.value); done = true; } catch (err) {
      try { done = document.execCommand("copy"); } catch (err2) { done = false; }
    }
    button.textContent = done ? this.t("Copied") : this.t("Select and copy");
    setTimeout(() => { button.textContent = this.t("Copy"); }, 2000);
  },
  escape(text) {
    return String(text).replace(/[&<>"']/g, (c) => (
      {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));
  },
  seatName(view, seat) {
    const player = (view.players || [])[seat];
    const name = player ? player.name : this.t("Seat {n}", {n: seat + 1});
    return seat === view.viewer ? this.t("{name} (you)", {name}) : name;
  },
};
