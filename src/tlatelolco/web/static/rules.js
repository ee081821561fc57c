// The rules of the game in a panel over the game page, so that reading them never leaves the game.
// game.js calls TlatelolcoRules.open(view.game) from its "Rules" button. The panel fetches the
// rendered rulebook (/rules/<game>/fragment) in the page's language and keeps it, scrolled where
// it was, until the game or the language changes.
"use strict";
(() => {
  const t = (m, p) => window.Tlatelolco.t(m, p);
  const language = () => (window.Tlatelolco && window.Tlatelolco.lang) || "en";

  let dialog = null;
  let body = null;
  let pageLink = null;
  let opener = null;  // the element that had the focus before the panel opened
  let shown = "";  // "<game> <lang>" of the rulebook in the panel
  let loading = 0;  // a newer open() wins over an older request still on its way

  function build() {
    dialog = document.createElement("dialog");
    dialog.id = "rules-dialog";
    dialog.className = "rules-dialog";
    dialog.setAttribute("aria-labelledby", "rules-dialog-title");
    const head = document.createElement("div");
    head.className = "rules-dialog-head";
    const title = document.createElement("h2");
    title.id = "rules-dialog-title";
    title.textContent = t("Rules");
    pageLink = document.createElement("a");
    pageLink.target = "_blank";
    pageLink.rel = "noopener";
    pageLink.textContent = t("Open as a page");
    const closer = document.createElement("button");
    closer.type = "button";
    closer.className = "rules-dialog-close";
    closer.textContent = t("Close");
    closer.addEventListener("click", close);
    head.append(title, pageLink, closer);
    body = document.createElement("div");
    body.className = "rules-dialog-body";
    body.tabIndex = -1;  // focused on opening, so the keyboard scrolls the rules at once
    dialog.append(head, body);
    // Escape closes the panel (handled here so that no browser's "cancel" rules get in the way);
    // keys pressed in the panel are the panel's: the game page's shortcuts do not see them.
    dialog.addEventListener("keydown", (event) => {
      event.stopPropagation();
      if (event.key === "Escape") { event.preventDefault(); close(); }
    });
    // a click on the backdrop, outside the panel, closes it too
    dialog.addEventListener("click", (event) => { if (event.target === dialog) close(); });
    // links to a section of the rules scroll the panel; the game page's address never changes
    // (game.js reloads the page when its fragment does)
    body.addEventListener("click", (event) => {
      const link = event.target.closest ? event.target.closest("a[href^='#']") : null;
      if (!link) return;
      event.preventDefault();
      const target = document.getElementById(link.getAttribute("href").slice(1));
      if (target && body.contains(target)) target.scrollIntoView({block: "start"});
    });
    dialog.addEventListener("close", () => {
      if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
      opener = null;
    });
    document.body.append(dialog);
  }

  function status(text, isError) {
    const p = document.createElement("p");
    p.className = "rules-dialog-status";
    if (isError) p.setAttribute("role", "alert");
    p.textContent = text;
    body.replaceChildren(p);
  }

  async function load(game, lang) {
    const ticket = ++loading;
    shown = "";
    status(t("Loading the rules…"), false);
    try {
      const url = `/rules/${encodeURIComponent(game)}/fragment?lang=${encodeURIComponent(lang)}`;
      const response = await fetch(url, {headers: {Accept: "text/html"}});
      if (ticket !== loading) return;
      if (!response.ok) throw new Error(String(response.status));
      const html = await response.text();
      if (ticket !== loading) return;
      body.innerHTML = html;  // the server's own rendering; the Markdown's raw HTML is escaped
      body.scrollTop = 0;
      shown = `${game} ${lang}`;
    } catch (err) {
      if (ticket !== loading) return;
      status(t("The rules could not be loaded. Close the panel and try again."), true);
    }
  }

  function open(game) {
    if (!dialog) build();
    const lang = language();
    pageLink.href = `/rules/${encodeURIComponent(game)}?lang=${encodeURIComponent(lang)}`;
    if (!dialog.open) {
      opener = document.activeElement;
      dialog.showModal();
    }
    body.focus();
    if (shown !== `${game} ${lang}`) load(game, lang);
  }

  function close() {
    if (dialog && dialog.open) dialog.close();
  }

  function isOpen() {
    return Boolean(dialog && dialog.open);
  }

  window.TlatelolcoRules = {open, close, isOpen};
})();
