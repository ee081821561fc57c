/* Aztec Market: the browser renderer (drawn only from the view the shell passes).
 *
 * Three parts, placed by the shell (game.js): the board (an SVG at the width it is given, in the
 * frame that fits and zooms it): the 4x4 market (columns A-D West to East, rows 1-4 South to
 * North) with each seated side's four buyers just outside it (South below, West left, North
 * above, East right; an empty side's margin is left out); the dock ([data-dock], kept in sight
 * under the board): what the turn is and what to do, the tiles still to place during the set-up,
 * and the turn's buttons (PASS, PLAY, the king skips, End turn); the extras ([data-extra], below):
 * the king's goods, the goods and coins in play and the sides' scores.
 *
 * Pick paths (data-key values; squares are "A1".."D4", buyers "S1".."E4"):
 *   place a tile (set-up)        -> ["tile-<kind>", square]   a tile of the tray, then an empty square
 *   coin on a buyer              -> [buyer]
 *   market move (PASS, errand)   -> [square]                  the tile that goes into the hole
 *   paid market move (PLAY)      -> [square, buyer]           the tile, then the buyer whose coin pays
 *   buy (PLAY)                   -> [buyer, square]           the buyer, then the vendor's square
 *   king buys (PASS)             -> [square]                  the vendor's square
 *   pass, play, king skips, end turn -> ["pass"], ["play"], ["king-skips"], ["end"]: the dock's buttons
 * Every square and buyer carries its key even when it is not pickable, so that a wrong click can be
 * explained (`attempt`). Every text a player reads goes through t()/tn(): aztec_market.po.
 */
