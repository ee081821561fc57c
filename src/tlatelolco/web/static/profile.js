// A player's page (/players/NAME): games played and won per game, the rating of each game
// with its history drawn as a chart (the bots' fixed levels as dashed lines), recent games
// with their replays and reviews, and for a logged-in visitor a button to add the player as
// a friend. Everything comes from GET /api/players/NAME; nothing private is there to show.
"use strict";
(function () {
  const T = window.Tlatelolco;
  const el = T.el;
  const parseTime = (text) => T.parseTime(text);
  const api = T.api.bind(T);
  const t = (m, p) => T.t(m, p);
  const tn = (s, p, n, q) => T.tn(s, p, n, q);
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  let titles = {};  // game name -> its title (English: t() translates it)
  let player = null;  // the profile shown
  let charts = [];  // [box, game] to draw again when the page's width changes

  // The static text of profile.html (its data-i18n attributes), written out so that the
  // extractor finds it: Babel reads no HTML attributes.
  function pageText() {
    return {
      "Player": t("Player"),
      "Leaderboards": t("Leaderboards"),
      "Ratings and games": t("Ratings and games"),
      "A rating is openskill's cautious estimate (mu − 3 sigma): it grows as you win and as your results become certain. The bots' levels are fixed references.":
        t("A rating is openskill's cautious estimate (mu − 3 sigma): it grows as you win and as your results become certain. The bots' levels are fixed references."),
      "Recent games": t("Recent games"),
    };
  }

  function translatePage() {
    T.translatePage(document);  // the messages: pageText(), for Babel
  }

  function svg(tag, attrs, parent, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function showError(message) {
    $("error").textContent = message; $("error").hidden = false;
    setTimeout(() => { $("error").hidden = true; }, 8000);
  }

  // --- times, numbers, words ---------------------------------------------------------------------

  function day(stamp, short) {
    return stamp.toLocaleDateString(T.lang, short ? {month: "short", day: "numeric"}
      : {year: "numeric", month: "short", day: "numeric"});
  }

  const number = (value) => (value === null || value === undefined ? "–"
    : Number(value).toLocaleString(T.lang, {minimumFractionDigits: 1, maximumFractionDigits: 1}));

  const titleOf = (game) => t(titles[game] || game);

  function resultWords(result) {
    return {won: t("Win"), shared: t("Shared win"), lost: t("Loss"), left: t("Left the game"),
            forfeited: t("Lost on time")}[result] || result;
  }

  // --- the rating chart --------------------------------------------------------------------------
  // A step of 1, 2 or 5 times a power of ten that cuts `span` into about four parts.
  function niceStep(span) {
    const raw = Math.max(span / 4, 0.1);
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  }

  // An inline SVG line chart of one game's rating after each rated game, drawn for the width
  // of `box`: the y axis in rating points, the x axis the rated games in order with the first
  // and last dates, and each bot level as a dashed line, labelled on the right.
  function drawChart(box, game) {
    const points = (player.history[game] || []).map((p) => ({at: parseTime(p.at), rating: p.rating}));
    const bots = (player.games[game] || {}).bots || [];
    box.replaceChildren();
    if (!points.length) {
      box.append(el("p", {className: "note", textContent: t("No rated games yet.")}));
      return;
    }
    const width = Math.max(240, Math.floor(box.clientWidth || 320));
    const height = 220;
    const pad = {left: 44, right: 70, top: 12, bottom: 40};
    const plotW = width - pad.left - pad.right;
    const plotH = height - pad.top - pad.bottom;
    const values = points.map((p) => p.rating).concat(bots.map((b) => b.rating));
    const step = niceStep(Math.max(...values) - Math.min(...values) || 1);
    const lo = Math.floor(Math.min(...values) / step) * step;
    const hi = Math.max(Math.ceil(Math.max(...values) / step) * step, lo + step);
    const x = (i) => pad.left + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
    const y = (v) => pad.top + ((hi - v) * plotH) / (hi - lo);
    const id = "chart-" + game;
    const chart = svg("svg", {width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
                              "aria-labelledby": id + "-title", class: "rating-chart"});
    svg("title", {id: id + "-title"}, chart, t("{game}: rating after each rated game",
                                               {game: titleOf(game)}));
    for (let v = lo; v <= hi + step / 1000; v += step) {
      svg("line", {x1: pad.left, x2: pad.left + plotW, y1: y(v), y2: y(v), class: "grid"}, chart);
      svg("text", {x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick"}, chart,
          number(v));
    }
    svg("line", {x1: pad.left, x2: pad.left, y1: pad.top, y2: pad.top + plotH, class: "axis"}, chart);
    svg("line", {x1: pad.left, x2: pad.left + plotW, y1: pad.top + plotH, y2: pad.top + plotH,
                 class: "axis"}, chart);
    svg("text", {x: 12, y: pad.top + plotH / 2, "text-anchor": "middle", class: "axis-label",
                 transform: `rotate(-90 12 ${pad.top + plotH / 2})`}, chart, t("Rating"));
    const first = points[0].at, last = points[points.length - 1].at;
    if (first) {
      svg("text", {x: pad.left, y: height - 22, "text-anchor": "start", class: "tick"}, chart,
          day(first, true));
    }
    if (last && points.length > 1) {
      svg("text", {x: pad.left + plotW, y: height - 22, "text-anchor": "end", class: "tick"},
          chart, day(last, true));
    }
    svg("text", {x: pad.left + plotW / 2, y: height - 6, "text-anchor": "middle",
                 class: "axis-label"}, chart,
        tn("{n} rated game", "{n} rated games", points.length));
    // the bots' labels, top to bottom, moved apart where their levels are close
    const labels = bots.map((bot) => ({bot, at: y(bot.rating)})).sort((a, b) => a.at - b.at);
    labels.forEach((label, i) => {
      if (i > 0) label.at = Math.max(label.at, labels[i - 1].at + 11);
    });
    for (const {bot, at} of labels) {
      svg("line", {x1: pad.left, x2: pad.left + plotW, y1: y(bot.rating), y2: y(bot.rating),
                   class: "bot-line bot-" + bot.level}, chart);
      svg("text", {x: pad.left + plotW + 4, y: at + 4, class: "bot-label"}, chart, bot.name);
    }
    svg("polyline", {points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "),
                     class: "rating-line"}, chart);
    points.forEach((p, i) => {
      const dot = svg("circle", {cx: x(i), cy: y(p.rating), r: points.length > 40 ? 2 : 3.5,
                                 class: "rating-dot"}, chart);
      svg("title", {}, dot, `${p.at ? day(p.at) : ""} · ${number(p.rating)}`);
    });
    box.append(chart);
  }

  function drawCharts() {
    for (const [box, game] of charts) drawChart(box, game);
  }

  // --- the page ----------------------------------------------------------------------------------
  function gameCard(game, entry) {
    const box = el("div", {className: "chart"});
    charts.push([box, game]);
    return el("article", {className: "game-card", id: "game-" + game},
              el("h3", {}, titleOf(game)),
              el("p", {className: "stats"},
                 tn("{n} game played", "{n} games played", entry.played), " · ",
                 tn("{n} won", "{n} won", entry.won)),
              el("p", {className: "rating"},
                 el("strong", {className: "rating-value"},
                    entry.rating === null ? t("No rating yet") : t("Rating {rating}",
                                                                   {rating: number(entry.rating)})),
                 " ", el("span", {className: "standing"}, entry.rank_display)),
              box,
              el("a", {href: "/leaderboard#" + encodeURIComponent(game),
                       textContent: t("Leaderboard")}));
  }

  function recentItem(g) {
    const at = parseTime(g.finished_at);
    const n = (g.players || []).length;
    return el("li", {className: "recent-game"},
              el("span", {className: "what"}, el("strong", {}, titleOf(g.game)),
                 at ? el("time", {dateTime: at.toISOString(), title: at.toLocaleString(T.lang),
                                  textContent: " · " + day(at)}) : null),
              el("span", {className: "result result-" + g.result}, resultWords(g.result)),
              n ? el("span", {className: "place"}, t("place {rank} of {n}", {rank: g.rank, n}))
                : null,
              g.rated ? null : el("span", {className: "note", textContent: t("not rated")}),
              n ? el("span", {className: "players"}, (g.players || []).join(", ")) : null,
              el("span", {className: "links"},
                 el("a", {className: "button secondary", href: g.replay_url,
                          textContent: t("Replay")}),
                 g.review_url ? el("a", {className: "button secondary", href: g.review_url,
                                         textContent: t("Review")}) : null));
  }

  function friendButton() {
    const box = $("friend-box");
    box.replaceChildren();
    if (player.me) {
      box.append(el("p", {className: "note", textContent: t("This is you.")}));
      return;
    }
    if (player.friend === null || player.friend === undefined) return;  // not logged in
    const button = el("button", {type: "button", id: "friend-button",
                                 className: player.friend ? "secondary" : "",
                                 textContent: player.friend ? t("Remove friend") : t("Add friend")});
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        if (player.friend) {
          await api("DELETE", "/api/friends/" + encodeURIComponent(player.name));
        } else {
          await api("POST", "/api/friends", {name: player.name});
        }
        player.friend = !player.friend;
        friendButton();
      } catch (err) {
        showError(err.message);
        button.disabled = false;
      }
    });
    box.append(button, el("p", {className: "note", textContent: player.friend
      ? t("{name} is your friend: they can seat you in their games by name.", {name: player.name})
      : t("Friends can seat you in their games by name, and you see their open tables.")}));
  }

  function show() {
    $("player-name").textContent = player.name;
    document.title = t("{name} — Tlatelolco", {name: player.name});
    const since = parseTime(player.created_at);
    $("since").textContent = since ? t("Playing since {date}", {date: day(since)}) : "";
    friendButton();
    charts = [];
    const games = Object.entries(player.games);
    $("games").replaceChildren(...(games.length ? games.map(([g, e]) => gameCard(g, e))
      : [el("p", {className: "note", textContent: t("No finished games yet.")})]));
    $("recent").replaceChildren(player.recent.length
      ? el("ul", {className: "recent"}, ...player.recent.map(recentItem))
      : el("p", {className: "note", textContent: t("No finished games yet.")}));
    drawCharts();
  }

  async function start() {
    await T.loadLanguage();
    translatePage();
    document.title = t("Tlatelolco — player");
    document.querySelector("header.top").append(T.languageSwitch());
    const name = decodeURIComponent(location.pathname.replace(/^\/players\//, "")).slice(0, 40);
    try {
      const catalog = await api("GET", "/api/catalog");
      titles = Object.fromEntries(catalog.map((g) => [g.name, g.title]));
    } catch (err) { titles = {}; }
    try {
      player = await api("GET", "/api/players/" + encodeURIComponent(name) + "?lang=" + T.lang);
    } catch (err) {
      $("player-name").textContent = name;
      $("games").replaceChildren(el("p", {className: "note", textContent: err.status === 404
        ? t("There is no player named {name}.", {name}) : err.message}));
      return;
    }
    show();
    let pending = null;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(drawCharts, 150);
    });
    window.TlatelolcoProfile = {player};  // tests read what was shown
  }

  document.addEventListener("DOMContentLoaded", start);
})();
