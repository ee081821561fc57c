/* Grand Bazaar: the browser renderer (drawn only from the view the shell passes).
 *
 * The board: a price track per gem (1..19) with the bazaar's stack of that gem beside it, the
 * price card just revealed and what is left of the deck, and one panel per seat with its grands
 * and its hand of gem cards.
 *
 * Pick paths (data-key values):
 *   buy a gem   -> ["bazaar-<gem>"]   the gem's stack in the bazaar
 *   sell a gem  -> ["hand-<gem>"]     a card of that gem in your own hand
 *   end turn    -> ["end"]            a button (no board target)
 */
(function () {
  "use strict";

  const SVGNS = "http://www.w3.org/2000/svg";
  const GEMS = ["sapphire", "ruby", "emerald"];
  const GEM = {
    sapphire: { fill: "#2e63c8", dark: "#173a80", light: "#dce7fb", letter: "S", cut: "brilliant cut" },
    ruby: { fill: "#c8283a", dark: "#7a1220", light: "#fadadd", letter: "R", cut: "round cut" },
    emerald: { fill: "#18935a", dark: "#0b5533", light: "#d6f1e2", letter: "E", cut: "step cut" },
  };
  // Seat colours (the same order in every Tlatelolco renderer): none is a gem's colour.
  const SEAT_COLOURS = window.Tlatelolco.SEAT_COLOURS;
  const W = 1100;
  const MIN_PRICE = 1, MAX_PRICE = 19, START = 10;

  // ---- small SVG helpers ---------------------------------------------------------------------
  const T = window.Tlatelolco;  // the shell's shared helpers
  const el = T.svg.bind(T), txt = T.text.bind(T);
  const esc = (s) => T.escape(s), seatName = (view, seat) => T.seatName(view, seat);
  function seatColour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }
  function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function gemWord(n, gem) { return n + " " + (n === 1 ? gem : gem === "ruby" ? "rubies" : gem + "s"); }
  function gemCount(gems) { return GEMS.reduce((a, g) => a + (gems[g] || 0), 0); }

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

  // A gem card (w x h, top-left at x, y): tinted face, the gem and its letter in two corners.
  function gemCard(parent, gem, x, y, w, h, attrs) {
    const c = GEM[gem];
    const g = el("g", Object.assign({ class: "gb-card", transform: `translate(${x} ${y})` }, attrs || {}), parent);
    el("rect", { class: "gb-hl", x: -4, y: -4, width: w + 8, height: h + 8, rx: 9 }, g);
    el("rect", { x: 0, y: 0, width: w, height: h, rx: 6, fill: "#fffdf8", stroke: c.dark, "stroke-width": 1.5 }, g);
    el("rect", { x: 3, y: 3, width: w - 6, height: h - 6, rx: 4, fill: c.light }, g);
    const inner = el("g", { transform: `translate(${w / 2} ${h / 2 + 1})` }, g);
    gemShape(inner, gem, Math.min(w, h) * 0.3);
    txt(g, 6, 13, c.letter, { class: "gb-card-letter", fill: c.dark });
    txt(g, w - 6, h - 5, c.letter, { class: "gb-card-letter", fill: c.dark, "text-anchor": "end" });
    return g;
  }

  function coin(parent, x, y, r) {
    const g = el("g", { transform: `translate(${x} ${y})` }, parent);
    el("circle", { r, fill: "#e9b93a", stroke: "#8a6410", "stroke-width": 1.5 }, g);
    el("circle", { r: r * 0.72, fill: "none", stroke: "#8a6410", "stroke-width": 0.8, opacity: 0.7 }, g);
    txt(g, 0, r * 0.38, "G", { "text-anchor": "middle", "font-size": r * 1.05, "font-weight": 700, fill: "#6b4c08" });
    return g;
  }

  // ---- the parts of the board ----------------------------------------------------------------

  // What the face-down deck still holds for each gem: how many cards raise, keep, lower it.
  function deckOutlook(obs) {
    const out = {};
    GEMS.forEach((g, i) => { out[g] = { up: 0, same: 0, down: 0 }; });
    for (const card of obs.price_cards_left || []) {
      const parts = card.split(/\s+/);
      GEMS.forEach((g, i) => {
        const d = parseInt(parts[i], 10) || 0;
        if (d > 0) out[g].up++; else if (d < 0) out[g].down++; else out[g].same++;
      });
    }
    return out;
  }

  function drawHeader(svg, view, obs) {
    const round = obs.round || 0, rounds = obs.rounds || 27;
    let title = "Round " + round + " of " + rounds;
    if (round === 0) title = "Before the first price card";
    if (obs.terminal) title = "Game over (" + rounds + " rounds)";
    txt(svg, 24, 34, title, { class: "gb-title" });
    // one pip per price card: filled once revealed
    const x0 = 562, step = 19;
    txt(svg, x0 - 12, 34, "price cards", { class: "gb-small", "text-anchor": "end" });
    const pips = el("g", { "aria-label": `${round} of ${rounds} price cards revealed`, role: "img" }, svg);
    for (let i = 0; i < rounds; i++) {
      const done = i < round;
      el("rect", { x: x0 + i * step, y: 18, width: 13, height: 20, rx: 3, class: done ? "gb-pip done" : "gb-pip", }, pips);
      if (i === round - 1 && !obs.terminal) el("rect", { x: x0 + i * step - 2, y: 16, width: 17, height: 24, rx: 4, fill: "none", stroke: "#222", "stroke-width": 1.5 }, pips);
    }
  }

  function drawMarket(svg, view, obs, y0) {
    const mine = isMyTurn(view);
    const outlook = deckOutlook(obs);
    const rowH = 104;
    const g = el("g", { transform: `translate(0 ${y0})` }, svg);
    el("rect", { x: 12, y: 0, width: 800, height: rowH * 3 + 44, rx: 14, class: "gb-panel" }, g);
    txt(g, 32, 28, "The bazaar", { class: "gb-h2" });
    txt(g, 200, 28, "price board (grands)", { class: "gb-small" });
    const trackX = 214, cell = 26;
    GEMS.forEach((gem, i) => {
      const c = GEM[gem];
      const y = 42 + i * rowH;
      const price = obs.prices[gem], left = obs.bazaar[gem];
      // the stall: the stack of gem cards left in the bazaar
      const buyable = mine && view.legal.some((m) => m.move.kind === "buy" && m.move.gem === gem);
      const stack = el("g", {
        class: "gb-stack", "data-key": "bazaar-" + gem,
        "aria-label": `bazaar: ${gemWord(left, gem)} left at ${price} grands each` + (buyable ? `, buy one for ${price}` : ""),
      }, g);
      el("rect", { class: "gb-hl", x: 22, y: y - 6, width: 182, height: rowH - 8, rx: 10 }, stack);
      el("rect", { x: 26, y: y - 2, width: 174, height: rowH - 16, rx: 8, fill: c.light, opacity: 0.55 }, stack);
      const layers = Math.min(left, 5);
      if (left === 0) {
        el("rect", { x: 40, y: y + 8, width: 50, height: 68, rx: 6, fill: "none", stroke: c.dark, "stroke-dasharray": "5 4", "stroke-width": 1.5 }, stack);
        txt(stack, 65, y + 47, "sold", { "text-anchor": "middle", class: "gb-small" });
        txt(stack, 65, y + 60, "out", { "text-anchor": "middle", class: "gb-small" });
      }
      for (let k = layers - 1; k >= 0; k--) {
        gemCard(stack, gem, 34 + k * 4, y + 8 - k * 3, 50, 68);
      }
      txt(stack, 104, y + 26, cap(gem), { class: "gb-gemname", fill: c.dark });
      txt(stack, 104, y + 50, `${left} left`, { class: "gb-count" });
      const t = obs.this_turn || { bought: [], sold: [] };
      if (!obs.terminal && obs.to_move >= 0 && t.sold.includes(gem)) {
        txt(stack, 104, y + 70, "just sold", { class: "gb-tag down" }).appendChild(titleOf(`${gem} was sold this turn: no buying it back this round (no wash trades)`));
      } else if (!obs.terminal && obs.to_move >= 0 && t.bought.includes(gem)) {
        txt(stack, 104, y + 70, "just bought", { class: "gb-tag up" }).appendChild(titleOf(`${gem} was bought this turn: no selling it this round (no wash trades)`));
      } else {
        txt(stack, 104, y + 70, "of 10", { class: "gb-small" });
      }

      // the price track
      const track = el("g", { role: "img", "aria-label": `${gem} price ${price} grands` }, g);
      for (let p = MIN_PRICE; p <= MAX_PRICE; p++) {
        const x = trackX + (p - 1) * cell;
        el("rect", { x, y: y + 14, width: cell - 3, height: 40, rx: 4, class: p === START ? "gb-cell start" : "gb-cell" }, track);
        txt(track, x + (cell - 3) / 2, y + 72, String(p), { class: p === price ? "gb-tick now" : "gb-tick", "text-anchor": "middle" });
      }
      // filled bar up to the price, then the gem as the marker
      el("rect", { x: trackX, y: y + 30, width: (price - 1) * cell + (cell - 3) / 2, height: 8, rx: 4, fill: c.fill, opacity: 0.35 }, track);
      const mx = trackX + (price - 1) * cell + (cell - 3) / 2;
      el("rect", { x: mx - 17, y: y + 8, width: 34, height: 52, rx: 6, fill: "#fff", stroke: c.dark, "stroke-width": 2 }, track);
      const marker = el("g", { transform: `translate(${mx} ${y + 34})` }, track);
      gemShape(marker, gem, 13);
      // the price itself and the deck's outlook for this gem
      const pt = txt(g, 762, y + 46, "", { class: "gb-price", fill: c.dark, "text-anchor": "middle" });
      el("tspan", {}, pt).textContent = String(price);
      el("tspan", { class: "gb-unit", dx: 2 }, pt).textContent = "G";
      const o = outlook[gem];
      if (!obs.terminal && obs.price_cards_left) {
        txt(g, 762, y + 70, `${o.up}▲ ${o.same}= ${o.down}▼`, { class: "gb-tiny", "text-anchor": "middle" }).appendChild(
          titleOf(`price cards left: ${o.up} raise ${gem}, ${o.same} leave it, ${o.down} lower it`));
      }
    });
    const ym = 42 + 3 * rowH - 6;
    txt(g, 32, ym, "Every price starts and ends at 10, when each gem held pays 10.   ▲ = ▼: price cards left that raise, keep, lower it.", { class: "gb-tiny" });
    return rowH * 3 + 44;
  }

  function drawCards(svg, view, obs, y0) {
    const g = el("g", { transform: `translate(828 ${y0})` }, svg);
    const w = 260;
    el("rect", { x: 0, y: 0, width: w, height: 356, rx: 14, class: "gb-panel" }, g);
    txt(g, 20, 28, "Price cards", { class: "gb-h2" });
    // the face-up card
    const card = el("g", { transform: "translate(20 44)", role: "img", "aria-label": obs.last_card ? "last price card " + cardWords(obs.last_card) : "no price card revealed yet" }, g);
    el("rect", { x: 0, y: 0, width: 104, height: 150, rx: 10, fill: "#fffdf5", stroke: "#6b5a3a", "stroke-width": 2 }, card);
    if (obs.last_card) {
      const parts = obs.last_card.split(/\s+/);
      GEMS.forEach((gem, i) => {
        const yy = 28 + i * 44;
        const sub = el("g", { transform: `translate(28 ${yy})` }, card);
        gemShape(sub, gem, 14);
        const d = parseInt(parts[i], 10) || 0;
        const sym = d > 0 ? "+1" : d < 0 ? "−1" : "0";
        txt(card, 86, yy + 9, sym, { class: "gb-change " + (d > 0 ? "up" : d < 0 ? "down" : "same"), "text-anchor": "end" });
      });
    } else {
      txt(card, 52, 80, "none yet", { class: "gb-small", "text-anchor": "middle" });
    }
    txt(g, 72, 212, "last revealed", { class: "gb-small", "text-anchor": "middle" });
    // the face-down deck
    const left = (obs.price_cards_left || []).length;
    const deck = el("g", { transform: "translate(140 44)", role: "img", "aria-label": `${left} price cards face down` }, g);
    const layers = Math.min(left, 6);
    for (let k = layers - 1; k >= 0; k--) {
      el("rect", { x: k * 3, y: -k * 3 + 15, width: 92, height: 130, rx: 9, class: "gb-back" }, deck);
    }
    if (layers) {
      el("rect", { x: 12, y: 27, width: 68, height: 106, rx: 6, fill: "none", stroke: "#f3e2b3", "stroke-width": 1.5 }, deck);
      txt(deck, 46, 90, String(left), { "text-anchor": "middle", class: "gb-deckcount" });
    } else {
      el("rect", { x: 0, y: 15, width: 92, height: 130, rx: 9, fill: "none", stroke: "#9a8a6a", "stroke-dasharray": "5 4" }, deck);
      txt(deck, 46, 86, "empty", { "text-anchor": "middle", class: "gb-small" });
    }
    txt(g, 190, 212, "face down", { class: "gb-small", "text-anchor": "middle" });
    // what the hidden cards add up to: 10 - price for each gem (GB-6)
    txt(g, 20, 246, "Still to come, in total:", { class: "gb-small" });
    GEMS.forEach((gem, i) => {
      const x = 20 + i * 80;
      const sub = el("g", { transform: `translate(${x + 10} 270)` }, g);
      gemShape(sub, gem, 10);
      const net = START - obs.prices[gem];
      txt(g, x + 26, 276, (net > 0 ? "+" : net < 0 ? "−" : "±") + Math.abs(net), { class: "gb-net " + (net > 0 ? "up" : net < 0 ? "down" : "same") });
    });
    txt(g, 20, 304, "The changes left in the deck sum to", { class: "gb-tiny" });
    txt(g, 20, 318, "10 − price for each gem: every price", { class: "gb-tiny" });
    txt(g, 20, 332, "ends the game back at 10.", { class: "gb-tiny" });
  }

  function cardWords(card) {
    const parts = card.split(/\s+/);
    return GEMS.map((g, i) => `${g} ${parts[i] === "0" ? "unchanged" : parts[i]}`).join(", ");
  }

  function isMyTurn(view) {
    return view.viewer !== null && view.viewer !== undefined && view.to_move === view.viewer && (view.legal || []).length > 0;
  }

  function drawPlayers(svg, view, obs, y0) {
    const players = obs.players;
    const n = players.length;
    const perRow = n <= 4 ? n : Math.ceil(n / 2);
    const gap = 12;
    const w = Math.min(330, (W - 24 - gap * (perRow - 1)) / perRow);
    const h = 168;
    const rowW = perRow * w + (perRow - 1) * gap;
    const x0 = (W - rowW) / 2;
    const returns = obs.returns || (view.result && view.result.returns) || null;
    const best = returns ? Math.max(...returns) : null;
    const mine = isMyTurn(view);
    players.forEach((p, i) => {
      const row = Math.floor(i / perRow), col = i % perRow;
      const inRow = row === 0 ? Math.min(perRow, n) : n - perRow;
      const rx0 = (W - (inRow * w + (inRow - 1) * gap)) / 2;
      const x = rx0 + col * (w + gap), y = y0 + row * (h + gap);
      const seat = p.seat;
      const moving = !obs.terminal && obs.to_move === seat;
      const g = el("g", { transform: `translate(${x} ${y})`, class: "gb-seat" + (moving ? " moving" : "") + (seat === view.viewer ? " me" : "") }, svg);
      el("rect", { x: 0, y: 0, width: w, height: h, rx: 12, class: "gb-seatbox" }, g);
      el("rect", { x: 0, y: 0, width: 8, height: h, rx: 4, fill: seatColour(seat) }, g);
      // name line: seat badge, name, start player star
      el("circle", { cx: 26, cy: 24, r: 12, fill: seatColour(seat), stroke: "#fff", "stroke-width": 2 }, g);
      txt(g, 26, 29, String(seat), { "text-anchor": "middle", class: "gb-badge" });
      const name = seatName(view, seat);
      const maxChars = Math.floor((w - 96) / 8.6);
      txt(g, 44, 30, name.length > maxChars ? name.slice(0, maxChars - 1) + "…" : name, { class: "gb-name" }).appendChild(titleOf(name));
      if (obs.round > 0 && !obs.terminal && obs.start_player === seat) {
        const st = el("g", { transform: `translate(${w - 22} 23)`, role: "img", "aria-label": "start player of this round" }, g);
        star(st, 10);
      }
      if (moving) txt(g, w - 38, 29, "▶", { class: "gb-mover", "text-anchor": "end" });
      // money
      coin(g, 28, 60, 13);
      const mt = txt(g, 48, 68, "", { class: "gb-money" });
      el("tspan", {}, mt).textContent = String(p.grands);
      el("tspan", { class: "gb-unit", dx: 5 }, mt).textContent = "grands";
      // the hand: four slots
      const held = [];
      GEMS.forEach((gem) => { for (let k = 0; k < (p.gems[gem] || 0); k++) held.push(gem); });
      const limit = obs.hand_limit || 4;
      const cw = 44, ch = 58, cg = 8;
      const hx = 16, hy = 84;
      for (let k = 0; k < limit; k++) {
        const cx = hx + k * (cw + cg);
        if (k < held.length) {
          const gem = held[k];
          const attrs = {};
          if (seat === view.viewer && !obs.terminal) {
            const sellable = mine && view.legal.some((m) => m.move.kind === "sell" && m.move.gem === gem);
            attrs["data-key"] = "hand-" + gem;
            attrs["aria-label"] = `your ${gem} card` + (sellable ? `, sell it for ${obs.prices[gem]} grands` : "");
          } else {
            attrs.role = "img";
            attrs["aria-label"] = `${gem} card of ${name}`;
          }
          gemCard(g, gem, cx, hy, cw, ch, attrs);
        } else {
          el("rect", { x: cx, y: hy, width: cw, height: ch, rx: 6, class: "gb-slot" }, g);
        }
      }
      const hcount = held.length;
      txt(g, hx + limit * (cw + cg) - cg + 8, hy + 20, `${hcount}/${limit}`, { class: "gb-small" });
      txt(g, hx + limit * (cw + cg) - cg + 8, hy + 34, "gems", { class: "gb-tiny" });
      // the last line: this turn's trades, the value at the end, or the result
      let line = "";
      if (obs.terminal) {
        const paid = hcount * 10;
        line = paid ? `incl. ${plural(hcount, "gem")} × 10` : "no gems to pay out";
        if (returns && returns[seat] === best && best > 0) {
          const won = el("g", { transform: `translate(${w - 24} 24)`, role: "img", "aria-label": returns[seat] >= 1 ? "winner" : "shared victory" }, g);
          crown(won, 13);
          line = (returns[seat] >= 1 ? "winner · " : "shared win · ") + line;
        }
      } else if (moving && obs.this_turn) {
        const t = obs.this_turn;
        const parts = [];
        if (t.bought.length) parts.push("bought " + t.bought.join(", "));
        if (t.sold.length) parts.push("sold " + t.sold.join(", "));
        line = parts.length ? parts.join("; ") : "no trade yet this turn";
      } else {
        line = hcount ? `with gems paid 10 each: ${p.grands + 10 * hcount}` : "";
      }
      const won = obs.terminal && returns && returns[seat] === best && best > 0;
      const lt = txt(g, 16, h - 12, line, { class: moving ? "gb-turnline" : won ? "gb-winline" : "gb-tiny" });
      if (line.length * 7.3 > w - 28) { lt.setAttribute("textLength", w - 28); lt.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    });
    const rows = n <= perRow ? 1 : 2;
    return rows * h + (rows - 1) * gap;
  }

  function titleOf(s) {
    const t = document.createElementNS(SVGNS, "title");
    t.textContent = s;
    return t;
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

  function statusLine(view, obs) {
    if (obs.terminal) return "Game over: every gem still held was paid 10 grands.";
    if (view.status === "open") return "Waiting for players to take their seats.";
    if (obs.to_move < 0) return "A price card is being revealed…";
    const who = seatName(view, obs.to_move);
    if (isMyTurn(view)) {
      const t = obs.this_turn || { bought: [] };
      const tail = t.bought.length ? "buy or sell more, or end your turn." : (obs.round >= 2 ? "you must buy at least one gem (sell first if you need to)." : "you must buy at least one gem.");
      return "Your turn: " + tail + " Click a stack to buy, a card in your hand to sell.";
    }
    return who + " is trading.";
  }

  // ---- the renderer ---------------------------------------------------------------------------
  function draw(root, view) {
    const obs = view.observation;
    const wrap = document.createElement("div");
    wrap.className = "tl-gb";
    root.appendChild(wrap);
    const n = obs.players.length;
    const rows = n <= 4 ? 1 : 2;
    const yMarket = 56, marketH = 356, yPlayers = yMarket + marketH + 16;
    const height = yPlayers + rows * 168 + (rows - 1) * 12 + 50;
    const svg = el("svg", { viewBox: `0 0 ${W} ${height}`, class: "gb-board", role: "group", "aria-label": "Grand Bazaar board" });
    wrap.appendChild(svg);
    el("rect", { x: 0, y: 0, width: W, height, rx: 18, class: "gb-bg" }, svg);
    drawHeader(svg, view, obs);
    drawMarket(svg, view, obs, yMarket);
    drawCards(svg, view, obs, yMarket);
    drawPlayers(svg, view, obs, yPlayers);
    txt(svg, 24, height - 18, statusLine(view, obs), { class: "gb-status" });
  }

  function keys(move, view) {
    switch (move.kind) {
      case "buy": return ["bazaar-" + move.gem];
      case "sell": return ["hand-" + move.gem];
      case "end_turn": return ["end"];
      case "reveal": return ["reveal-" + move.card];
      default: return [move.kind];
    }
  }

  function result(view) {
    const obs = view.observation;
    const res = view.result || {};
    const scores = res.scores || view.scores || obs.players.map((p) => p.grands);
    const returns = res.returns || obs.returns || [];
    const order = obs.players.map((p) => p.seat).sort((a, b) => scores[b] - scores[a] || a - b);
    const best = Math.max(...scores);
    const winners = order.filter((s) => scores[s] === best);
    let head;
    if (winners.length === 1) {
      const second = order.find((s) => scores[s] < best);
      head = `<strong>${esc(seatName(view, winners[0]))}</strong> wins with <strong>${best}</strong> grands` +
        (second !== undefined ? ` (next: ${esc(seatName(view, second))}, ${scores[second]})` : "") + ".";
    } else {
      head = `Shared victory: ${winners.map((s) => `<strong>${esc(seatName(view, s))}</strong>`).join(", ")} ` +
        `each have <strong>${best}</strong> grands. Grand Bazaar has no tie-break: tied players share ` +
        `the win (1/${winners.length} each).`;
    }
    let rows = "";
    order.forEach((s) => {
      const rank = 1 + order.filter((t) => scores[t] > scores[s]).length;
      const p = obs.players.find((q) => q.seat === s);
      const gems = gemCount(p.gems);
      const held = GEMS.filter((g) => p.gems[g]).map((g) => gemWord(p.gems[g], g)).join(", ");
      const share = returns[s];
      const word = share >= 1 ? "winner" : share > 0 ? `shared win (${+share.toFixed(2)})` : "";
      rows += `<tr${share > 0 ? ' class="gb-win-row"' : ""}><td>${rank}</td>` +
        `<td><span class="gb-dot" style="background:${seatColour(s)}">${s}</span>${esc(seatName(view, s))}` +
        (word ? ` <span class="gb-badge">${word}</span>` : "") +
        `<div class="gb-sub">${gems ? `incl. ${esc(held)}: +${gems * 10}` : "no gems held at the end"}</div></td>` +
        `<td class="num">${scores[s]}</td></tr>`;
    });
    return `<div class="gb-result"><p>${head}</p>` +
      `<table><thead><tr><th>#</th><th>player</th><th class="num">grands</th></tr></thead>` +
      `<tbody>${rows}</tbody></table>` +
      `<p class="gb-note">After the 27th price card every price is back at 10 and each gem still held ` +
      `was paid 10 grands (included above); the most grands wins (GB-5).</p></div>`;
  }

  window.Tlatelolco.register("grand_bazaar", { draw, keys, result });
})();