(function () {
  "use strict";

  const T = window.Tlatelolco;  // the shell's shared helpers
  const t = (m, p) => T.t(m, p);
  const tn = (s, pl, n, p) => T.tn(s, pl, n, p);
  const SVGNS = "http://www.w3.org/2000/svg";
  const COLOURS = ["black", "blue", "red", "green"];
  const GOODS = {
    black: { fill: "#2d2d2d", dark: "#000", awning: "#3b3b3b" },
    blue: { fill: "#2c63c4", dark: "#173a80", awning: "#2c63c4" },
    red: { fill: "#c8283a", dark: "#7a1220", awning: "#c8283a" },
    green: { fill: "#2e8b3a", dark: "#17521f", awning: "#2e8b3a" },
  };
  const SIDES = ["South", "West", "North", "East"];
  const SIDE_LETTERS = "SWNE";
  // Seat colours (the same order in every Tlatelolco renderer); none is a goods colour.
  const SEAT_COLOURS = T.SEAT_COLOURS;
  const TILE_ORDER = ["black vendor", "blue vendor", "red vendor", "green vendor", "crowd", "porter",
    "governor", "ambassador", "errand boy", "king"];
  const TILE_TOTAL = { "black vendor": 1, "blue vendor": 1, "red vendor": 1, "green vendor": 1, crowd: 4,
    porter: 2, governor: 2, ambassador: 1, "errand boy": 1, king: 1 };
  const COLS = "ABCD";

  // Geometry (SVG units). Buyer tiles are BL long along the market's edge and BD deep, the
  // smallest target: a two-player board (588 units wide, see boardBox) drawn 340 px wide on a
  // small phone at zoom 100% makes BD ~41 px.
  const C = 112;                       // a market square
  const G = 4 * C;
  const BL = 98, BD = 72, BGAP = 12;   // buyer tiles and their distance from the market
  const LABEL = 30, MARGIN = 8;        // the sides' names outside the buyers
  const GX = MARGIN + LABEL + BD + BGAP, GY = GX;   // the market's top-left corner
  const VW = 2 * GX + G;               // the board with four seated sides is square
  const EDGE = GX - 10 - MARGIN;       // the margin an empty side leaves out (the ground stays)
  const TRAY = 58;                     // a tile of the set-up tray (CSS px)

  // ---- words (functions: the catalogue is loaded after this file runs) --------------------------
  function sideWord(side) {
    return { South: t("South"), West: t("West"), North: t("North"), East: t("East") }[side] || "";
  }
  function colourWord(colour) {
    return { black: t("black"), blue: t("blue"), red: t("red"), green: t("green") }[colour] || "";
  }
  function wareWord(colour) {
    return { black: t("pottery"), blue: t("cloth"), red: t("jewels"), green: t("herbs") }[colour] || "";
  }
  function goodsWords(colour, n) {
    if (colour === "black") return tn("{n} black good", "{n} black goods", n);
    if (colour === "blue") return tn("{n} blue good", "{n} blue goods", n);
    if (colour === "red") return tn("{n} red good", "{n} red goods", n);
    return tn("{n} green good", "{n} green goods", n);
  }
  function tileWord(name) {
    return {
      "black vendor": t("black vendor"), "blue vendor": t("blue vendor"), "red vendor": t("red vendor"),
      "green vendor": t("green vendor"), crowd: t("crowd"), porter: t("porter"), governor: t("governor"),
      ambassador: t("ambassador"), "errand boy": t("errand boy"), king: t("king"),
    }[name] || "";
  }
  function tileEffect(name) {
    return {
      crowd: t("blocks buyers"), porter: t("1 good back"), governor: t("1 good to king"),
      ambassador: t("buyer keeps coin"), "errand boy": t("moves free"),
    }[name] || "";
  }
  function coinsWords(n) { return tn("{n} coin", "{n} coins", n); }
  function andList(items) {
    if (items.length <= 1) return items.join("");
    return t("{a} and {b}", { a: items.slice(0, -1).join(", "), b: items[items.length - 1] });
  }

  // ---- small helpers ---------------------------------------------------------------------------
  const el = T.svg.bind(T), txt = T.text.bind(T);
  const esc = (s) => T.escape(s), seatName = (view, seat) => T.seatName(view, seat);
  const html = (text, params) => T.fill(esc(text), params);  // a translated template as HTML
  function clip(s, n) { return s.length > n ? s.slice(0, n - 1) + "…" : s; }
  function slug(s) { return s.replace(/\s+/g, "-"); }
  function seatColour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }
  function titleOf(parent, s) {
    const node = document.createElementNS(SVGNS, "title");
    node.textContent = s;
    parent.appendChild(node);
  }
  // squeeze an SVG text into `width` units when its letters (about `per` units each) would not fit
  function fit(node, width, per) {
    node.setAttribute("data-fit", width);  // measured again once on the page (fitDrawn)
    if (node.textContent.length * per > width) {
      node.setAttribute("textLength", width);
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    return node;
  }
  // an HTML element with attributes and children (text or nodes; null ones left out)
  function h(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
    }
    for (const kid of kids.flat()) {
      if (kid !== null && kid !== undefined && kid !== false) node.append(kid instanceof Node ? kid : String(kid));
    }
    return node;
  }
  function dot(seat) {
    const d = h("span", { class: "am-dot", "aria-hidden": "true" });
    d.style.background = seatColour(seat);
    return d;
  }
  function squareXY(sq) {   // top-left corner of a square
    const col = COLS.indexOf(sq[0]), row = parseInt(sq.slice(1), 10) - 1;
    return [GX + col * C, GY + (3 - row) * C];
  }
  const isSquare = (key) => /^[A-D][1-4]$/.test(key);
  const isBuyer = (key) => /^[SWNE][1-4]$/.test(key);
  function myTurn(view) {
    return view.viewer !== null && view.viewer !== undefined && view.to_move === view.viewer && (view.legal || []).length > 0;
  }
  function findTile(obs, name) {
    for (const [sq, tile] of Object.entries(obs.market)) if (tile === name) return sq;
    return null;
  }
  function vendorSquare(obs, colour) { return findTile(obs, colour + " vendor"); }
  function vendorColour(name) { return name && name.endsWith(" vendor") ? name.split(" ")[0] : null; }
  function goodsOf(player) {   // a player's goods by colour, summed over their buyers
    const out = { black: 0, blue: 0, red: 0, green: 0 };
    for (const b of player.buyers) if (b.colour) out[b.colour] += b.goods;
    return out;
  }
  function coinsOf(player) { return player.buyers.filter((b) => b.coin).length; }
  function teamsOf(obs) { return obs.teams && obs.teams.length ? obs.teams : obs.players.map((p) => [p.seat]); }
  function teamName(team) { return team.map((s) => sideWord(SIDES[s])).join(" + "); }
  // buyer k's line, nearest square first (AM-2): South and North look along a column, West and
  // East along a row
  function lineOf(key) {
    const side = key[0], k = parseInt(key.slice(1), 10) - 1, out = [];
    for (let i = 0; i < 4; i++) {
      if (side === "S") out.push(COLS[k] + (i + 1));
      else if (side === "N") out.push(COLS[k] + (4 - i));
      else if (side === "W") out.push(COLS[i] + (k + 1));
      else out.push(COLS[3 - i] + (k + 1));
    }
    return out;
  }

  // ---- pictures ----------------------------------------------------------------------------------

  // A good of a colour, centred on (0, 0): pottery a jar, cloth a folded bolt, jewels a cut
  // stone, herbs a leaf (shapes as well as colours).
  function good(parent, colour, r) {
    const c = GOODS[colour];
    const g = el("g", { class: "am-good" }, parent);
    const sw = Math.max(0.8, r / 9);
    if (colour === "black") {
      el("path", { d: `M${-0.35 * r},${-r} L${0.35 * r},${-r} L${0.3 * r},${-0.7 * r} C${0.95 * r},${-0.45 * r} ${0.95 * r},${0.75 * r} ${0.3 * r},${r} L${-0.3 * r},${r} C${-0.95 * r},${0.75 * r} ${-0.95 * r},${-0.45 * r} ${-0.3 * r},${-0.7 * r} Z`, fill: c.fill, stroke: "#000", "stroke-width": sw, "stroke-linejoin": "round" }, g);
      el("path", { d: `M${-0.62 * r},${0.05 * r} Q0,${0.3 * r} ${0.62 * r},${0.05 * r}`, fill: "none", stroke: "#c9a56a", "stroke-width": sw * 1.3 }, g);
    } else if (colour === "blue") {
      el("path", { d: `M${-r},${-0.7 * r} L${r},${-0.7 * r} L${r},${0.45 * r} Q${0.5 * r},${0.15 * r} 0,${0.45 * r} Q${-0.5 * r},${0.75 * r} ${-r},${0.45 * r} Z`, fill: c.fill, stroke: c.dark, "stroke-width": sw, "stroke-linejoin": "round" }, g);
      el("path", { d: `M${-r},${-0.3 * r} L${r},${-0.3 * r} M${-r},${0.05 * r} L${r},${0.05 * r}`, stroke: "#bcd0f2", "stroke-width": sw }, g);
    } else if (colour === "red") {
      el("polygon", { points: `0,${-r} ${0.85 * r},${-0.2 * r} 0,${r} ${-0.85 * r},${-0.2 * r}`, fill: c.fill, stroke: c.dark, "stroke-width": sw, "stroke-linejoin": "round" }, g);
      el("polyline", { points: `${-0.85 * r},${-0.2 * r} ${0.85 * r},${-0.2 * r}`, stroke: c.dark, "stroke-width": sw * 0.8 }, g);
      el("polygon", { points: `0,${-0.75 * r} ${-0.35 * r},${-0.3 * r} ${0.1 * r},${-0.3 * r}`, fill: "#fff", opacity: 0.45 }, g);
    } else {
      el("path", { d: `M0,${r} C${-0.95 * r},${0.2 * r} ${-0.6 * r},${-0.7 * r} 0,${-r} C${0.6 * r},${-0.7 * r} ${0.95 * r},${0.2 * r} 0,${r} Z`, fill: c.fill, stroke: c.dark, "stroke-width": sw, "stroke-linejoin": "round" }, g);
      el("path", { d: `M0,${0.95 * r} L0,${-0.7 * r} M0,${0.1 * r} L${0.4 * r},${-0.3 * r} M0,${0.45 * r} L${-0.4 * r},${0.05 * r}`, stroke: "#cfe9c9", "stroke-width": sw, fill: "none" }, g);
    }
    return g;
  }

  // a good as a small picture in the HTML panel, named for screen readers
  function goodIcon(colour, px) {
    const svg = el("svg", { viewBox: "-12 -12 24 24", width: px, height: px, class: "am-icon", role: "img", "aria-label": colourWord(colour) });
    good(svg, colour, 10);
    return svg;
  }

  function coin(parent, x, y, r, has) {
    const g = el("g", { transform: `translate(${x} ${y})` }, parent);
    if (has) {
      el("circle", { r, fill: "#e9b93a", stroke: "#8a6410", "stroke-width": 1.5 }, g);
      el("circle", { r: r * 0.68, fill: "none", stroke: "#8a6410", "stroke-width": 1, opacity: 0.7 }, g);
      el("rect", { x: -r * 0.22, y: -r * 0.22, width: r * 0.44, height: r * 0.44, fill: "#8a6410", opacity: 0.8 }, g);
    } else {
      el("circle", { r, fill: "none", stroke: "#9c8a66", "stroke-width": 1.3, "stroke-dasharray": "3 3" }, g);
    }
    return g;
  }

  function person(parent, x, y, s, colour, extra) {
    const g = el("g", { transform: `translate(${x} ${y}) scale(${s})` }, parent);
    el("circle", { cx: 0, cy: -14, r: 7, fill: colour }, g);
    el("path", { d: "M-11,14 Q-11,-5 0,-5 Q11,-5 11,14 Z", fill: colour }, g);
    if (extra) extra(g);
    return g;
  }

  function crown(parent, x, y, r) {
    const g = el("g", { transform: `translate(${x} ${y})` }, parent);
    el("path", { d: `M${-r},${r * 0.55} L${-r},${-r * 0.45} L${-r * 0.5},${r * 0.05} L0,${-r * 0.75} L${r * 0.5},${r * 0.05} L${r},${-r * 0.45} L${r},${r * 0.55} Z`, fill: "#f2c230", stroke: "#7a5a08", "stroke-width": 1.6, "stroke-linejoin": "round" }, g);
    el("circle", { cx: 0, cy: r * 0.25, r: r * 0.14, fill: "#c8283a" }, g);
    return g;
  }

  function crownIcon(px) {
    const svg = el("svg", { viewBox: "-12 -12 24 24", width: px, height: px, class: "am-icon", "aria-hidden": "true" });
    crown(svg, 0, 0, 10);
    return svg;
  }

  // ---- market tiles ------------------------------------------------------------------------------

  // A market tile drawn in a box of size s at (0, 0) of `g`; `mini` for the set-up tray.
  function tile(g, name, obs, s, mini) {
    const pad = 4;
    if (name === null || name === undefined) return;
    const colour = vendorColour(name);
    if (colour) {
      const c = GOODS[colour];
      el("rect", { x: pad, y: pad, width: s - 2 * pad, height: s - 2 * pad, rx: 9, class: "am-tile vendor" }, g);
      // the awning, scalloped, in the vendor's colour
      const aw = s - 2 * pad, ah = s * 0.26;
      el("rect", { x: pad, y: pad, width: aw, height: ah, rx: 9, fill: c.awning }, g);
      const n = 6, sw = aw / n;
      let d = `M${pad},${pad + ah - 4}`;
      for (let i = 0; i < n; i++) d += ` q${sw / 2},${s * 0.09} ${sw},0`;
      el("path", { d: d + ` L${pad + aw},${pad + ah - 6} L${pad},${pad + ah - 6} Z`, fill: c.awning }, g);
      for (let i = 1; i < n; i += 2) el("rect", { x: pad + i * sw, y: pad + 3, width: sw, height: ah - 6, fill: "#fff", opacity: 0.22 }, g);
      if (mini) {
        fit(txt(g, s / 2, pad + ah - 6, colourWord(colour), { class: "am-awning-mini", "text-anchor": "middle" }), s - 12, 6.5);
        const gg = el("g", { transform: `translate(${s / 2} ${s * 0.64})` }, g);
        good(gg, colour, s * 0.17);
        return;
      }
      fit(txt(g, s / 2, pad + ah - 8, colourWord(colour).toUpperCase(), { class: "am-awning", "text-anchor": "middle" }), s - 20, 10);
      const count = obs.vendors[colour] || 0;
      const gg = el("g", { transform: `translate(${s * 0.33} ${s * 0.6})` }, g);
      good(gg, colour, s * 0.16);
      txt(g, s * 0.52, s * 0.69, String(count), { class: count ? "am-vcount" : "am-vcount zero" });
      fit(txt(g, s / 2, s - 11, wareWord(colour), { class: "am-sub", "text-anchor": "middle" }), s - 14, 6.3);
      return;
    }
    if (name === "king") {
      el("rect", { x: pad, y: pad, width: s - 2 * pad, height: s - 2 * pad, rx: 9, class: "am-tile king" }, g);
      crown(g, s / 2, mini ? s * 0.42 : s * 0.22, mini ? s * 0.22 : s * 0.15);
      const word = mini ? tileWord("king") : tileWord("king").toUpperCase();
      fit(txt(g, s / 2, mini ? s - 9 : s * 0.45, word, { class: mini ? "am-label-mini" : "am-label", "text-anchor": "middle" }), s - 12, mini ? 5.5 : 9);
      if (!mini) {   // the goods on the king, by colour
        COLOURS.forEach((c, i) => {
          const cx = pad + 14 + (i % 2) * 52, cy = s * 0.6 + Math.floor(i / 2) * 26;
          const gg = el("g", { transform: `translate(${cx} ${cy})` }, g);
          good(gg, c, 9);
          txt(g, cx + 13, cy + 6, String(obs.king[c] || 0), { class: "am-kcount" });
        });
      }
      return;
    }
    const crowd = name === "crowd";
    el("rect", { x: pad, y: pad, width: s - 2 * pad, height: s - 2 * pad, rx: 9, class: "am-tile " + (crowd ? "crowd" : "helper") }, g);
    const cx = s / 2, cy = s * 0.42, k = s / 112;
    if (crowd) {
      [[-26, 4, 0.95], [26, 4, 0.95], [-12, -2, 1.05], [12, -2, 1.05], [0, 8, 1.15]].forEach(([dx, dy, sc]) => {
        person(g, cx + dx * k, cy + dy * k, sc * k, "#4a4a4a");
      });
      el("rect", { x: pad, y: cy + 14 * k, width: s - 2 * pad, height: 6 * k, fill: "#5c5c5c" }, g);
    } else if (name === "porter") {
      person(g, cx, cy, 1.15 * k, "#7a5230", (p) => {
        el("path", { d: "M6,-8 L20,-8 L18,10 L8,10 Z", fill: "#c99a5b", stroke: "#7a5230", "stroke-width": 1.2 }, p);
        el("path", { d: "M-24,-4 a8,8 0 1 1 4,7 M-21,3 l1,-6 -6,1", fill: "none", stroke: "#7a5230", "stroke-width": 2 }, p);
      });
    } else if (name === "governor") {
      person(g, cx, cy, 1.15 * k, "#3d6b56", (p) => {
        el("path", { d: "M-8,-20 L-10,-32 L-3,-24 L0,-36 L3,-24 L10,-32 L8,-20 Z", fill: "#2e8b3a", stroke: "#17521f", "stroke-width": 1 }, p);
        el("line", { x1: 15, y1: -22, x2: 15, y2: 14, stroke: "#7a5230", "stroke-width": 2.5 }, p);
        el("circle", { cx: 15, cy: -24, r: 3.5, fill: "#f2c230", stroke: "#7a5a08" }, p);
      });
    } else if (name === "ambassador") {
      person(g, cx, cy, 1.15 * k, "#5a4a8a", (p) => {
        el("rect", { x: 9, y: -12, width: 14, height: 18, rx: 2, fill: "#f6ecd0", stroke: "#8a7a50", "stroke-width": 1 }, p);
        el("circle", { cx: 16, cy: 3, r: 3.5, fill: "#c8283a" }, p);
      });
    } else if (name === "errand boy") {
      const p = el("g", { transform: `translate(${cx} ${cy}) scale(${1.1 * k})` }, g);
      el("circle", { cx: 3, cy: -16, r: 6, fill: "#b5651d" }, p);
      el("path", { d: "M1,-9 L-3,5 L-12,14 M-3,5 L6,9 L8,18 M0,-5 L-10,0 M0,-5 L10,-2", fill: "none", stroke: "#b5651d", "stroke-width": 4.5, "stroke-linecap": "round", "stroke-linejoin": "round" }, p);
      el("path", { d: "M-26,-10 L-16,-10 M-28,-2 L-18,-2 M-24,6 L-16,6", stroke: "#b59a70", "stroke-width": 2, "stroke-linecap": "round" }, p);
    }
    const light = crowd ? " light" : "";
    const word = mini ? tileWord(name) : tileWord(name).toUpperCase();
    fit(txt(g, s / 2, mini ? s - 9 : s - 28, word, { class: (mini ? "am-label-mini" : "am-label") + light, "text-anchor": "middle" }), s - 12, mini ? 5.5 : 9);
    if (!mini) fit(txt(g, s / 2, s - 12, tileEffect(name), { class: "am-sub" + light, "text-anchor": "middle" }), s - 14, 6.3);
  }

  // a tile in words, for screen readers and labels
  function tileWords(name, obs) {
    const colour = vendorColour(name);
    if (colour) {
      const n = obs.vendors[colour] || 0;
      return tn("{tile} ({ware}) with {n} good", "{tile} ({ware}) with {n} goods", n,
        { tile: tileWord(name), ware: wareWord(colour) });
    }
    if (name === "king") {
      const held = COLOURS.filter((c) => obs.king[c]).map((c) => goodsWords(c, obs.king[c]));
      const none = t("no goods");
      return t("the king, holding {goods}", { goods: held.length ? held.join(", ") : none });
    }
    const effect = tileEffect(name);
    return effect ? t("{tile} ({effect})", { tile: tileWord(name), effect }) : tileWord(name);
  }

  // ---- the board: the market and the buyers -------------------------------------------------------

  // A board target: the group that carries the key (no transform of its own, so that a CSS
  // animation of it cannot move it), the piece placed inside it, its drawing (animated when
  // fresh), and then the rings the CSS shows for a pick, the last move and a clicked log entry.
  function target(parent, key, x, y, label, cls) {
    const g = el("g", { "data-key": key, "aria-label": label, class: cls }, parent);
    const at = el("g", { transform: `translate(${x} ${y})` }, g);
    return [at, el("g", { class: "am-body" }, at)];
  }
  function rings(g, w, h, inset) {
    el("rect", { class: "am-ring", x: inset, y: inset, width: w - 2 * inset, height: h - 2 * inset, rx: 11 }, g);
    el("rect", { class: "am-hl", x: inset + 5, y: inset + 5, width: w - 2 * inset - 10, height: h - 2 * inset - 10, rx: 9 }, g);
  }

  function drawMarket(svg, view, obs) {
    const building = obs.phase === "build" || obs.phase === "random build";
    el("rect", { x: GX - 10, y: GY - 10, width: G + 20, height: G + 20, rx: 16, class: "am-ground" }, svg);
    for (const [sq, name] of Object.entries(obs.market)) {
      const [x, y] = squareXY(sq);
      const isHole = name === null && obs.hole === sq;
      let what;
      if (name) what = tileWords(name, obs);
      else if (isHole) what = t("the hole");
      else what = t("no tile yet");
      const [g, body] = target(svg, sq, x, y, t("square {square}: {what}", { square: sq, what }), "am-square");
      if (name) {
        tile(body, name, obs, C, false);
      } else if (isHole) {
        el("rect", { x: 5, y: 5, width: C - 10, height: C - 10, rx: 9, class: "am-hole" }, body);
        fit(txt(body, C / 2, C / 2 + 6, t("hole"), { class: "am-hole-text", "text-anchor": "middle" }), C - 20, 10);
      } else {
        el("rect", { x: 6, y: 6, width: C - 12, height: C - 12, rx: 9, class: "am-empty" }, body);
        if (building) fit(txt(body, C / 2, C / 2 + 5, t("no tile yet"), { class: "am-sub", "text-anchor": "middle" }), C - 20, 6.3);
      }
      const onDark = name === "crowd" || vendorColour(name) || (!name && isHole);
      txt(g, 11, 19, sq, { class: "am-sqname" + (onDark ? " light" : ""), "aria-hidden": "true" });
      rings(g, C, C, 1);
    }
  }

  function buyerBox(side, k) {   // [x, y, width, height] of buyer k's tile on a side
    if (side === "South") return [GX + k * C + (C - BL) / 2, GY + G + BGAP, BL, BD];
    if (side === "North") return [GX + k * C + (C - BL) / 2, GY - BGAP - BD, BL, BD];
    const y = GY + (3 - k) * C + (C - BL) / 2;
    if (side === "West") return [GX - BGAP - BD, y, BD, BL];
    return [GX + G + BGAP, y, BD, BL];
  }

  function drawBuyer(svg, view, player, b, k) {
    const side = player.side, colour = seatColour(player.seat);
    const [x, y, w, hh] = buyerBox(side, k);
    const parts = [t("buyer {name} of {player} ({side})", { name: b.name, player: seatName(view, player.seat), side: sideWord(side) }),
      b.coin ? t("has a coin") : t("no coin"),
      b.goods && b.colour ? t("holds {goods}", { goods: goodsWords(b.colour, b.goods) }) : t("holds no goods")];
    const [g, body] = target(svg, b.name, x, y, parts.join(", "), "am-buyer");
    el("rect", { x: 0, y: 0, width: w, height: hh, rx: 9, fill: "#fffaf0", stroke: colour, "stroke-width": 3 }, body);
    const across = side === "South" || side === "North";   // a wide tile: the name band on its left
    if (across) {
      el("rect", { x: 0, y: 0, width: 30, height: hh, rx: 9, fill: colour }, body);
      el("rect", { x: 20, y: 0, width: 10, height: hh, fill: colour }, body);
      txt(body, 15, 27, b.name[0], { class: "am-bside", "text-anchor": "middle" });
      txt(body, 15, 52, b.name.slice(1), { class: "am-bnum", "text-anchor": "middle" });
      coin(body, w - 17, 18, 10, b.coin);
    } else {                                               // a tall tile: the band on top
      el("rect", { x: 0, y: 0, width: w, height: 28, rx: 9, fill: colour }, body);
      el("rect", { x: 0, y: 18, width: w, height: 10, fill: colour }, body);
      txt(body, w / 2, 21, b.name, { class: "am-bnum", "text-anchor": "middle" });
      coin(body, w / 2, 46, 10, b.coin);
    }
    const [gx, gy] = across ? [47, 50] : [22, 78];
    if (b.goods && b.colour) {
      good(el("g", { transform: `translate(${gx} ${gy})` }, body), b.colour, 11);
      txt(body, gx + 15, gy + 8, String(b.goods), { class: "am-bgoods" });
    } else {
      txt(body, gx + 14, gy + 6, "—", { class: "am-sub", "text-anchor": "middle" });
    }
    // an arrow from the buyer into its line
    const arrow = { South: [w / 2, -BGAP + 3, 0], North: [w / 2, hh + BGAP - 3, 180], West: [w + BGAP - 3, hh / 2, 90], East: [-BGAP + 3, hh / 2, -90] }[side];
    el("path", { d: "M-6,4 L0,-5 L6,4 Z", transform: `translate(${arrow[0]} ${arrow[1]}) rotate(${arrow[2]})`, fill: colour }, body);
    rings(g, w, hh, -4);
  }

  // where a side's name goes: [x, y, rotation]
  function sideLabelAt(side) {
    if (side === "South") return [GX + G / 2, GY + G + BGAP + BD + 22, 0];
    if (side === "North") return [GX + G / 2, GY - BGAP - BD - 10, 0];
    if (side === "West") return [GX - BGAP - BD - 10, GY + G / 2, -90];
    return [GX + G + BGAP + BD + 10, GY + G / 2, 90];
  }

  function drawBuyers(svg, view, obs) {
    const mover = obs.terminal || obs.phase === "random build" ? -1 : obs.turn_of;
    const teams = teamsOf(obs);
    for (const player of obs.players) {
      const seat = player.seat, side = player.side, name = seatName(view, seat);
      player.buyers.forEach((b, k) => drawBuyer(svg, view, player, b, k));
      const team = teams.length === 2 && teams[0].length === 2 ? (teams[0].includes(seat) ? t("team A") : t("team B")) : null;
      const label = (mover === seat ? "▶ " : "") + sideWord(side) + " · " + clip(name, 26) + (team ? " · " + team : "");
      const [lx, ly, rot] = sideLabelAt(side);
      const turn = rot ? `rotate(${rot} ${lx} ${ly})` : null;
      const node = fit(txt(svg, lx, ly, label, { class: "am-sidename" + (mover === seat ? " moving" : ""), "text-anchor": "middle", transform: turn }), G, 9);
      titleOf(node, `${sideWord(side)}: ${name}`);
      const width = Math.min(G, 9 * label.length);
      el("rect", { x: lx - width / 2, y: ly + 5, width, height: 4, rx: 2, fill: seatColour(seat), transform: turn }, svg);
    }
  }

  // [x, y, width, height] of what is drawn: the market and the seated sides, without the
  // margins of empty sides (two players sit South and West), so the board is as big as it can be
  function boardBox(obs) {
    const seated = new Set(obs.players.map((p) => p.side));
    const x0 = seated.has("West") ? 0 : EDGE, y0 = seated.has("North") ? 0 : EDGE;
    const x1 = seated.has("East") ? VW : VW - EDGE, y1 = seated.has("South") ? VW : VW - EDGE;
    return [x0, y0, x1 - x0, y1 - y0];
  }

  function drawBoard(view, obs) {
    const [x, y, w, hh] = boardBox(obs);
    const svg = el("svg", { class: "am-board", viewBox: `${x} ${y} ${w} ${hh}`, role: "group", "aria-label": t("Aztec Market board") });
    el("rect", { x, y, width: w, height: hh, rx: 18, class: "am-bg" }, svg);
    drawMarket(svg, view, obs);
    drawBuyers(svg, view, obs);
    return svg;
  }

  // ---- the side panel (HTML) ------------------------------------------------------------------------
  function phaseTitle(phase) {
    return {
      build: t("Set-up: building the market"),
      "random build": t("Set-up: a random market"),
      "start coin": t("Set-up: starting coins"),
      choose: t("PASS or PLAY?"),
      restock: t("PASS 1: restocking the vendors"),
      "pass moves": t("PASS 2: moving the market"),
      "pass coin": t("PASS 3: taking a coin"),
      "pass king": t("PASS 4: the king may buy"),
      play: t("PLAY: moves and purchases"),
      over: t("The game is over"),
    }[phase] || "";
  }

  // [what happens now, what to do on your turn]
  function phaseHelp(view, obs) {
    const mine = myTurn(view);
    const turn = obs.turn || {};
    switch (obs.phase) {
      case "build": {
        const placed = Object.values(obs.market).filter((x) => x).length;
        return [t("{placed} of 15 tiles placed; the square left empty will be the hole.", { placed }),
          mine ? t("Your turn: pick a tile to place, then an empty square.") : ""];
      }
      case "random build":
        return [t("The tiles are laid out at random, square by square from A1 to D4; one square stays empty: the hole."), ""];
      case "start coin":
        return [t("Each player puts a coin on one of their buyers."), mine ? t("Your turn: click one of your buyers.") : ""];
      case "choose":
        return [t("PASS: restock, 2 free moves, a coin, the king. PLAY: pay coins to move tiles, then buy."),
          mine ? t("Your turn: choose pass or play.") : ""];
      case "restock": {
        const n = turn.goods_to_draw || 0;
        return [tn("{n} good still to draw from the bag.", "{n} goods still to draw from the bag.", n), ""];
      }
      case "pass moves": {
        const n = turn.market_moves_owed || 0;
        return [tn("{n} free move owed: a tile goes into the hole.", "{n} free moves owed: a tile goes into the hole.", n),
          mine ? t("Your turn: click the tile to move into the hole.") : ""];
      }
      case "pass coin":
        return [t("A coin from the reserve onto a buyer without one."), mine ? t("Your turn: click one of your buyers.") : ""];
      case "pass king":
        return [t("The king may buy 1 good from a vendor in his row or column."), mine ? t("Your turn: click a vendor, or let the king skip.") : ""];
      case "play": {
        const notes = [turn.bought ? t("A purchase made: you may end the turn.") : t("A purchase is due.")];
        if (turn.errand_boy_just_moved) notes.push(t("The errand boy just moved."));
        return [notes.join(" "), mine ? t("Buy: a buyer, then a vendor. Move: a tile, then the buyer who pays (the errand boy moves free).") : ""];
      }
      default:
        return ["", ""];
    }
  }

  function section(cls, title, ...kids) {
    return h("section", { class: "am-box " + cls }, title ? h("h3", null, title) : null, ...kids);
  }

  // The turn in a few lines (the dock keeps it in sight): the phase and who moves, what to do
  // now, what is left this turn (moves owed, a purchase made or due)
  function turnBox(view, obs) {
    let [note, hint] = phaseHelp(view, obs);
    if (view.status === "open") [note, hint] = [t("Waiting for players to take their seats."), ""];
    let who = null;
    if (!obs.terminal && obs.turn_of >= 0 && obs.phase !== "random build") {
      const fields = { side: sideWord(SIDES[obs.turn_of]), name: seatName(view, obs.turn_of) };
      who = h("span", { class: "am-who" }, dot(obs.turn_of),
        obs.to_move < 0 ? t("{side}: {name} (drawing)", fields) : t("{side}: {name} to move", fields));
    } else if (obs.terminal) {
      who = h("span", { class: "am-who" }, t("The bag is empty and the round is complete."));
    }
    return h("section", { class: "am-box am-turn" },
      h("p", { class: "am-head" }, h("strong", { class: "am-phase" }, phaseTitle(obs.phase)), who),
      hint || note ? h("p", null, hint ? h("span", { class: "am-hint" }, hint) : null, hint && note ? " " : null,
        note ? h("span", { class: "am-note" }, note) : null) : null);
  }

  // the set-up's tiles still to place, the first step of placing one (the player's supply)
  function trayBox(obs) {
    const left = obs.tiles_to_place || {};
    const kinds = TILE_ORDER.filter((k) => left[k]);
    const grid = h("div", { class: "am-tray", role: "group", "aria-label": t("Tiles to place") });
    for (const kind of kinds) {
      const svg = el("svg", { viewBox: `0 0 ${TRAY} ${TRAY}`, class: "am-traysvg", "aria-hidden": "true" });
      tile(svg, kind, obs, TRAY, true);
      const label = t("tile to place: {tile}, {left} of {total} left", { tile: tileWord(kind), left: left[kind], total: TILE_TOTAL[kind] });
      grid.append(h("div", { class: "am-traytile", "data-key": "tile-" + slug(kind), "aria-label": label, title: tileWord(kind) },
        svg, left[kind] > 1 ? h("span", { class: "am-count" }, "×" + left[kind]) : null));
    }
    return kinds.length ? grid : null;
  }

  // The turn's buttons: moves with no piece on the board. Drawn on the player's turn even when
  // not a move now (PLAY with no purchase in reach, End turn before a purchase): a click on one
  // then says why (`attempt`).
  const CONTROLS = { pass: "pass", play: "play", "king-skips": "king skips", end: "end turn" };  // key -> notation
  function controlWord(key) {
    return { pass: t("PASS"), play: t("PLAY"), "king-skips": t("The king skips"), end: t("End turn") }[key];
  }
  function controls(view, obs) {
    const shown = myTurn(view) ? { choose: ["pass", "play"], "pass king": ["king-skips"], play: ["end"] }[obs.phase] || [] : [];
    if (!shown.length) return null;
    return h("div", { class: "am-buttons" }, shown.map((key) => h("button", { type: "button", class: "am-btn", "data-key": key }, controlWord(key))));
  }

  // what the dock keeps in sight under the board: the turn, the tray (on every turn of the
  // set-up, so that the dock, and the board fitted above it, keep their size) or the buttons
  function dockPart(view, obs) {
    const building = obs.phase === "build" || obs.phase === "random build";
    return h("div", { class: "tl-am am-dock", "data-dock": "" }, turnBox(view, obs),
      building ? trayBox(obs) : controls(view, obs));
  }

  function kingBox(obs) {
    const row = h("div", { class: "am-kingrow" });
    for (const c of COLOURS) {
      const n = obs.king[c] || 0;
      row.append(h("span", { class: "am-kval" + (n ? "" : " zero"), title: goodsWords(c, n) }, goodIcon(c, 20), "×" + n));
    }
    const title = h("span", null, crownIcon(20), " ", t("The king's goods"));
    return section("am-king", title, h("p", { class: "am-tiny" }, t("each good you hold scores this many points")), row);
  }

  function goodsHead(first) {
    return h("tr", null, h("th", { scope: "col", class: "am-rowname" }, first),
      COLOURS.map((c) => h("th", { scope: "col" }, goodIcon(c, 18))));
  }

  function stockBox(obs) {
    const openly = (obs.removed && obs.removed.openly) || {};
    const rows = [[t("on vendors"), obs.vendors], [t("unseen"), obs.unseen]];
    if (COLOURS.some((c) => openly[c])) rows.push([t("removed"), openly]);
    const table = h("table", { class: "am-table" }, h("thead", null, goodsHead("")),
      h("tbody", null, rows.map(([name, counts]) => h("tr", null, h("th", { scope: "row", class: "am-rowname" }, name),
        COLOURS.map((c) => h("td", null, String(counts[c] || 0)))))));
    const hidden = (obs.removed && obs.removed.unseen) || 0;
    const bag = tn("bag: {n} good to draw", "bag: {n} goods to draw", obs.bag) +
      (hidden ? " " + t("(+{n} removed unseen)", { n: hidden }) : "");
    return section("am-stock", t("Goods and coins"), table, h("p", { class: "am-small" }, bag),
      h("p", { class: "am-small" }, tn("{n} coin in the reserve", "{n} coins in the reserve", obs.coin_reserve)));
  }

  function scoresBox(view, obs) {
    const teams = teamsOf(obs);
    const paired = teams.length < obs.players.length;
    const won = (seat) => obs.terminal && obs.returns && obs.returns[seat] > 0;
    const badge = (seat) => (won(seat) ? h("span", { class: "am-won" }, crownIcon(16), obs.returns[seat] >= 1 ? t("victory") : t("shared victory")) : null);
    const head = goodsHead(t("player"));
    head.append(h("th", { scope: "col" }, t("coins")), h("th", { scope: "col" }, t("score")));
    const body = h("tbody");
    teams.forEach((team, ti) => {
      const held = team.map((s) => goodsOf(obs.players[s]));
      const best = {};
      COLOURS.forEach((c) => { best[c] = Math.max(...held.map((x) => x[c])); });
      if (paired) {
        body.append(h("tr", { class: "am-teamrow" },
          h("th", { scope: "rowgroup", colspan: 6, class: "am-rowname" }, (ti === 0 ? t("team A") : t("team B")) + ": " + teamName(team), " ", badge(team[0])),
          h("td", { class: "am-score" }, String(obs.scores[team[0]]))));
      }
      team.forEach((seat, k) => {
        const full = `${sideWord(SIDES[seat])}: ${seatName(view, seat)}`;
        const row = h("tr", { class: ti % 2 ? "" : "am-stripe" },
          h("th", { scope: "row", class: "am-rowname am-name", title: full }, dot(seat), full, paired ? null : [" ", badge(seat)]),
          COLOURS.map((c) => {
            const v = held[k][c];
            return h("td", { class: v > 0 && v === best[c] ? "am-counts" : "am-faint" }, String(v));
          }),
          h("td", null, String(coinsOf(obs.players[seat]))),
          h("td", { class: "am-score" }, paired ? "" : String(obs.scores[seat])));
        body.append(row);
      });
    });
    const note = paired ? t("bold: the partner's goods that count") : t("bold: goods that score (the king has some)");
    return section("am-scores", paired ? t("Teams and scores") : t("Players and scores"),
      h("table", { class: "am-table" }, h("thead", null, head), body), h("p", { class: "am-tiny" }, note));
  }

  // the tables to read, below the dock: not needed to play a turn (the king's goods are on his
  // tile and each buyer's goods on it)
  function extrasPart(view, obs) {
    const building = obs.phase === "build" || obs.phase === "random build";
    return h("div", { class: "tl-am am-extras", "data-extra": "" }, kingBox(obs),
      building ? null : stockBox(obs), scoresBox(view, obs));
  }

  // ---- the renderer -------------------------------------------------------------------------------
  function draw(root, view) {
    const obs = view.observation;
    root.append(h("div", { class: "tl-am am-main" }, drawBoard(view, obs)), dockPart(view, obs), extrasPart(view, obs));
    fitDrawn(root);
  }

  // Labels whose drawn width (long Spanish words: GOBERNADOR, AGLOMERACIÓN) is more than
  // the estimate allowed: squeezed to fit their tile.
  function fitDrawn(root) {
    for (const node of root.querySelectorAll("text[data-fit]")) {
      if (node.hasAttribute("textLength")) continue;
      const width = Number(node.getAttribute("data-fit"));
      let drawn = 0;
      try { drawn = node.getComputedTextLength(); } catch (err) { drawn = 0; }
      if (drawn > width) {
        node.setAttribute("textLength", width);
        node.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
  }

  function keys(move, view) {
    const obs = view.observation;
    switch (move.kind) {
      case "place": return ["tile-" + slug(move.tile), move.square];
      case "move": return move.paid_by ? [move.square, move.paid_by] : [move.square];
      case "coin": return [move.buyer];
      case "buy": return [move.buyer, move.square || vendorSquare(obs, move.vendor) || "vendor-" + move.vendor];
      case "king_buys": return [move.square || vendorSquare(obs, move.vendor) || "vendor-" + move.vendor];
      case "king_skips": return ["king-skips"];
      case "pass": return ["pass"];
      case "play": return ["play"];
      case "end_turn": return ["end"];
      case "draw": return ["draw-" + move.colour];
      case "hole": return ["hole-" + move.square];
      default: return [move.kind];
    }
  }

  // A pick key in words, for the shell's "Picked: ..." line.
  function label(key, view) {
    const obs = view.observation;
    if (isSquare(key)) {
      const name = obs.market[key];
      if (name) return t("{tile} at {square}", { tile: tileWord(name), square: key });
      return obs.hole === key ? t("the hole at {square}", { square: key }) : t("the empty square {square}", { square: key });
    }
    if (isBuyer(key)) return t("buyer {name}", { name: key });
    if (key.startsWith("tile-")) return t("the {tile} tile", { tile: tileWord(key.slice(5).replace(/-/g, " ")) });
    return {
      pass: t("choose PASS"), play: t("choose PLAY"), "king-skips": t("the king skips"), end: t("end the turn"),
    }[key] || null;
  }

  // The notation of the move a click on `key` most likely meant when `key` is not pickable now:
  // the server answers with the engine's reason why it is not legal. Only moves of the phase the
  // game is in: the engine's reason for a move of another phase names the phase's moves in
  // notation ("now is the time for placing a market tile ('place crowd at B3')"), so a piece
  // that means nothing in this phase (a buyer during the set-up, a square when coins are placed,
  // another side's buyer: no move of ours names it) gets null, the shell's general answer. A
  // move that is legal (a step taken out of order) has no reason either: null too.
  function attempt(path, key, view) {
    if (!myTurn(view)) return null;   // the shell says whose turn it is
    const legal = new Set((view.legal || []).map((m) => m.text));
    const refused = (text) => (text && !legal.has(text) ? text : null);
    // a rival's buyer: no move names it for this seat, so the page says why itself
    if (isBuyer(key) && key[0] !== SIDE_LETTERS[view.viewer]) {
      return {reason: t("{buyer} is another player's buyer: you may use only your own.", {buyer: key})};
    }
    const meant = phaseAttempt(path, key, view, refused);
    if (meant) return meant;
    // a piece that means nothing in this phase: a move of another phase, which the engine
    // refuses by naming, in words, what this phase is for
    if (isSquare(key)) return refused(`place crowd at ${key}`);
    if (isBuyer(key)) return refused(`coin on ${key}`);
    return null;
  }

  function phaseAttempt(path, key, view, refused) {
    const obs = view.observation;
    if (CONTROLS[key]) return refused(CONTROLS[key]);
    switch (obs.phase) {
      case "build": {   // a taken square, whichever tile was meant
        const kind = (path[0] || "").startsWith("tile-") ? path[0].slice(5).replace(/-/g, " ")
          : TILE_ORDER.find((k) => (obs.tiles_to_place || {})[k]);
        return isSquare(key) && obs.market[key] && kind ? refused(`place ${kind} at ${key}`) : null;
      }
      case "start coin": case "pass coin": return isBuyer(key) ? refused(`coin on ${key}`) : null;
      case "choose": return refused("play");   // buying needs PLAY: the engine says when no purchase is in reach
      case "pass moves": return isSquare(key) ? refused(moveText(obs, key, null)) : null;
      case "pass king": {
        const colour = isSquare(key) && vendorColour(obs.market[key]);
        return colour ? refused(`king buys ${colour}`) : null;
      }
      case "play": return refused(playAttempt(path, key, obs, view.viewer));
      default: return null;
    }
  }

  // PLAY: a buyer after a square pays for moving it, else buys (from the vendor it most likely
  // means); a vendor after a buyer sells to it; any other square is moved, paid by a buyer with
  // a coin (the errand boy free)
  function playAttempt(path, key, obs, seat) {
    const first = path[0];
    if (isBuyer(key)) return first && isSquare(first) ? moveText(obs, first, key) : buyText(obs, key);
    const colour = vendorColour(obs.market[key]);
    if (first && isBuyer(first) && colour) return `buy ${first} from ${colour}`;
    return moveText(obs, key, payer(obs, seat));
  }

  // "move crowd from B3" (and "paying S2" for a paid move in PLAY); the errand boy moves free
  function moveText(obs, square, buyer) {
    const name = obs.market[square];
    const text = `move ${name || "nothing"} from ${square}`;
    return buyer && name !== "errand boy" ? `${text} paying ${buyer}` : text;
  }

  // the buyer of `seat` that would pay for a market move: one with a coin, else the first
  function payer(obs, seat) {
    const buyers = obs.players[seat].buyers;
    return (buyers.find((b) => b.coin) || buyers[0]).name;
  }

  // a purchase by `buyer` from the vendor it most likely means: the nearest on its line, else
  // one with goods
  function buyText(obs, buyer) {
    const onLine = lineOf(buyer).map((sq) => vendorColour(obs.market[sq])).find((c) => c);
    const stocked = COLOURS.find((c) => obs.vendors[c]);
    return `buy ${buyer} from ${onLine || stocked || COLOURS[0]}`;
  }

  // The board's pieces a seat's last move changed (the shell marks them).
  function lastMoveKeys(move, view) {
    const obs = view.observation;
    let out;
    switch (move.kind) {
      case "place": case "hole": out = [move.square]; break;
      case "move": out = [move.square, move.to, move.paid_by]; break;
      case "coin": out = [move.buyer]; break;
      case "buy": out = [move.buyer, move.square || vendorSquare(obs, move.vendor)]; break;
      case "king_buys": out = [move.square || vendorSquare(obs, move.vendor), move.king || findTile(obs, "king")]; break;
      case "draw": out = [vendorSquare(obs, move.colour)]; break;
      default: out = [];
    }
    return out.filter((k) => k);
  }

  // ---- the result -------------------------------------------------------------------------------------

  // The sides at the end, ranked by score, then the coins of the side's member with the most
  // coins, then the goods of its member with the most goods.
  function sideRows(view) {
    const obs = view.observation;
    const scores = (view.result && view.result.scores) || view.scores || obs.scores;
    const returns = (view.result && view.result.returns) || obs.returns || [];
    return teamsOf(obs).map((team) => {
      const coins = Math.max(...team.map((s) => coinsOf(obs.players[s])));
      const goods = Math.max(...team.map((s) => { const g = goodsOf(obs.players[s]); return COLOURS.reduce((a, c) => a + g[c], 0); }));
      return { team, name: teamName(team), score: scores[team[0]], coins, goods, share: returns[team[0]] || 0 };
    });
  }

  function sideWords(view, row) {
    return `${esc(row.name)} (${andList(row.team.map((s) => esc(seatName(view, s))))})`;
  }

  function resultHead(view, rows, team) {
    const top = rows[0];
    const strong = (s) => `<strong>${s}</strong>`;
    const tiedScore = rows.filter((r) => r.score === top.score);
    const winners = rows.filter((r) => r.score === top.score && r.coins === top.coins && r.goods === top.goods);
    if (winners.length > 1) {
      return [html(t("Shared victory: {sides}, tied on {score} points."), { sides: andList(winners.map((r) => strong(sideWords(view, r)))), score: strong(top.score) }),
        html(t("Both tie-breaks are tied as well (coins: {coins} each; goods: {goods} each), so the victory is shared, 1/{k} each."), { coins: top.coins, goods: top.goods, k: winners.length })];
    }
    const side = strong(sideWords(view, top)), score = strong(top.score);
    if (tiedScore.length === 1) {
      const next = rows[1];
      const fields = { side, score, other: next.score, name: esc(next.name) };
      return [team ? html(t("{side} win with {score} points, against {other} for {name}."), fields)
        : html(t("{side} wins with {score} points, against {other} for {name}."), fields), ""];
    }
    const others = tiedScore.filter((r) => r !== top);
    const tied = andList(tiedScore.map((r) => esc(r.name)));
    const head = team ? html(t("{side} win on a tie-break: {tied} are tied on {score} points."), { side, tied, score })
      : html(t("{side} wins on a tie-break: {tied} are tied on {score} points."), { side, tied, score });
    const name = esc(top.name);
    if (others.every((r) => r.coins < top.coins)) {
      const fields = { side: name, coins: esc(coinsWords(top.coins)), others: others.map((r) => `${esc(r.name)} ${r.coins}`).join(", ") };
      return [head, team ? html(t("First tie-break, coins: the partner of {side} with the most coins has {coins}; {others}."), fields)
        : html(t("First tie-break, coins: {side} has {coins}; {others}."), fields)];
    }
    const fields = { side: name, coins: top.coins, goods: esc(tn("{n} good", "{n} goods", top.goods)), others: others.map((r) => `${esc(r.name)} ${r.goods}`).join(", ") };
    return [head, team ? html(t("First tie-break, coins: tied at {coins}. Second tie-break, goods: the partner of {side} with the most goods has {goods}; {others}."), fields)
      : html(t("First tie-break, coins: tied at {coins}. Second tie-break, goods: {side} has {goods}; {others}."), fields)];
  }

  function sideBlock(view, r) {
    const obs = view.observation;
    const held = r.team.map((s) => goodsOf(obs.players[s]));
    const best = {};
    COLOURS.forEach((c) => { best[c] = Math.max(...held.map((x) => x[c])); });
    const pair = r.team.length > 1;
    const win = r.share >= 1 ? (pair ? t("winning team") : t("winning player")) : r.share > 0 ? t("shared ({share})", { share: +r.share.toFixed(2) }) : "";
    const calc = COLOURS.filter((c) => obs.king[c] && best[c]).map((c) => `${best[c]}·${obs.king[c]}`).join(" + ");
    const counted = {};   // equal partners: only the first one's goods are marked as counted
    const none = esc(t("no goods")), nothing = esc(t("no goods of a colour the king holds"));
    const members = r.team.map((seat, k) => {
      const goods = COLOURS.filter((c) => held[k][c]).map((c) => {
        const v = held[k][c], words = esc(`${colourWord(c)} ${v}`);
        if (v === best[c] && !counted[c]) { counted[c] = true; return `<strong>${words}</strong>`; }
        return `<span class="am-faint">${words}</span>`;
      });
      return `<li><span class="am-dot" style="background:${seatColour(seat)}"></span>${esc(sideWord(SIDES[seat]))}: ` +
        `${esc(seatName(view, seat))}<div class="am-goods">${goods.length ? goods.join(", ") : none}; ` +
        `${esc(coinsWords(coinsOf(obs.players[seat])))}</div></li>`;
    }).join("");
    return `<div class="am-side-block${r.share > 0 ? " am-win" : ""}"><div><strong>${esc(r.name)}: ${r.score}</strong>` +
      (win ? ` <span class="am-badge">${esc(win)}</span>` : "") + `</div>` +
      `<div class="am-calc">${calc ? esc(calc) + " = " + r.score : nothing}</div>` +
      `<ul>${members}</ul></div>`;
  }

  function result(view) {
    const obs = view.observation;
    const rows = sideRows(view).sort((a, b) => b.score - a.score || b.coins - a.coins || b.goods - a.goods);
    const team = rows[0].team.length > 1;
    const [head, why] = resultHead(view, rows, team);
    const king = COLOURS.map((c) => `${colourWord(c)} ${obs.king[c] || 0}`).join(", ");
    const note = team
      ? t("Per colour, a side scores the goods of its partner with the most of that colour (in bold) times the king's goods of that colour. A tie goes to the side whose partner has the most coins, then the most goods; otherwise the victory is shared.")
      : t("Per colour, a player scores their goods of that colour times the king's goods of that colour. A tie goes to the player with the most coins, then the most goods; otherwise the victory is shared.");
    const kingLine = esc(t("The king's goods (points per good): {goods}.", { goods: king }));
    return `<div class="am-result"><p>${head}</p>${why ? `<p>${why}</p>` : ""}${rows.map((r) => sideBlock(view, r)).join("")}` +
      `<p class="am-kingline">${kingLine}</p>` +
      `<p class="am-note">${esc(note)}</p></div>`;
  }

  T.register("aztec_market", { draw, keys, label, attempt, lastMoveKeys, result });
})();
