/* Grand Bazaar: the browser renderer (drawn only from the view the shell passes).
 *
 * The board: a price track per gem (1..19) with the bazaar's stack of that gem beside it, the
 * price card just revealed and what is left of the deck, one panel per seat with its grands and
 * its hand of gem cards, and an "End turn" button on your turn.
 *
 * Pick paths (data-key values), one key per move:
 *   buy a gem   -> ["bazaar-<gem>"]   the gem's stack in the bazaar
 *   sell a gem  -> ["hand-<gem>"]     a card of that gem in your own hand
 *   end turn    -> ["end"]            the board's "End turn" button
 * Keys that are no move, marked after a price card: "card" (the face-up card), "price-<gem>".
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
  const W = 1100;
  const MIN_PRICE = 1, MAX_PRICE = 19, START = 10;
  const MARKET_H = 366, SEAT_H = 180, SEAT_GAP = 12, FOOT_H = 90;
  const CARD_W = 54, CARD_H = 70, CARD_GAP = 6;  // a hand card: 32 px wide at the phone width

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

  // ---- the parts of the board ----------------------------------------------------------------

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

  function drawHeader(svg, view, obs) {
    const round = obs.round || 0, rounds = obs.rounds || 27;
    let title = t("Round {round} of {rounds}", { round, rounds });
    if (round === 0) title = t("Before the first card");
    if (obs.terminal) title = t("Game over ({rounds} rounds)", { rounds });
    fitText(svg, 24, 34, title, { class: "gb-title" }, 400, 13);
    // one pip per price card: filled once revealed
    const x0 = 562, step = 19;
    fitText(svg, x0 - 12, 34, t("price cards"), { class: "gb-small", "text-anchor": "end" }, 110, 7.5);
    const shown = t("{n} of {rounds} price cards revealed", { n: round, rounds });
    const pips = el("g", { "aria-label": shown, role: "img" }, svg);
    for (let i = 0; i < rounds; i++) {
      const done = i < round;
      el("rect", { x: x0 + i * step, y: 18, width: 13, height: 20, rx: 3, class: done ? "gb-pip done" : "gb-pip" }, pips);
      if (i === round - 1 && !obs.terminal) el("rect", { x: x0 + i * step - 2, y: 16, width: 17, height: 24, rx: 4, fill: "none", stroke: "#222", "stroke-width": 1.5 }, pips);
    }
  }

  // The stall of one gem: the stack of its cards left in the bazaar (a move: buy one).
  function drawStall(g, obs, gem, y, h) {
    const c = GEM[gem];
    const price = obs.prices[gem], left = obs.bazaar[gem];
    const label = t("Bazaar: {count} left at {price} grands a card", { count: gemWord(left, gem), price });
    const stack = keyed(g, "bazaar-" + gem, [26, y - 2, 174, h, 8], { "aria-label": label });
    el("rect", { x: 26, y: y - 2, width: 174, height: h, rx: 8, fill: c.light, opacity: 0.55 }, stack);
    if (left === 0) {
      el("rect", { x: 40, y: y + 8, width: 50, height: 68, rx: 6, fill: "none", stroke: c.dark, "stroke-dasharray": "5 4", "stroke-width": 1.5 }, stack);
      fitText(stack, 65, y + 47, t("sold out"), { "text-anchor": "middle", class: "gb-tiny" }, 46, 6.5);
    }
    for (let k = Math.min(left, 5) - 1; k >= 0; k--) gemCard(stack, gem, 34 + k * 4, y + 8 - k * 3, 50, 68);
    fitText(stack, 104, y + 26, cap(gemName(gem)), { class: "gb-gemname", fill: c.dark }, 94, 10);
    fitText(stack, 104, y + 50, tn("{n} left", "{n} left", left), { class: "gb-count" }, 94, 9.5);
    const turn = obs.this_turn || { bought: [], sold: [] };
    const trading = !obs.terminal && obs.to_move >= 0;
    if (trading && turn.sold.includes(gem)) {
      fitText(stack, 104, y + 70, t("just sold"), { class: "gb-tag down" }, 94, 7).appendChild(
        titleOf(t("This turn {gem} cards were sold: they cannot be bought back this round.", { gem: gemName(gem) })));
    } else if (trading && turn.bought.includes(gem)) {
      fitText(stack, 104, y + 70, t("just bought"), { class: "gb-tag up" }, 94, 7).appendChild(
        titleOf(t("This turn {gem} cards were bought: they cannot be sold this round.", { gem: gemName(gem) })));
    } else {
      txt(stack, 104, y + 70, t("of {n}", { n: 10 }), { class: "gb-small" });
    }
  }

  // The price track of one gem with the gem as its marker (marked when a price card moves it),
  // the price, and what the deck still holds for it.
  function drawTrack(g, obs, gem, y, outlook) {
    const c = GEM[gem], price = obs.prices[gem];
    const trackX = 214, cell = 26;
    const words = t("{gem}: {price} grands a card", { gem: cap(gemName(gem)), price });
    const track = el("g", { role: "img", "aria-label": words }, g);
    for (let p = MIN_PRICE; p <= MAX_PRICE; p++) {
      const x = trackX + (p - 1) * cell;
      el("rect", { x, y: y + 14, width: cell - 3, height: 40, rx: 4, class: p === START ? "gb-cell start" : "gb-cell" }, track);
      txt(track, x + (cell - 3) / 2, y + 72, String(p), { class: p === price ? "gb-tick now" : "gb-tick", "text-anchor": "middle" });
    }
    el("rect", { x: trackX, y: y + 30, width: (price - 1) * cell + (cell - 3) / 2, height: 8, rx: 4, fill: c.fill, opacity: 0.35 }, track);
    const mx = trackX + (price - 1) * cell + (cell - 3) / 2;
    const marker = keyed(g, "price-" + gem, [mx - 17, y + 8, 34, 52, 6], { "aria-label": words, role: "img" });
    el("rect", { x: mx - 17, y: y + 8, width: 34, height: 52, rx: 6, fill: "#fff", stroke: c.dark, "stroke-width": 2 }, marker);
    gemShape(el("g", { transform: `translate(${mx} ${y + 34})` }, marker), gem, 13);
    const pt = txt(g, 762, y + 46, "", { class: "gb-price", fill: c.dark, "text-anchor": "middle" });
    el("tspan", {}, pt).textContent = String(price);
    el("tspan", { class: "gb-unit", dx: 2 }, pt).textContent = initial(t("grands"));
    const o = outlook[gem];
    if (!obs.terminal && obs.price_cards_left) {
      txt(g, 762, y + 70, `${o.up}▲ ${o.same}= ${o.down}▼`, { class: "gb-tiny", "text-anchor": "middle" }).appendChild(
        titleOf(t("Price cards left for {gem}: {up} raise it, {same} leave it, {down} lower it", { up: o.up, same: o.same, down: o.down, gem: gemName(gem) })));
    }
  }

  function drawMarket(svg, view, obs, y0) {
    const outlook = deckOutlook(obs);
    const rowH = 104;
    const g = el("g", { transform: `translate(0 ${y0})` }, svg);
    el("rect", { x: 12, y: 0, width: 800, height: MARKET_H, rx: 14, class: "gb-panel" }, g);
    fitText(g, 32, 28, t("The bazaar"), { class: "gb-h2" }, 160, 10.5);
    fitText(g, 214, 28, t("price board (grands)"), { class: "gb-small" }, 300, 7.5);
    GEMS.forEach((gem, i) => {
      drawStall(g, obs, gem, 42 + i * rowH, rowH - 16);
      drawTrack(g, obs, gem, 42 + i * rowH, outlook);
    });
    const note = t("Every price starts and ends at 10, when each gem held pays 10.   ▲ = ▼: price cards left that raise, keep, lower it.");
    fitText(g, 32, MARKET_H - 10, note, { class: "gb-tiny" }, 770, 6.2);
  }

  // the last card in words: "sapphire +1, ruby unchanged, emerald −1"
  function cardWords(card) {
    const parts = card.split(/\s+/);
    return GEMS.map((g, i) => (parts[i] === "0" ? t("{gem} unchanged", { gem: gemName(g) })
      : t("{gem} {change}", { gem: gemName(g), change: parts[i] }))).join(", ");
  }

  function drawCards(svg, view, obs, y0) {
    const g = el("g", { transform: `translate(828 ${y0})` }, svg);
    const w = 260;
    el("rect", { x: 0, y: 0, width: w, height: MARKET_H, rx: 14, class: "gb-panel" }, g);
    fitText(g, 20, 28, t("Price cards"), { class: "gb-h2" }, 220, 10.5);
    // the face-up card (marked when it was just revealed)
    const label = obs.last_card ? t("Last price card: {changes}", { changes: cardWords(obs.last_card) })
      : t("No price card revealed yet");
    const card = keyed(g, "card", [20, 44, 104, 150, 10], { role: "img", "aria-label": label });
    const face = el("g", { transform: "translate(20 44)" }, card);
    el("rect", { x: 0, y: 0, width: 104, height: 150, rx: 10, fill: "#fffdf5", stroke: "#6b5a3a", "stroke-width": 2 }, face);
    if (obs.last_card) {
      const parts = obs.last_card.split(/\s+/);
      GEMS.forEach((gem, i) => {
        const yy = 28 + i * 44;
        gemShape(el("g", { transform: `translate(28 ${yy})` }, face), gem, 14);
        const d = parseInt(parts[i], 10) || 0;
        const sym = d > 0 ? "+1" : d < 0 ? "−1" : "0";
        txt(face, 86, yy + 9, sym, { class: "gb-change " + (d > 0 ? "up" : d < 0 ? "down" : "same"), "text-anchor": "end" });
      });
    } else {
      fitText(face, 52, 80, t("none yet"), { class: "gb-small", "text-anchor": "middle" }, 96, 7.5);
    }
    fitText(g, 72, 212, t("last revealed"), { class: "gb-small", "text-anchor": "middle" }, 118, 7.5);
    // the face-down deck
    const left = (obs.price_cards_left || []).length;
    const deck = el("g", { transform: "translate(140 44)", role: "img", "aria-label": tn("{n} price card face down", "{n} price cards face down", left) }, g);
    const layers = Math.min(left, 6);
    for (let k = layers - 1; k >= 0; k--) {
      el("rect", { x: k * 3, y: -k * 3 + 15, width: 92, height: 130, rx: 9, class: "gb-back" }, deck);
    }
    if (layers) {
      el("rect", { x: 12, y: 27, width: 68, height: 106, rx: 6, fill: "none", stroke: "#f3e2b3", "stroke-width": 1.5 }, deck);
      txt(deck, 46, 90, String(left), { "text-anchor": "middle", class: "gb-deckcount" });
    } else {
      el("rect", { x: 0, y: 15, width: 92, height: 130, rx: 9, fill: "none", stroke: "#9a8a6a", "stroke-dasharray": "5 4" }, deck);
      fitText(deck, 46, 86, t("empty"), { "text-anchor": "middle", class: "gb-small" }, 86, 7.5);
    }
    fitText(g, 190, 212, t("face down"), { class: "gb-small", "text-anchor": "middle" }, 118, 7.5);
    // what the hidden cards add up to: 10 - price for each gem
    fitText(g, 20, 246, t("Still to come, in total:"), { class: "gb-small" }, 225, 7.5);
    GEMS.forEach((gem, i) => {
      const x = 20 + i * 80;
      gemShape(el("g", { transform: `translate(${x + 10} 270)` }, g), gem, 10);
      const net = START - obs.prices[gem];
      txt(g, x + 26, 276, (net > 0 ? "+" : net < 0 ? "−" : "±") + Math.abs(net), { class: "gb-net " + (net > 0 ? "up" : net < 0 ? "down" : "same") });
    });
    const lines = t("The changes left in the deck sum to\n10 − price for each gem: every price\nends the game back at 10.").split("\n");
    lines.slice(0, 3).forEach((line, k) => fitText(g, 20, 304 + 14 * k, line, { class: "gb-tiny" }, 228, 6.2));
  }

  // one seat's hand: four slots, your own cards are moves (sell one)
  function drawHand(g, view, obs, p, name) {
    const held = [];
    GEMS.forEach((gem) => { for (let k = 0; k < (p.gems[gem] || 0); k++) held.push(gem); });
    const limit = obs.hand_limit || 4;
    const hx = 16, hy = 84;
    const mine = p.seat === view.viewer && !obs.terminal;
    for (let k = 0; k < limit; k++) {
      const cx = hx + k * (CARD_W + CARD_GAP);
      if (k >= held.length) {
        el("rect", { x: cx, y: hy, width: CARD_W, height: CARD_H, rx: 6, class: "gb-slot" }, g);
        continue;
      }
      const gem = held[k];
      if (mine) {
        const label = t("Your {gem} card", { gem: gemName(gem) });
        gemCard(keyed(g, "hand-" + gem, [cx, hy, CARD_W, CARD_H, 6], { "aria-label": label }), gem, cx, hy, CARD_W, CARD_H);
      } else {
        const card = gemCard(g, gem, cx, hy, CARD_W, CARD_H);
        card.setAttribute("role", "img");
        card.setAttribute("aria-label", t("A {gem} card of {name}", { gem: gemName(gem), name }));
      }
    }
    return held.length;
  }

  // the last line of a seat's panel: this turn's trades, the value at the end, or the result
  function seatLine(view, obs, p, count, won, moving) {
    if (obs.terminal) {
      const paid = count ? tn("incl. {n} gem × 10", "incl. {n} gems × 10", count) : t("no gems to pay out");
      if (!won) return paid;
      return won >= 1 ? t("winner · {rest}", { rest: paid }) : t("shared win · {rest}", { rest: paid });
    }
    if (moving && obs.this_turn) {
      const turn = obs.this_turn;
      const parts = [];
      if (turn.bought.length) parts.push(t("bought {gems}", { gems: turn.bought.map(gemName).join(", ") }));
      if (turn.sold.length) parts.push(t("sold {gems}", { gems: turn.sold.map(gemName).join(", ") }));
      return parts.length ? parts.join("; ") : t("no trade yet this turn");
    }
    return count ? t("with gems paid 10 each: {total}", { total: p.grands + 10 * count }) : "";
  }

  // The seats' panels, your own first (then clockwise): on a phone, where the board pans, the
  // left end is what shows, and your hand is what you click.
  function drawPlayers(svg, view, obs, y0) {
    const me = obs.players.findIndex((p) => p.seat === view.viewer);
    const players = me > 0 ? obs.players.slice(me).concat(obs.players.slice(0, me)) : obs.players;
    const n = players.length;
    const perRow = n <= 4 ? n : Math.ceil(n / 2);
    const w = Math.min(330, (W - 24 - SEAT_GAP * (perRow - 1)) / perRow);
    const returns = obs.returns || (view.result && view.result.returns) || null;
    const best = returns ? Math.max(...returns) : null;
    players.forEach((p, i) => {
      const row = Math.floor(i / perRow), col = i % perRow;
      const inRow = row === 0 ? Math.min(perRow, n) : n - perRow;
      const rx0 = (W - (inRow * w + (inRow - 1) * SEAT_GAP)) / 2;
      const x = rx0 + col * (w + SEAT_GAP), y = y0 + row * (SEAT_H + SEAT_GAP);
      const seat = p.seat;
      const moving = !obs.terminal && obs.to_move === seat;
      const g = el("g", { transform: `translate(${x} ${y})`, class: "gb-seat" + (moving ? " moving" : "") + (seat === view.viewer ? " me" : "") }, svg);
      el("rect", { x: 0, y: 0, width: w, height: SEAT_H, rx: 12, class: "gb-seatbox" }, g);
      el("rect", { x: 0, y: 0, width: 8, height: SEAT_H, rx: 4, fill: seatColour(seat) }, g);
      // name line: seat badge, name, start player star
      el("circle", { cx: 26, cy: 24, r: 12, fill: seatColour(seat), stroke: "#fff", "stroke-width": 2 }, g);
      txt(g, 26, 29, String(seat), { "text-anchor": "middle", class: "gb-badge" });
      const name = seatName(view, seat);
      const maxChars = Math.floor((w - 96) / 8.6);
      txt(g, 44, 30, name.length > maxChars ? name.slice(0, maxChars - 1) + "…" : name, { class: "gb-name" }).appendChild(titleOf(name));
      if (obs.round > 0 && !obs.terminal && obs.start_player === seat) {
        star(el("g", { transform: `translate(${w - 22} 23)`, role: "img", "aria-label": t("Start player of this round") }, g), 10);
      }
      if (moving) txt(g, w - 38, 29, "▶", { class: "gb-mover", "text-anchor": "end" });
      // money, and how full the hand is
      coin(g, 28, 60, 13);
      const mt = txt(g, 48, 68, "", { class: "gb-money" });
      el("tspan", {}, mt).textContent = String(p.grands);
      el("tspan", { class: "gb-unit", dx: 5 }, mt).textContent = t("grands");
      const count = drawHand(g, view, obs, p, name);
      txt(g, w - 16, 66, t("{held}/{limit} gems", { held: count, limit: obs.hand_limit || 4 }), { class: "gb-small", "text-anchor": "end" });
      const won = obs.terminal && returns && returns[seat] === best && best > 0 ? returns[seat] : 0;
      if (won) crown(el("g", { transform: `translate(${w - 24} 24)`, role: "img", "aria-label": won >= 1 ? t("winner") : t("shared victory") }, g), 13);
      const line = seatLine(view, obs, p, count, won, moving);
      fitText(g, 16, SEAT_H - 10, line, { class: moving ? "gb-turnline" : won ? "gb-winline" : "gb-tiny" }, w - 28, 7.3);
    });
    const rows = n <= perRow ? 1 : 2;
    return rows * SEAT_H + (rows - 1) * SEAT_GAP;
  }

  // the status under the board: what is happening, and on your turn what you may do
  function statusLines(view, obs) {
    if (obs.terminal) return [t("Game over: every gem still held was paid 10 grands."), ""];
    if (view.status === "open") return [t("Waiting for players to take their seats."), ""];
    if (obs.to_move < 0) return [t("A price card is being revealed…"), ""];
    if (!isMyTurn(view)) return [t("{name} is trading.", { name: seatName(view, obs.to_move) }), ""];
    const bought = (obs.this_turn || { bought: [] }).bought.length > 0;
    const main = bought ? t("Your turn: buy or sell more, or end your turn.")
      : obs.round >= 2 ? t("Your turn: you must buy at least one gem (sell first if you need to).")
        : t("Your turn: you must buy at least one gem.");
    return [main, obs.round >= 2 ? t("Click a stack in the bazaar to buy, a card in your hand to sell.")
      : t("Click a stack in the bazaar to buy.")];
  }

  function drawFooter(svg, view, obs, y) {
    const [main, help] = statusLines(view, obs);
    const mine = view.viewer !== null && view.viewer !== undefined && !obs.terminal && obs.to_move === view.viewer;
    const x = mine ? 268 : 24;  // the button first: the left end is what a phone shows
    fitText(svg, x, y + 34, main, { class: "gb-status" }, W - 24 - x, 8.6);
    if (help) fitText(svg, x, y + 60, help, { class: "gb-small" }, W - 24 - x, 7.5);
    if (!mine) return;
    // End turn: on the board so that a click when it is not allowed yet is explained
    const bx = 24, by = y + 14;
    const end = keyed(svg, "end", [bx, by, 220, 58, 12], { "aria-label": t("End your turn") });
    el("rect", { x: bx, y: by, width: 220, height: 58, rx: 12, class: "gb-endbox" + (canPlay(view, "end_turn") ? "" : " off") }, end);
    fitText(end, bx + 110, by + 36, t("End turn"), { class: "gb-endtext", "text-anchor": "middle" }, 200, 10.5);
  }

  // ---- the renderer ---------------------------------------------------------------------------
  function draw(root, view) {
    const obs = view.observation;
    const wrap = document.createElement("div");
    wrap.className = "tl-gb";
    root.appendChild(wrap);
    const rows = obs.players.length <= 4 ? 1 : 2;
    const yMarket = 56, yPlayers = yMarket + MARKET_H + 16;
    const yFoot = yPlayers + rows * SEAT_H + (rows - 1) * SEAT_GAP;
    const height = yFoot + FOOT_H;
    const svg = el("svg", { viewBox: `0 0 ${W} ${height}`, class: "gb-board", role: "group", "aria-label": t("Grand Bazaar board") });
    wrap.appendChild(svg);
    el("rect", { x: 0, y: 0, width: W, height, rx: 18, class: "gb-bg" }, svg);
    drawHeader(svg, view, obs);
    drawMarket(svg, view, obs, yMarket);
    drawCards(svg, view, obs, yMarket);
    drawPlayers(svg, view, obs, yPlayers);
    drawFooter(svg, view, obs, yFoot);
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
  // answers why that move is not allowed now ("selling is allowed from round 2 on").
  function attempt(path, key, view) {
    if (view.viewer === null || view.viewer === undefined) return null;  // a spectator: no move
    const bazaar = keyGem(key, "bazaar-"), hand = keyGem(key, "hand-");
    if (bazaar) return "buy " + bazaar;
    if (hand) return "sell " + hand;
    if (key === "end") return "end turn";
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
        `<td><span class="gb-dot" style="background:${seatColour(s)}">${s}</span>${esc(seatName(view, s))}` +
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
