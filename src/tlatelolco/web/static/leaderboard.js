// The leaderboards (/leaderboard, /leaderboard#GAME): a tab per game, its best rated players
// with the bots' fixed levels among them, from GET /api/leaderboard/GAME.
"use strict";
(function () {
  const T = window.Tlatelolco;
  const el = T.el;
  const api = (url) => T.api("GET", url);
  const t = (m, p) => T.t(m, p);
  const $ = (id) => document.getElementById(id);
  let catalog = [];

  // the static text of leaderboard.html, written out so that the extractor finds it
  function pageText() {
    return {
      "Leaderboards": t("Leaderboards"),
      "Best rated players": t("Best rated players"),
      "Ratings count finished games between accounts, and against bots at the lobby's levels; a player who leaves a game loses it. The bots never move: they show what a rating means.":
        t("Ratings count finished games between accounts, and against bots at the lobby's levels; a player who leaves a game loses it. The bots never move: they show what a rating means."),
    };
  }

  function translatePage() {
    T.translatePage(document);  // the messages: pageText(), for Babel
  }

  function showError(message) {
    $("error").textContent = message; $("error").hidden = false;
    setTimeout(() => { $("error").hidden = true; }, 8000);
  }

  const number = (value) => Number(value).toLocaleString(
    T.lang, {minimumFractionDigits: 1, maximumFractionDigits: 1});

  // players best first, each bot level placed where its rating puts it
  function rows(board) {
    const entries = board.players.map((p) => Object.assign({kind: "player"}, p))
      .concat(board.bots.map((b) => Object.assign({kind: "bot"}, b)));
    entries.sort((a, b) => b.rating - a.rating || (a.kind === "bot") - (b.kind === "bot"));
    let place = 0;
    return entries.map((e) => {
      if (e.kind === "bot") {
        return el("tr", {className: "bot"}, el("td", {}, ""),
                  el("td", {className: "who"}, t("{name} (a fixed reference)", {name: e.name})),
                  el("td", {className: "num"}, number(e.rating)),
                  el("td", {className: "num"}, "–"), el("td", {className: "num"}, "–"));
      }
      place += 1;
      return el("tr", {className: "person"}, el("td", {className: "num"}, String(place)),
                el("td", {className: "who"}, el("a", {href: "/players/" + encodeURIComponent(e.name),
                                      textContent: e.name})),
                el("td", {className: "num"}, number(e.rating)),
                el("td", {className: "num"}, String(e.played)),
                el("td", {className: "num"}, String(e.won)));
    });
  }

  async function show(game) {
    for (const tab of document.querySelectorAll("[role=tab]")) {
      const on = tab.dataset.game === game;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
    }
    $("board").setAttribute("aria-labelledby", "tab-" + game);
    let board;
    try {
      board = await api("/api/leaderboard/" + encodeURIComponent(game) + "?lang=" + T.lang);
    } catch (err) {
      showError(err.message);
      return;
    }
    const head = el("tr", {}, el("th", {className: "num", scope: "col"}, "#"),
                    el("th", {scope: "col"}, t("Player")),
                    el("th", {className: "num", scope: "col"}, t("Rating")),
                    el("th", {className: "num", scope: "col"}, t("Played")),
                    el("th", {className: "num", scope: "col"}, t("Won")));
    const table = el("table", {className: "board-table"}, el("thead", {}, head),
                     el("tbody", {}, ...rows(board)));
    $("board").replaceChildren(...(board.players.length ? [table] : [
      el("p", {className: "note", textContent: t("Nobody is rated in this game yet.")}), table]));
    window.TlatelolcoLeaderboard = {game, board};  // tests read what was shown
  }

  function choose(game) {
    if (location.hash !== "#" + game) history.replaceState(null, "", "#" + game);
    show(game);
  }

  async function start() {
    await T.loadLanguage();
    translatePage();
    document.title = t("Tlatelolco — leaderboards");
    document.querySelector("header.top").append(T.languageSwitch());
    try {
      catalog = await api("/api/catalog");
    } catch (err) {
      showError(err.message);
      return;
    }
    const tabs = catalog.map((g) => {
      const tab = el("button", {type: "button", id: "tab-" + g.name, textContent: t(g.title)});
      tab.setAttribute("role", "tab");
      tab.setAttribute("aria-controls", "board");
      tab.dataset.game = g.name;
      tab.addEventListener("click", () => choose(g.name));
      tab.addEventListener("keydown", (event) => {
        const step = {ArrowRight: 1, ArrowLeft: -1}[event.key];
        if (!step) return;
        const i = catalog.findIndex((c) => c.name === g.name);
        const next = catalog[(i + step + catalog.length) % catalog.length].name;
        choose(next);
        $("tab-" + next).focus();
      });
      return tab;
    });
    $("tabs").replaceChildren(...tabs);
    const wanted = decodeURIComponent(location.hash.slice(1));
    choose(catalog.some((g) => g.name === wanted) ? wanted : catalog[0].name);
  }

  document.addEventListener("DOMContentLoaded", start);
})();
