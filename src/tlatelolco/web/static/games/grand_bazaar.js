/* Grand Bazaar: the browser renderer (drawn only from the view the shell passes).
 *
 * The board, drawn at the width the frame gives it (one column on a phone, side by side on a
 * wider screen): a price track per gem (1..19) with the bazaar's stack of that gem beside it, the
 * price card just revealed and what is left of the deck, and the other seats' money and hands.
 * The dock ([data-dock], kept in sight under the board): the prompt, your money, your hand and
 * "End turn". The extras ([data-extra], below): the table of the price cards still face down.
 *
 * Pick paths (data-key values), one key per move:
 *   buy a gem   -> ["bazaar-<gem>"]   the gem's stack in the bazaar
 *   sell a gem  -> ["hand-<gem>"]     a card of that gem in your own hand (in the dock)
 *   end turn    -> ["end"]            the dock's "End turn" button
 * Keys that are no move, marked after a price card: "card" (the face-up card), "price-<gem>".
 * A click on any of them when it is no move is explained with the engine's reason (attempt()).
 * Every text a player reads goes through t()/tn(): the catalogue grand_bazaar.po translates it.
 */
(function () {
  "use strict";

  const T = window.Tlatelolco;  // the shell's shared helpers
  const t = (m, p) => T.t(m, p);
  const tn = (s, pl, n, p) => T.tn(s, pl, n, p);
  const SVGNS = "http://www.w3.org/2000/svg";
  const GEMS = ["sapphire", "ruby", "emerald"];
  const GEM = {
    sapphire: { fill: "#2e63c8", dark: "#173a80", light: "#dce7fb" },
    ruby: { fill: "#c8283a", dark: "#7a1220", light: "#fadadd" },
    emerald: { fill: "#18935a", dark: "#0b5533", light: "#d6f1e2" },
  };
  // Seat colours (the same order in every Tlatelolco renderer): none is a gem's colour.
  const SEAT_COLOURS = T.SEAT_COLOURS;
  const MIN_PRICE = 1, MAX_PRICE = 19, START = 10;
  const CARD_W = 52, CARD_H = 64, CARD_GAP = 6;  // a hand card on the wide board

  // ---- words -----------------------------------------------------------------------------------
  // Literal t() calls, one per gem, so that the catalogue's extractor finds every one.
  function gemName(gem) {
    return { sapphire: t("sapphire"), ruby: t("ruby"), emerald: t("emerald") }[gem] || gem;
  }
  function gemWord(n, gem) {
    if (gem === "sapphire") return tn("{n} sapphire", "{n} sapphires", n);
    if (gem === "ruby") return tn("{n} ruby", "{n} rubies", n);
    return tn("{n} emerald", "{n} emeralds", n);
  }
  function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
  // a word's initial: a gem card's corner letter, the coin's "G" (no one-letter messages, which
  // another game's catalogue could translate otherwise)
  function initial(s) { return s.charAt(0).toUpperCase(); }
  function gemCount(gems) { return GEMS.reduce((a, g) => a + (gems[g] || 0), 0); }
  function seatColour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }
  const esc = (s) => T.escape(s), seatName = (view, seat) => T.seatName(view, seat);
  const keyGem = (key, prefix) => (key.startsWith(prefix) && GEMS.includes(key.slice(prefix.length))
    ? key.slice(prefix.length) : null);

  // ---- small SVG helpers -----------------------------------------------------------------------
  const el = T.svg.bind(T), txt = T.text.bind(T);

  // `content` at (x, y), squeezed to `max` wide when a translation runs longer than the space
  function fitText(parent, x, y, content, attrs, max, perChar) {
    const node = txt(parent, x, y, content, attrs);
    if (content.length * perChar > max) {
      node.setAttribute("textLength", max);
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    return node;
  }

  function titleOf(s) {
    const node = document.createElementNS(SVGNS, "title");
    node.textContent = s;
    return node;
  }

  // A board element standing for a move (or marked as the last one): a group with no transform
  // of its own (so the entry animation can scale it in place), a ring for the last-move and
  // highlight marks and a rectangle for the pick highlight, both around the box x, y, w, h.
  function keyed(parent, key, box, attrs) {
    const g = el("g", Object.assign({ "data-key": key, class: "gb-key" }, attrs || {}), parent);
    const [x, y, w, h, r] = box;
    el("rect", { class: "gb-ring", x: x - 7, y: y - 7, width: w + 14, height: h + 14, rx: r + 6 }, g);
    el("rect", { class: "gb-hl", x: x - 3, y: y - 3, width: w + 6, height: h + 6, rx: r + 2 }, g);
    return g;
  }

  // A gem's shape, centred on (0, 0) with radius r: the shape tells the gems apart without colour.
  function gemShape(parent, gem, r) {
    const c = GEM[gem];
    const g = el("g", { class: "gb-gem" }, parent);
    const line = { stroke: c.dark, "stroke-width": Math.max(0.8, r / 10), fill: "none", "stroke-linejoin": "round" };
    if (gem === "sapphire") {        // the classic faceted diamond
      const pts = [[-r, -0.35 * r], [-0.55 * r, -0.85 * r], [0.55 * r, -0.85 * r], [r, -0.35 * r], [0, r]];
      el("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill: c.fill, stroke: c.dark, "stroke-width": line["stroke-width"], "stroke-linejoin": "round" }, g);
      el("polyline", Object.assign({ points: `${-r},${-0.35 * r} ${r},${-0.35 * r}` }, line), g);
      el("polyline", Object.assign({ points: `${-0.55 * r},${-0.85 * r} ${-0.3 * r},${-0.35 * r} 0,${r} ${0.3 * r},${-0.35 * r} ${0.55 * r},${-0.85 * r}` }, line), g);
      el("polygon", { points: `${-0.45 * r},${-0.75 * r} ${-0.1 * r},${-0.75 * r} ${-0.3 * r},${-0.45 * r}`, fill: "#fff", opacity: 0.45 }, g);
    } else if (gem === "ruby") {      // a round cut seen from above
      el("circle", { r: r * 0.95, fill: c.fill, stroke: c.dark, "stroke-width": line["stroke-width"] }, g);
      const k = 0.5 * r;
      const oct = [];
      for (let i = 0; i < 8; i++) {
        const a = (Math.PI / 4) * i + Math.PI / 8;
        oct.push(`${(k * Math.cos(a)).toFixed(2)},${(k * Math.sin(a)).toFixed(2)}`);
      }
      el("polygon", Object.assign({ points: oct.join(" ") }, line), g);
      for (let i = 0; i < 8; i++) {
        const a = (Math.PI / 4) * i + Math.PI / 8;
        el("line", Object.assign({ x1: (k * Math.cos(a)).toFixed(2), y1: (k * Math.sin(a)).toFixed(2), x2: (0.95 * r * Math.cos(a)).toFixed(2), y2: (0.95 * r * Math.sin(a)).toFixed(2) }, line), g);
      }
      el("ellipse", { cx: -0.35 * r, cy: -0.4 * r, rx: 0.22 * r, ry: 0.13 * r, fill: "#fff", opacity: 0.5, transform: `rotate(-35 ${-0.35 * r} ${-0.4 * r})` }, g);
    } else {                          // the emerald's own step cut: an octagonal rectangle
      const w = 0.85 * r, h = r, k = 0.3 * r;
      const outer = [[-w + k, -h], [w - k, -h], [w, -h + k], [w, h - k], [w - k, h], [-w + k, h], [-w, h - k], [-w, -h + k]];
      el("polygon", { points: outer.map((p) => p.join(",")).join(" "), fill: c.fill, stroke: c.dark, "stroke-width": line["stroke-width"], "stroke-linejoin": "round" }, g);
      const s = 0.55;
      el("polygon", Object.assign({ points: outer.map((p) => `${p[0] * s},${p[1] * s}`).join(" ") }, line), g);
      for (let i = 0; i < 8; i += 2) {
        el("line", Object.assign({ x1: outer[i][0], y1: outer[i][1], x2: outer[i][0] * s, y2: outer[i][1] * s }, line), g);
      }
      el("rect", { x: -0.4 * r, y: -0.45 * r, width: 0.25 * r, height: 0.5 * r, fill: "#fff", opacity: 0.4 }, g);
    }
    return g;
  }

  // A gem card (w x h, top-left at x, y): tinted face, the gem and the initial of its name (in
  // the reader's language) in two corners.
  function gemCard(parent, gem, x, y, w, h) {
    const c = GEM[gem];
    const g = el("g", { class: "gb-card", transform: `translate(${x} ${y})` }, parent);
    el("rect", { x: 0, y: 0, width: w, height: h, rx: 6, fill: "#fffdf8", stroke: c.dark, "stroke-width": 1.5 }, g);
    el("rect", { x: 3, y: 3, width: w - 6, height: h - 6, rx: 4, fill: c.light }, g);
    const inner = el("g", { transform: `translate(${w / 2} ${h / 2 + 1})` }, g);
    gemShape(inner, gem, Math.min(w, h) * 0.3);
    const letter = initial(gemName(gem));
    txt(g, 6, 13, letter, { class: "gb-card-letter", fill: c.dark });
    txt(g, w - 6, h - 5, letter, { class: "gb-card-letter", fill: c.dark, "text-anchor": "end" });
    return g;
  }

  function coin(parent, x, y, r) {
    const g = el("g", { transform: `translate(${x} ${y})` }, parent);
    el("circle", { r, fill: "#e9b93a", stroke: "#8a6410", "stroke-width": 1.5 }, g);
    el("circle", { r: r * 0.72, fill: "none", stroke: "#8a6410", "stroke-width": 0.8, opacity: 0.7 }, g);
    txt(g, 0, r * 0.38, initial(t("grands")), { "text-anchor": "middle", "font-size": r * 1.05, "font-weight": 700, fill: "#6b4c08" });
    return g;
  }

  function star(parent, r) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (Math.PI / 5) * i;
      const rr = i % 2 ? r * 0.45 : r;
      pts.push(`${(rr * Math.cos(a)).toFixed(2)},${(rr * Math.sin(a)).toFixed(2)}`);
    }
    el("polygon", { points: pts.join(" "), fill: "#f2c230", stroke: "#8a6410", "stroke-width": 1.2 }, parent);
  }

  function crown(parent, r) {
    el("path", { d: `M${-r},${r * 0.6} L${-r},${-r * 0.4} L${-r * 0.5},${r * 0.1} L0,${-r * 0.7} L${r * 0.5},${r * 0.1} L${r},${-r * 0.4} L${r},${r * 0.6} Z`, fill: "#f2c230", stroke: "#8a6410", "stroke-width": 1.5, "stroke-linejoin": "round" }, parent);
  }

  // ---- what the parts of the board share ------------------------------------------------------

  // What the face-down deck still holds for each gem: how many cards raise, keep, lower it.
  function deckOutlook(obs) {
    const out = {};
    GEMS.forEach((g) => { out[g] = { up: 0, same: 0, down: 0 }; });
    for (const card of obs.price_cards_left || []) {
      const parts = card.split(/\s+/);
      GEMS.forEach((g, i) => {
        const d = parseInt(parts[i], 10) || 0;
        if (d > 0) out[g].up++; else if (d < 0) out[g].down++; else out[g].same++;
      });
    }
    return out;
  }

  function isMyTurn(view) {
    return view.viewer !== null && view.viewer !== undefined && view.to_move === view.viewer && (view.legal || []).length > 0;
  }

  function canPlay(view, kind, gem) {
    return isMyTurn(view) && view.legal.some((m) => m.move.kind === kind && (!gem || m.move.gem === gem));
  }

  // the viewer's own seat while the game runs: its money, hand and End turn go to the dock
  function ownSeat(view, obs) {
    if (obs.terminal || view.viewer === null || view.viewer === undefined) return null;
    return obs.players.find((p) => p.seat === view.viewer) || null;
  }

  // the seats drawn on the board: the others, clockwise from the viewer (everyone when the
  // viewer watches or the game is over)
  function boardSeats(view, obs) {
    const me = obs.players.findIndex((p) => p.seat === view.viewer);
    const players = me > 0 ? obs.players.slice(me).concat(obs.players.slice(0, me)) : obs.players;
    return ownSeat(view, obs) ? players.filter((p) => p.seat !== view.viewer) : players;
  }

  // a winner's share of the victory (0 for the others and while the game runs)
  function wonShare(view, obs, seat) {
    const returns = obs.returns || (view.result && view.result.returns) || null;
    if (!obs.terminal || !returns) return 0;
    const best = Math.max(...returns);
    return returns[seat] === best && best > 0 ? returns[seat] : 0;
  }

  // the last card in words: "sapphire +1, ruby unchanged, emerald −1"
  function cardWords(card) {
    const parts = card.split(/\s+/);
    return GEMS.map((g, i) => (parts[i] === "0" ? t("{gem} unchanged", { gem: gemName(g) })
      : t("{gem} {change}", { gem: gemName(g), change: parts[i] }))).join(", ");
  }

  function lastCardLabel(obs) {
    return obs.last_card ? t("Last price card: {changes}", { changes: cardWords(obs.last_card) })
      : t("No price card revealed yet");
  }

  function stallLabel(obs, gem) {
    return t("Bazaar: {count} left at {price} grands a card", { count: gemWord(obs.bazaar[gem], gem), price: obs.prices[gem] });
  }

  // under a stall: "just sold" / "just bought" (no wash trades this round), else "of 10"
  function stallTag(parent, obs, gem, x, y, max) {
    const turn = obs.this_turn || { bought: [], sold: [] };
    const trading = !obs.terminal && obs.to_move >= 0;
    if (trading && turn.sold.includes(gem)) {
      fitText(parent, x, y, t("just sold"), { class: "gb-tag down" }, max, 7).appendChild(
        titleOf(t("This turn {gem} cards were sold: they cannot be bought back this round.", { gem: gemName(gem) })));
    } else if (trading && turn.bought.includes(gem)) {
      fitText(parent, x, y, t("just bought"), { class: "gb-tag up" }, max, 7).appendChild(
        titleOf(t("This turn {gem} cards were bought: they cannot be sold this round.", { gem: gemName(gem) })));
    } else {
      txt(parent, x, y, t("of {n}", { n: 10 }), { class: "gb-small" });
    }
  }

  // the stack of a gem's cards left in the bazaar, inside a stall at (x, y)
  function stallStack(stack, gem, left, x, y, w, h) {
    if (left === 0) {
      el("rect", { x, y, width: w, height: h, rx: 6, fill: "none", stroke: GEM[gem].dark, "stroke-dasharray": "5 4", "stroke-width": 1.5 }, stack);
      fitText(stack, x + w / 2, y + h / 2 + 4, t("sold out"), { "text-anchor": "middle", class: "gb-tiny" }, w - 4, 6.5);
    }
    for (let k = Math.min(left, 5) - 1; k >= 0; k--) gemCard(stack, gem, x + k * 4, y - k * 3 + 8, w, h);
  }

  function outlookText(obs, gem, outlook) {
    const o = outlook[gem];
    const node = document.createElementNS(SVGNS, "tspan");
    node.textContent = `${o.up}▲ ${o.same}= ${o.down}▼`;
    return [node, titleOf(t("Price cards left for {gem}: {up} raise it, {same} leave it, {down} lower it", { up: o.up, same: o.same, down: o.down, gem: gemName(gem) }))];
  }

  // The price marker of a gem on its track of 19 cells (x0, cell wide, at y): a key, marked
  // when a price card moves it.
  function priceMarker(g, gem, price, x0, cell, y, w, h, r) {
    const c = GEM[gem];
    const mx = x0 + (price - 1) * cell + cell / 2;
    const words = t("{gem}: {price} grands a card", { gem: cap(gemName(gem)), price });
    const marker = keyed(g, "price-" + gem, [mx - w / 2, y, w, h, 5], { "aria-label": words, role: "img" });
    el("rect", { x: mx - w / 2, y, width: w, height: h, rx: 5, fill: "#fff", stroke: c.dark, "stroke-width": 2 }, marker);
    gemShape(el("g", { transform: `translate(${mx} ${y + h / 2})` }, marker), gem, r);
  }

  // a seat's hand: `limit` slots of w x h from (x, y); the viewer's own cards are moves (sell)
  function drawHand(g, view, obs, p, box) {
    const [x, y, w, h, gap] = box;
    const held = [];
    GEMS.forEach((gem) => { for (let k = 0; k < (p.gems[gem] || 0); k++) held.push(gem); });
    const mine = p.seat === view.viewer && !obs.terminal;
    const name = seatName(view, p.seat);
    for (let k = 0; k < (obs.hand_limit || 4); k++) {
      const cx = x + k * (w + gap);
      if (k >= held.length) {
        el("rect", { x: cx, y, width: w, height: h, rx: 6, class: "gb-slot" }, g);
        continue;
      }
      const gem = held[k];
      if (mine) {
        const label = t("Your {gem} card", { gem: gemName(gem) });
        gemCard(keyed(g, "hand-" + gem, [cx, y, w, h, 6], { "aria-label": label }), gem, cx, y, w, h);
      } else {
        const card = gemCard(g, gem, cx, y, w, h);
        card.setAttribute("role", "img");
        card.setAttribute("aria-label", t("A {gem} card of {name}", { gem: gemName(gem), name }));
      }
    }
    return held.length;
  }

  // the last line of a seat's panel: this turn's trades, the value at the end, or the result
  function seatLine(view, obs, p, won) {
    const count = gemCount(p.gems);
    if (obs.terminal) {
      const paid = count ? tn("incl. {n} gem × 10", "incl. {n} gems × 10", count) : t("no gems to pay out");
      if (!won) return paid;
      return won >= 1 ? t("winner · {rest}", { rest: paid }) : t("shared win · {rest}", { rest: paid });
    }
    if (obs.to_move === p.seat && obs.this_turn) return tradesLine(obs.this_turn) || t("no trade yet this turn");
    return count ? t("with gems paid 10 each: {total}", { total: p.grands + 10 * count }) : "";
  }

  function tradesLine(turn) {
    const parts = [];
    if (turn.bought.length) parts.push(t("bought {gems}", { gems: turn.bought.map(gemName).join(", ") }));
    if (turn.sold.length) parts.push(t("sold {gems}", { gems: turn.sold.map(gemName).join(", ") }));
    return parts.join("; ");
  }

  // a seat's name line: its colour, number (from 1), name, the start player's star, the mover
  function seatHead(g, view, obs, p, w, nameMax) {
    const seat = p.seat;
    el("circle", { cx: 24, cy: 21, r: 11, fill: seatColour(seat), stroke: "#fff", "stroke-width": 2 }, g);
    txt(g, 24, 25.5, String(seat + 1), { "text-anchor": "middle", class: "gb-badge" });
    const name = seatName(view, seat);
    const maxChars = Math.max(4, Math.floor(nameMax / 8.6));
    txt(g, 42, 27, name.length > maxChars ? name.slice(0, maxChars - 1) + "…" : name, { class: "gb-name" }).appendChild(titleOf(name));
    const won = wonShare(view, obs, seat);
    if (won) crown(el("g", { transform: `translate(${w} 22)`, role: "img", "aria-label": won >= 1 ? t("winner") : t("shared victory") }, g), 12);
    else if (obs.round > 0 && !obs.terminal && obs.start_player === seat) {
      star(el("g", { transform: `translate(${w} 21)`, role: "img", "aria-label": t("Start player of this round") }, g), 10);
    }
    if (!obs.terminal && obs.to_move === seat) txt(g, w - 16, 27, "▶", { class: "gb-mover", "text-anchor": "end" });
    return won;
  }

  function seatMoney(g, p, x, y, r) {
    coin(g, x, y - 7, r);
    const mt = txt(g, x + 18, y, "", { class: "gb-money" });
    el("tspan", {}, mt).textContent = String(p.grands);
    el("tspan", { class: "gb-unit", dx: 4 }, mt).textContent = t("grands");
  }

  function seatGroup(svg, obs, p, x, y, view) {
    const moving = !obs.terminal && obs.to_move === p.seat;
    return el("g", { transform: `translate(${x} ${y})`, class: "gb-seat" + (moving ? " moving" : "") + (p.seat === view.viewer ? " me" : "") }, svg);
  }

  // ---- the wide board (tablets, laptops): the bazaar and the price cards side by side ---------
  const WIDE = { w: 1100, head: 56, market: 344, seatH: 164, seatGap: 12 };

  function drawHeader(svg, view, obs, x0, step) {
    const round = obs.round || 0, rounds = obs.rounds || 27;
    fitText(svg, 24, 34, roundTitle(obs), { class: "gb-title" }, x0 - 150, 13);
    // one pip per price card: filled once revealed
    fitText(svg, x0 - 12, 34, t("price cards"), { class: "gb-small", "text-anchor": "end" }, 110, 7.5);
    const shown = t("{n} of {rounds} price cards revealed", { n: round, rounds });
    const pips = el("g", { "aria-label": shown, role: "img" }, svg);
    for (let i = 0; i < rounds; i++) {
      el("rect", { x: x0 + i * step, y: 18, width: step - 6, height: 20, rx: 3, class: i < round ? "gb-pip done" : "gb-pip" }, pips);
      if (i === round - 1 && !obs.terminal) el("rect", { x: x0 + i * step - 2, y: 16, width: step - 2, height: 24, rx: 4, fill: "none", stroke: "#222", "stroke-width": 1.5 }, pips);
    }
  }

  function roundTitle(obs) {
    const round = obs.round || 0, rounds = obs.rounds || 27;
    if (obs.terminal) return t("Game over ({rounds} rounds)", { rounds });
    return round === 0 ? t("Before the first card") : t("Round {round} of {rounds}", { round, rounds });
  }

  // one gem's row: its stall (a move: buy one), its price track, the price and the outlook
  function drawGemWide(g, obs, gem, y, outlook) {
    const c = GEM[gem], price = obs.prices[gem], left = obs.bazaar[gem];
    const stack = keyed(g, "bazaar-" + gem, [26, y - 2, 174, 88, 8], { "aria-label": stallLabel(obs, gem) });
    el("rect", { x: 26, y: y - 2, width: 174, height: 88, rx: 8, fill: c.light, opacity: 0.55 }, stack);
    stallStack(stack, gem, left, 34, y, 50, 68);
    fitText(stack, 104, y + 26, cap(gemName(gem)), { class: "gb-gemname", fill: c.dark }, 94, 10);
    fitText(stack, 104, y + 50, tn("{n} left", "{n} left", left), { class: "gb-count" }, 94, 9.5);
    stallTag(stack, obs, gem, 104, y + 70, 94);
    const trackX = 214, cell = 26;
    const track = el("g", { role: "img", "aria-label": t("{gem}: {price} grands a card", { gem: cap(gemName(gem)), price }) }, g);
    for (let p = MIN_PRICE; p <= MAX_PRICE; p++) {
      const x = trackX + (p - 1) * cell;
      el("rect", { x, y: y + 14, width: cell - 3, height: 40, rx: 4, class: p === START ? "gb-cell start" : "gb-cell" }, track);
      txt(track, x + (cell - 3) / 2, y + 72, String(p), { class: p === price ? "gb-tick now" : "gb-tick", "text-anchor": "middle" });
    }
    el("rect", { x: trackX, y: y + 30, width: (price - 1) * cell + (cell - 3) / 2, height: 8, rx: 4, fill: c.fill, opacity: 0.35 }, track);
    priceMarker(g, gem, price, trackX - 1.5, cell, y + 8, 34, 52, 13);
    const pt = txt(g, 762, y + 46, "", { class: "gb-price", fill: c.dark, "text-anchor": "middle" });
    el("tspan", {}, pt).textContent = String(price);
    el("tspan", { class: "gb-unit", dx: 2 }, pt).textContent = initial(t("grands"));
    if (!obs.terminal && obs.price_cards_left) {
      const o = txt(g, 762, y + 70, "", { class: "gb-tiny", "text-anchor": "middle" });
      o.append(...outlookText(obs, gem, outlook));
    }
  }

  function drawMarketWide(svg, obs, y0) {
    const outlook = deckOutlook(obs);
    const g = el("g", { transform: `translate(0 ${y0})` }, svg);
    el("rect", { x: 12, y: 0, width: 800, height: WIDE.market, rx: 14, class: "gb-panel" }, g);
    fitText(g, 32, 28, t("The bazaar"), { class: "gb-h2" }, 160, 10.5);
    fitText(g, 214, 28, t("price board (grands)"), { class: "gb-small" }, 300, 7.5);
    GEMS.forEach((gem, i) => drawGemWide(g, obs, gem, 42 + i * 102, outlook));
  }

  // the last price card: three gems and their changes, in a box of w x h at (x, y)
  function lastCard(g, obs, box, across) {
    const [x, y, w, h] = box;
    const card = keyed(g, "card", [x, y, w, h, 10], { role: "img", "aria-label": lastCardLabel(obs) });
    el("rect", { x, y, width: w, height: h, rx: 10, fill: "#fffdf5", stroke: "#6b5a3a", "stroke-width": 2 }, card);
    if (!obs.last_card) {
      fitText(card, x + w / 2, y + h / 2 + 5, t("none yet"), { class: "gb-small", "text-anchor": "middle" }, w - 8, 7.5);
      return;
    }
    const parts = obs.last_card.split(/\s+/);
    GEMS.forEach((gem, i) => {
      const d = parseInt(parts[i], 10) || 0;
      const sym = d > 0 ? "+1" : d < 0 ? "−1" : "0";
      const cls = "gb-change " + (d > 0 ? "up" : d < 0 ? "down" : "same");
      if (across) {  // three columns: the gem over its change
        const cx = x + (w / 3) * (i + 0.5);
        gemShape(el("g", { transform: `translate(${cx} ${y + 17})` }, card), gem, 10);
        txt(card, cx, y + h - 9, sym, { class: cls, "text-anchor": "middle" });
      } else {       // three lines: the gem, then its change
        const yy = y + 28 + i * 44;
        gemShape(el("g", { transform: `translate(${x + 28} ${yy})` }, card), gem, 14);
        txt(card, x + w - 18, yy + 9, sym, { class: cls, "text-anchor": "end" });
      }
    });
  }

  // the face-down deck at (x, y): its backs and how many cards are left
  function deckBacks(g, obs, x, y, w, h) {
    const left = (obs.price_cards_left || []).length;
    const deck = el("g", { transform: `translate(${x} ${y})`, class: "gb-deck", role: "img", "aria-label": tn("{n} price card face down", "{n} price cards face down", left) }, g);
    const layers = Math.min(left, 5);
    for (let k = layers - 1; k >= 0; k--) {
      el("rect", { x: k * 3, y: -k * 3 + 12, width: w, height: h, rx: 8, class: "gb-back" }, deck);
    }
    if (layers) txt(deck, w / 2, 12 + h / 2 + 10, String(left), { "text-anchor": "middle", class: "gb-deckcount" });
    else {
      el("rect", { x: 0, y: 12, width: w, height: h, rx: 8, fill: "none", stroke: "#9a8a6a", "stroke-dasharray": "5 4" }, deck);
      fitText(deck, w / 2, 12 + h / 2 + 4, t("empty"), { "text-anchor": "middle", class: "gb-small" }, w - 6, 8.5);
    }
  }

  // what the hidden cards add up to for each gem (10 - price), `dx` apart from (x, y)
  function stillToCome(g, obs, x, y, dx, dy) {
    GEMS.forEach((gem, i) => {
      const gx = x + i * dx, gy = y + i * dy;
      gemShape(el("g", { transform: `translate(${gx + 9} ${gy - 6})` }, g), gem, 9);
      const net = START - obs.prices[gem];
      txt(g, gx + 24, gy, (net > 0 ? "+" : net < 0 ? "−" : "±") + Math.abs(net), { class: "gb-net " + (net > 0 ? "up" : net < 0 ? "down" : "same") });
    });
  }

  function drawCardsWide(svg, obs, y0) {
    const g = el("g", { transform: `translate(828 ${y0})` }, svg);
    el("rect", { x: 0, y: 0, width: 260, height: WIDE.market, rx: 14, class: "gb-panel" }, g);
    fitText(g, 20, 28, t("Price cards"), { class: "gb-h2" }, 220, 10.5);
    lastCard(g, obs, [20, 44, 104, 150], false);
    fitText(g, 72, 216, t("last revealed"), { class: "gb-small", "text-anchor": "middle" }, 118, 7.5);
    deckBacks(g, obs, 140, 38, 92, 150);
    fitText(g, 190, 216, t("face down"), { class: "gb-small", "text-anchor": "middle" }, 118, 7.5);
    if (obs.terminal) return;
    fitText(g, 20, 262, t("Still to come, in total:"), { class: "gb-small" }, 225, 7.5);
    stillToCome(g, obs, 20, 296, 80, 0);
  }

  // The seats on the board (the others' money and hands), up to four a row.
  function drawSeatsWide(svg, view, obs, seats, y0) {
    const n = seats.length, W = WIDE.w;
    const perRow = n <= 4 ? n : Math.ceil(n / 2);
    const w = Math.min(330, (W - 24 - WIDE.seatGap * (perRow - 1)) / perRow);
    seats.forEach((p, i) => {
      const row = Math.floor(i / perRow), col = i % perRow;
      const inRow = row === 0 ? Math.min(perRow, n) : n - perRow;
      const x = (W - (inRow * w + (inRow - 1) * WIDE.seatGap)) / 2 + col * (w + WIDE.seatGap);
      const g = seatGroup(svg, obs, p, x, y0 + row * (WIDE.seatH + WIDE.seatGap), view);
      el("rect", { x: 0, y: 0, width: w, height: WIDE.seatH, rx: 12, class: "gb-seatbox" }, g);
      el("rect", { x: 0, y: 0, width: 8, height: WIDE.seatH, rx: 4, fill: seatColour(p.seat) }, g);
      const won = seatHead(g, view, obs, p, w - 22, w - 96);
      seatMoney(g, p, 28, 64, 13);
      const count = drawHand(g, view, obs, p, [16, 76, CARD_W, CARD_H, CARD_GAP]);
      txt(g, w - 16, 64, t("{held}/{limit} gems", { held: count, limit: obs.hand_limit || 4 }), { class: "gb-small", "text-anchor": "end" });
      const moving = !obs.terminal && obs.to_move === p.seat;
      fitText(g, 16, WIDE.seatH - 8, seatLine(view, obs, p, won), { class: moving ? "gb-turnline" : won ? "gb-winline" : "gb-tiny" }, w - 28, 7.3);
    });
    const rows = n <= perRow ? 1 : 2;
    return rows * WIDE.seatH + (rows - 1) * WIDE.seatGap;
  }

  function drawWide(wrap, view, obs) {
    const seats = boardSeats(view, obs);
    const yMarket = WIDE.head, ySeats = yMarket + WIDE.market + 12;
    const rows = seats.length <= 4 ? 1 : 2;
    const height = ySeats + (seats.length ? rows * WIDE.seatH + (rows - 1) * WIDE.seatGap : 0) + 12;
    const svg = boardSvg(wrap, WIDE.w, height);
    drawHeader(svg, view, obs, 562, 19);
    drawMarketWide(svg, obs, yMarket);
    drawCardsWide(svg, obs, yMarket);
    drawSeatsWide(svg, view, obs, seats, ySeats);
  }

  // ---- the narrow board (phones): one column, every gem's row across the screen --------------
  const NARROW = { w: 400, head: 34, row: 84, cards: 100, seatH: 72, gap: 6 };

  function drawGemNarrow(svg, obs, gem, y, outlook) {
    const c = GEM[gem], price = obs.prices[gem], left = obs.bazaar[gem];
    const stack = keyed(svg, "bazaar-" + gem, [6, y + 3, 140, 76, 8], { "aria-label": stallLabel(obs, gem) });
    el("rect", { x: 6, y: y + 3, width: 140, height: 76, rx: 8, fill: c.light, opacity: 0.55 }, stack);
    stallStack(stack, gem, left, 12, y + 8, 40, 56);
    fitText(stack, 68, y + 26, cap(gemName(gem)), { class: "gb-gemname", fill: c.dark }, 74, 10);
    fitText(stack, 68, y + 50, tn("{n} left", "{n} left", left), { class: "gb-count" }, 74, 9.5);
    stallTag(stack, obs, gem, 68, y + 70, 74);
    // the price, the deck's outlook for it, and the track of 19 cells under them
    const x0 = 156, cell = (NARROW.w - 6 - x0) / 19;
    const pt = txt(svg, x0, y + 33, "", { class: "gb-price", fill: c.dark });
    el("tspan", {}, pt).textContent = String(price);
    el("tspan", { class: "gb-unit", dx: 2 }, pt).textContent = initial(t("grands"));
    if (!obs.terminal && obs.price_cards_left) {
      const o = txt(svg, NARROW.w - 8, y + 28, "", { class: "gb-small", "text-anchor": "end" });
      o.append(...outlookText(obs, gem, outlook));
    }
    const track = el("g", { role: "img", "aria-label": t("{gem}: {price} grands a card", { gem: cap(gemName(gem)), price }) }, svg);
    for (let p = MIN_PRICE; p <= MAX_PRICE; p++) {
      el("rect", { x: x0 + (p - 1) * cell + 1, y: y + 48, width: cell - 2, height: 16, rx: 3, class: p === START ? "gb-cell start" : "gb-cell" }, track);
    }
    el("rect", { x: x0, y: y + 53, width: (price - 0.5) * cell, height: 6, rx: 3, fill: c.fill, opacity: 0.35 }, track);
    // landmarks only (the price itself is written large above): the ends and the start
    for (const p of [MIN_PRICE, START, MAX_PRICE]) {
      if (Math.abs(p - price) > 1) txt(track, x0 + (p - 0.5) * cell, y + 78, String(p), { class: "gb-tick", "text-anchor": "middle" });
    }
    priceMarker(svg, gem, price, x0, cell, y + 41, 22, 30, 8);
  }

  function drawCardsNarrow(svg, obs, y) {
    const g = el("g", { transform: `translate(0 ${y})` }, svg);
    el("rect", { x: 6, y: 0, width: NARROW.w - 12, height: NARROW.cards - 6, rx: 10, class: "gb-panel" }, g);
    fitText(g, 16, 20, t("Price cards"), { class: "gb-h3" }, 150, 8);
    lastCard(g, obs, [16, 28, 150, 56], true);
    fitText(g, 206, 20, t("face down"), { class: "gb-tiny", "text-anchor": "middle" }, 64, 6.2);
    deckBacks(g, obs, 182, 28, 44, 54);
    if (obs.terminal) return;
    fitText(g, 248, 20, t("Still to come, in total:"), { class: "gb-tiny" }, 140, 6.2);
    stillToCome(g, obs, 252, 44, 0, 20);
  }

  function drawSeatNarrow(svg, view, obs, p, y) {
    const w = NARROW.w - 12, h = NARROW.seatH;
    const g = seatGroup(svg, obs, p, 6, y, view);
    el("rect", { x: 0, y: 0, width: w, height: h, rx: 10, class: "gb-seatbox" }, g);
    el("rect", { x: 0, y: 0, width: 7, height: h, rx: 3, fill: seatColour(p.seat) }, g);
    const cw = 32, ch = 46, gap = 4, hx = w - 8 - 4 * (cw + gap) + gap;
    const won = seatHead(g, view, obs, p, hx - 14, hx - 70);
    seatMoney(g, p, 24, 49, 9);
    drawHand(g, view, obs, p, [hx, (h - ch) / 2, cw, ch, gap]);
    const moving = !obs.terminal && obs.to_move === p.seat;
    fitText(g, 12, h - 6, seatLine(view, obs, p, won), { class: moving ? "gb-turnline" : won ? "gb-winline" : "gb-tiny" }, hx - 20, 6.4);
  }

  function drawNarrow(wrap, view, obs) {
    const seats = boardSeats(view, obs);
    const ySeats = NARROW.head + 3 * NARROW.row + NARROW.cards;
    const height = ySeats + seats.length * (NARROW.seatH + NARROW.gap) + 2;
    const svg = boardSvg(wrap, NARROW.w, height);
    fitText(svg, 12, 24, roundTitle(obs), { class: "gb-h2" }, 230, 10);
    const round = obs.round || 0, rounds = obs.rounds || 27;
    fitText(svg, NARROW.w - 10, 24, t("{n} of {rounds} price cards revealed", { n: round, rounds }), { class: "gb-tiny", "text-anchor": "end" }, 150, 6.2);
    const outlook = deckOutlook(obs);
    GEMS.forEach((gem, i) => drawGemNarrow(svg, obs, gem, NARROW.head + i * NARROW.row, outlook));
    drawCardsNarrow(svg, obs, NARROW.head + 3 * NARROW.row);
    seats.forEach((p, i) => drawSeatNarrow(svg, view, obs, p, ySeats + i * (NARROW.seatH + NARROW.gap)));
  }

  function boardSvg(wrap, width, height) {
    const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "gb-board", role: "group", "aria-label": t("Grand Bazaar board") });
    wrap.appendChild(svg);
    el("rect", { x: 0, y: 0, width, height, rx: 14, class: "gb-bg" }, svg);
    return svg;
  }

  // ---- the dock: what a turn needs, kept in sight under the board ---------------------------

  // the prompt: what is happening, and on your turn what you must or may do
  function statusLines(view, obs) {
    if (obs.terminal) return [t("Game over: every gem still held was paid 10 grands."), ""];
    if (view.status === "open") return [t("Waiting for players to take their seats."), ""];
    if (obs.to_move < 0) return [t("A price card is being revealed…"), ""];
    if (!isMyTurn(view)) return [t("{name} is trading.", { name: seatName(view, obs.to_move) }), ""];
    const turn = obs.this_turn || { bought: [], sold: [] };
    const main = turn.bought.length ? t("Your turn: buy or sell more, or end your turn.")
      : obs.round >= 2 ? t("Your turn: you must buy at least one gem (sell first if you need to).")
        : t("Your turn: you must buy at least one gem.");
    const traded = tradesLine(turn);
    if (traded) return [main, t("This turn: {trades}.", { trades: traded })];
    return [main, obs.round >= 2 ? t("Click a stack in the bazaar to buy, a card in your hand to sell.")
      : t("Click a stack in the bazaar to buy.")];
  }

  const html = (tag, cls, text) => T.html(tag, cls, null, text);

  // your money, how full your hand is, your cards (sell one) and End turn
  function drawOwn(view, obs, p, narrow) {
    const box = html("div", "gb-own");
    box.style.setProperty("--gb-seat", seatColour(p.seat));
    const purse = html("div", "gb-purse");
    purse.setAttribute("aria-label", tn("{n} grand", "{n} grands", p.grands));
    const money = html("span", "gb-purse-line");
    money.append(html("span", "gb-purse-money", String(p.grands)), " ", html("span", "gb-purse-unit", t("grands")));
    const held = gemCount(p.gems), limit = obs.hand_limit || 4;
    purse.append(money, html("span", "gb-purse-held", t("{held}/{limit} gems", { held, limit })));
    const [w, h, gap, pad] = narrow ? [38, 52, 5, 6] : [46, 62, 8, 6];
    const width = limit * (w + gap) - gap + 2 * pad, height = h + 2 * pad;
    const hand = el("svg", { class: "gb-hand", viewBox: `${-pad} ${-pad} ${width} ${height}`, width, height, role: "group", "aria-label": t("Your hand") });
    drawHand(hand, view, obs, p, [0, 0, w, h, gap]);
    box.append(purse, hand);
    if (isMyTurn(view)) {
      const end = html("button", "gb-end" + (canPlay(view, "end_turn") ? "" : " off"), t("End turn"));
      end.type = "button";
      end.setAttribute("data-key", "end");
      end.setAttribute("aria-label", t("End your turn"));
      box.append(end);
    }
    return box;
  }

  function drawDock(view, obs, narrow) {
    const box = html("div", "tl-gb gb-dock" + (narrow ? " gb-narrow" : ""));
    box.setAttribute("data-dock", "");
    const [main, help] = statusLines(view, obs);
    const prompt = html("p", "gb-prompt");
    prompt.append(html("strong", "", main));
    if (help) prompt.append(" ", html("span", "gb-help", help));
    box.append(prompt);
    const own = ownSeat(view, obs);
    if (own) box.append(drawOwn(view, obs, own, narrow));
    return box;
  }

  // ---- the extras: the deck's table and the rules of prices, to read below -------------------
  function drawExtras(obs) {
    const box = html("section", "tl-gb gb-extras");
    box.setAttribute("data-extra", "");
    box.append(html("h3", "", t("Price cards still face down")));
    const outlook = deckOutlook(obs);
    const table = html("table", "gb-outlook");
    const head = html("tr");
    for (const word of [t("Gem"), t("Price"), t("raise it"), t("keep it"), t("lower it"), t("in total")]) head.append(html("th", "", word));
    table.append(html("thead"), html("tbody"));
    table.tHead.append(head);
    GEMS.forEach((gem) => {
      const o = outlook[gem], net = START - obs.prices[gem];
      const row = html("tr");
      row.append(html("th", "gb-gemcell", cap(gemName(gem))));
      for (const v of [obs.prices[gem], `${o.up} ▲`, `${o.same} =`, `${o.down} ▼`, (net > 0 ? "+" : net < 0 ? "−" : "±") + Math.abs(net)]) {
        row.append(html("td", "num", String(v)));
      }
      table.tBodies[0].append(row);
    });
    box.append(table);
    box.append(html("p", "gb-note", t("The changes left in the deck sum to\n10 − price for each gem: every price\nends the game back at 10.").split("\n").join(" ")));
    box.append(html("p", "gb-note", t("Every price starts and ends at 10, when each gem held pays 10.   ▲ = ▼: price cards left that raise, keep, lower it.")));
    return box;
  }

  // ---- the renderer ---------------------------------------------------------------------------
  // the layout follows the frame's width (the screen's), not the zoomed content's: zooming in
  // enlarges the same board. Below 800 px (phones, tablets held upright) the one-column board
  // is the larger at fit: the side-by-side one would be drawn at 0.65 px a unit or less.
  const NARROW_BELOW = 800;  // px
  function frameWidth(root) {
    const frame = document.getElementById("board");
    return (frame && frame.clientWidth) || root.clientWidth || 1000;
  }

  function draw(root, view) {
    const obs = view.observation;
    const narrow = frameWidth(root) < NARROW_BELOW;
    const wrap = html("div", "tl-gb gb-wrap" + (narrow ? " gb-narrow" : ""));
    root.appendChild(wrap);
    if (narrow) drawNarrow(wrap, view, obs); else drawWide(wrap, view, obs);
    root.appendChild(drawDock(view, obs, narrow));
    if (!obs.terminal && (obs.price_cards_left || []).length) root.appendChild(drawExtras(obs));
  }

  function keys(move) {
    switch (move.kind) {
      case "buy": return ["bazaar-" + move.gem];
      case "sell": return ["hand-" + move.gem];
      case "end_turn": return ["end"];
      case "reveal": return ["reveal-" + move.card];
      default: return [move.kind];
    }
  }

  // A pick key in plain words, with the price where it has one (the shell shows the picked
  // path with it and names the clickable pieces with it for screen readers).
  function label(key, view) {
    const bazaar = keyGem(key, "bazaar-"), hand = keyGem(key, "hand-"), marker = keyGem(key, "price-");
    const gem = bazaar || hand || marker;
    const fields = { gem: gem && gemName(gem), price: gem && view.observation.prices[gem] };
    if (bazaar) return t("the {gem} cards in the bazaar, {price} grands each", fields);
    if (hand) return t("your {gem} card, worth {price} grands now", fields);
    if (marker) return t("the {gem} price, {price} grands", fields);
    if (key === "end") return t("the end of your turn");
    if (key === "card") return t("the last price card");
    return t("a price card");
  }

  // The notation of the move meant by a click on `key` when it is not pickable: the server
  // answers why that move is not allowed now ("selling is allowed from round 2 on"). A price
  // marker means buying that gem at that price; the face-up card, revealing a price card (the
  // engine: "no price card is due now").
  function attempt(path, key, view) {
    if (view.viewer === null || view.viewer === undefined) return null;  // a spectator: no move
    const obs = view.observation;
    const buy = keyGem(key, "bazaar-") || keyGem(key, "price-"), hand = keyGem(key, "hand-");
    if (buy) return "buy " + buy;
    if (hand) return "sell " + hand;
    if (key === "end") return "end turn";
    const card = obs.last_card || (obs.price_cards_left || [])[0];
    if (key === "card" && card) return "reveal " + card;
    return null;
  }

  // the board elements a seat's last move changed: the stack it traded with (an ended turn:
  // every stack it traded with), or the price card and the prices it moved
  function lastMoveKeys(move) {
    if (move.kind === "buy" || move.kind === "sell") return ["bazaar-" + move.gem];
    if (move.kind === "end_turn") {
      const traded = [...(move.bought || []), ...(move.sold || [])];
      return GEMS.filter((g) => traded.includes(g)).map((g) => "bazaar-" + g);
    }
    if (move.kind === "reveal") {
      const changes = move.changes || {};
      return ["card", ...GEMS.filter((g) => changes[g]).map((g) => "price-" + g)];
    }
    return [];
  }

  function result(view) {
    const obs = view.observation;
    const res = view.result || {};
    const scores = res.scores || view.scores || obs.players.map((p) => p.grands);
    const returns = res.returns || obs.returns || [];
    const order = obs.players.map((p) => p.seat).sort((a, b) => scores[b] - scores[a] || a - b);
    const best = Math.max(...scores);
    const winners = order.filter((s) => scores[s] === best);
    const strong = (s) => `<strong>${esc(s)}</strong>`;
    let head;
    if (winners.length === 1) {
      const second = order.find((s) => scores[s] < best);
      const fields = { name: strong(seatName(view, winners[0])), best: strong(best) };
      head = second === undefined ? t("{name} wins with {best} grands.", fields)
        : t("{name} wins with {best} grands (next: {next}, {score}).",
          Object.assign(fields, { next: esc(seatName(view, second)), score: scores[second] }));
    } else {
      head = t("Shared victory: {names} each have {best} grands. Grand Bazaar has no tie-break: tied players share the win (1/{k} each).",
        { names: winners.map((s) => strong(seatName(view, s))).join(", "), best: strong(best), k: winners.length });
    }
    let rows = "";
    order.forEach((s) => {
      const rank = 1 + order.filter((x) => scores[x] > scores[s]).length;
      const p = obs.players.find((q) => q.seat === s);
      const gems = gemCount(p.gems);
      const held = GEMS.filter((g) => p.gems[g]).map((g) => gemWord(p.gems[g], g)).join(", ");
      const share = returns[s];
      const word = share >= 1 ? t("winner") : share > 0 ? t("shared win ({share})", { share: +share.toFixed(2) }) : "";
      const sub = gems ? t("incl. {gems}: +{paid}", { gems: esc(held), paid: gems * 10 }) : t("no gems held at the end");
      rows += `<tr${share > 0 ? ' class="gb-win-row"' : ""}><td>${rank}</td>` +
        `<td><span class="gb-dot" style="background:${seatColour(s)}">${s + 1}</span>${esc(seatName(view, s))}` +
        (word ? ` <span class="gb-badge">${esc(word)}</span>` : "") +
        `<div class="gb-sub">${sub}</div></td><td class="num">${scores[s]}</td></tr>`;
    });
    // t() stays outside the template literals: the catalogue's extractor does not look inside
    const player = esc(t("player")), money = esc(t("grands"));
    const note = esc(t("After the 27th price card every price is back at 10 and each gem still held was paid 10 grands (included above); the most grands wins."));
    return `<div class="gb-result"><p>${head}</p>` +
      `<table><thead><tr><th>#</th><th>${player}</th><th class="num">${money}</th></tr></thead>` +
      `<tbody>${rows}</tbody></table><p class="gb-note">${note}</p></div>`;
  }

  T.register("grand_bazaar", { draw, keys, label, attempt, lastMoveKeys, result });
})();
