/* Aztec Market: the browser renderer (drawn only from the view the shell passes).
 *
 * The board: the 4x4 market (columns A-D West to East, rows 1-4 South to North) with each
 * seated side's four buyers just outside it (South below, West left, North above, East right),
 * and a side panel with the turn, the tiles still to place, the king's goods, the goods and
 * coins in play and the sides' scores.
 *
 * Pick paths (data-key values; squares are "A1".."D4", buyers "S1".."E4"):
 *   place a tile (set-up)        -> ["tile-<kind>", square]   a tile of the tray, then an empty square
 *   coin on a buyer              -> [buyer]
 *   market move (PASS, errand)   -> [square]                  the tile that goes into the hole
 *   paid market move (PLAY)      -> [square, buyer]           the tile, then the buyer whose coin pays
 *   buy (PLAY)                   -> [buyer, square]           the buyer, then the vendor's square
 *   king buys (PASS)             -> [square]                  the vendor's square
 *   pass, play, king skips, end turn -> ["pass"], ["play"], ["king-skips"], ["end"]: buttons
 */
(function () {
  "use strict";

  const SVGNS = "http://www.w3.org/2000/svg";
  const COLOURS = ["black", "blue", "red", "green"];
  const GOODS = {
    black: { fill: "#2d2d2d", dark: "#000", light: "#e4e1dc", ware: "pottery", awning: "#3b3b3b" },
    blue: { fill: "#2c63c4", dark: "#173a80", light: "#dde7f8", ware: "cloth", awning: "#2c63c4" },
    red: { fill: "#c8283a", dark: "#7a1220", light: "#f8dcdf", ware: "jewels", awning: "#c8283a" },
    green: { fill: "#2e8b3a", dark: "#17521f", light: "#dcefd9", ware: "herbs", awning: "#2e8b3a" },
  };
  const SIDES = ["South", "West", "North", "East"];
  // Seat colours (the same order in every Tlatelolco renderer); none is a goods colour.
  const SEAT_COLOURS = window.Tlatelolco.SEAT_COLOURS;
  const TILE_INFO = {
    crowd: { label: "crowd", effect: "blocks buyers" },
    porter: { label: "porter", effect: "1 good back" },
    governor: { label: "governor", effect: "1 good to king" },
    ambassador: { label: "ambassador", effect: "buyer keeps coin" },
    "errand boy": { label: "errand boy", effect: "moves free" },
    king: { label: "king", effect: "" },
  };
  const TILE_ORDER = ["black vendor", "blue vendor", "red vendor", "green vendor", "crowd", "porter",
    "governor", "ambassador", "errand boy", "king"];
  const TILE_TOTAL = { "black vendor": 1, "blue vendor": 1, "red vendor": 1, "green vendor": 1, crowd: 4,
    porter: 2, governor: 2, ambassador: 1, "errand boy": 1, king: 1 };
  const COLS = "ABCD";

  // Geometry (SVG units).
  const W = 1120;
  const C = 112;                 // a market square
  const GX = 168, GY = 128;      // the grid's top-left corner
  const G = 4 * C;
  const BW = 98, BH = 68, BGAP = 14;  // buyer tiles and their distance from the grid
  const PX = 770, PW = W - PX - 14;   // the side panel

  // ---- small helpers ---------------------------------------------------------------------------
  const T = window.Tlatelolco;  // the shell's shared helpers
  const el = T.svg.bind(T), txt = T.text.bind(T);
  const esc = (s) => T.escape(s), seatName = (view, seat) => T.seatName(view, seat);
  function clip(s, n) { return s.length > n ? s.slice(0, n - 1) + "…" : s; }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function slug(s) { return s.replace(/\s+/g, "-"); }
  function seatColour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }
  function titleOf(parent, s) {
    const t = document.createElementNS(SVGNS, "title");
    t.textContent = s;
    parent.appendChild(t);
  }
  function squareXY(sq) {   // top-left corner of a square
    const col = COLS.indexOf(sq[0]), row = parseInt(sq.slice(1), 10) - 1;
    return [GX + col * C, GY + (3 - row) * C];
  }
  function myTurn(view) {
    return view.viewer !== null && view.viewer !== undefined && view.to_move === view.viewer && (view.legal || []).length > 0;
  }
  function vendorSquare(obs, colour) {
    for (const [sq, tile] of Object.entries(obs.market)) if (tile === colour + " vendor") return sq;
    return null;
  }
  function sideOf(seat) { return SIDES[seat]; }
  function goodsOf(player) {   // a player's goods by colour, summed over their buyers
    const out = { black: 0, blue: 0, red: 0, green: 0 };
    for (const b of player.buyers) if (b.colour) out[b.colour] += b.goods;
    return out;
  }
  function coinsOf(player) { return player.buyers.filter((b) => b.coin).length; }
  function teamsOf(obs) { return obs.teams && obs.teams.length ? obs.teams : obs.players.map((p) => [p.seat]); }
  function teamName(view, team) { return team.map((s) => sideOf(s)).join(" + "); }

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

  // ---- market tiles ------------------------------------------------------------------------------

  // A market tile drawn in a box of size s at (0, 0) of `g`; `mini` for the set-up tray.
  function tile(g, name, obs, s, mini) {
    const pad = 4;
    if (name === null || name === undefined) return;
    if (name.endsWith(" vendor")) {
      const colour = name.split(" ")[0], c = GOODS[colour];
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
        txt(g, s / 2, pad + ah - 6, colour, { class: "am-awning-mini", "text-anchor": "middle" });
        const gg = el("g", { transform: `translate(${s / 2} ${s * 0.64})` }, g);
        good(gg, colour, s * 0.17);
        return;
      }
      txt(g, s / 2, pad + ah - 8, colour.toUpperCase(), { class: "am-awning", "text-anchor": "middle" });
      const count = obs.vendors[colour] || 0;
      const gg = el("g", { transform: `translate(${s * 0.33} ${s * 0.6})` }, g);
      good(gg, colour, s * 0.16);
      txt(g, s * 0.52, s * 0.69, String(count), { class: count ? "am-vcount" : "am-vcount zero" });
      txt(g, s / 2, s - 11, c.ware + " vendor", { class: "am-sub", "text-anchor": "middle" });
      return;
    }
    if (name === "king") {
      el("rect", { x: pad, y: pad, width: s - 2 * pad, height: s - 2 * pad, rx: 9, class: "am-tile king" }, g);
      crown(g, s / 2, mini ? s * 0.42 : s * 0.22, mini ? s * 0.22 : s * 0.15);
      txt(g, s / 2, mini ? s - 9 : s * 0.45, "KING", { class: mini ? "am-label-mini" : "am-label", "text-anchor": "middle" });
      if (!mini) {   // the goods on the king, by colour
        COLOURS.forEach((colour, i) => {
          const cx = pad + 14 + (i % 2) * 52, cy = s * 0.6 + Math.floor(i / 2) * 26;
          const gg = el("g", { transform: `translate(${cx} ${cy})` }, g);
          good(gg, colour, 9);
          txt(g, cx + 13, cy + 6, String(obs.king[colour] || 0), { class: "am-kcount" });
        });
      }
      return;
    }
    const info = TILE_INFO[name] || { label: name, effect: "" };
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
    const squeeze = mini && info.label.length > 8 ? { textLength: s - 10, lengthAdjust: "spacingAndGlyphs" } : {};
    txt(g, s / 2, mini ? s - 9 : s - 28, mini ? info.label : info.label.toUpperCase(), Object.assign({ class: (mini ? "am-label-mini" : "am-label") + (crowd ? " light" : ""), "text-anchor": "middle" }, squeeze));
    if (!mini) txt(g, s / 2, s - 12, info.effect, { class: "am-sub" + (crowd ? " light" : ""), "text-anchor": "middle" });
  }

  function tileWords(name, obs) {
    if (name.endsWith(" vendor")) {
      const colour = name.split(" ")[0];
      const n = obs.vendors[colour] || 0;
      return `${name} (${GOODS[colour].ware}) with ${plural(n, "good")}`;
    }
    if (name === "king") {
      const held = COLOURS.filter((c) => obs.king[c]).map((c) => `${obs.king[c]} ${c}`);
      return "the king, holding " + (held.length ? held.join(", ") : "no goods");
    }
    const info = TILE_INFO[name];
    return info && info.effect ? `${name} (${info.effect})` : name;
  }

  // ---- the market and the buyers -----------------------------------------------------------------
  function drawMarket(svg, view, obs) {
    const building = obs.phase === "build" || obs.phase === "random build";
    // the market's ground
    el("rect", { x: GX - 12, y: GY - 12, width: G + 24, height: G + 24, rx: 16, class: "am-ground" }, svg);
    for (const [sq, name] of Object.entries(obs.market)) {
      const [x, y] = squareXY(sq);
      const isHole = name === null && obs.hole === sq;
      let label;
      if (name) label = `square ${sq}: ${tileWords(name, obs)}`;
      else if (isHole) label = `square ${sq}: the hole`;
      else label = `square ${sq}: empty`;
      const g = el("g", { transform: `translate(${x} ${y})`, "data-key": sq, "aria-label": label, class: "am-square" }, svg);
      if (name) {
        tile(g, name, obs, C, false);
      } else {
        if (isHole) {
          el("rect", { x: 5, y: 5, width: C - 10, height: C - 10, rx: 9, class: "am-hole" }, g);
          txt(g, C / 2, C / 2 + 6, "hole", { class: "am-hole-text", "text-anchor": "middle" });
        } else {
          el("rect", { x: 6, y: 6, width: C - 12, height: C - 12, rx: 9, class: "am-empty" }, g);
          if (building) txt(g, C / 2, C / 2 + 5, "empty", { class: "am-sub", "text-anchor": "middle" });
        }
      }
      const onDark = name === "crowd" || (name && name.endsWith(" vendor")) || (!name && isHole);
      txt(g, 11, 19, sq, { class: "am-sqname" + (onDark ? " light" : "") });
      el("rect", { class: "am-hl", x: 2, y: 2, width: C - 4, height: C - 4, rx: 11 }, g);
    }
  }

  function buyerBox(side, k) {   // [x, y] of buyer k's tile on a side
    if (side === "South") return [GX + k * C + (C - BW) / 2, GY + G + BGAP];
    if (side === "North") return [GX + k * C + (C - BW) / 2, GY - BGAP - BH];
    const y = GY + (3 - k) * C + (C - BH) / 2;
    if (side === "West") return [GX - BGAP - BW, y];
    return [GX + G + BGAP, y];
  }

  function drawBuyers(svg, view, obs) {
    const mover = obs.terminal || obs.phase === "random build" ? -1 : obs.turn_of;
    const teams = teamsOf(obs);
    for (const player of obs.players) {
      const seat = player.seat, side = player.side;
      const colour = seatColour(seat);
      const name = seatName(view, seat);
      player.buyers.forEach((b, k) => {
        const [x, y] = buyerBox(side, k);
        const parts = [`buyer ${b.name} of ${name} (${side})`, b.coin ? "has a coin" : "no coin",
          b.goods ? `holds ${b.goods} ${b.colour}` : "holds no goods"];
        const g = el("g", { transform: `translate(${x} ${y})`, "data-key": b.name, "aria-label": parts.join(", "), class: "am-buyer" }, svg);
        el("rect", { x: 0, y: 0, width: BW, height: BH, rx: 9, fill: "#fffaf0", stroke: colour, "stroke-width": 3 }, g);
        el("rect", { x: 0, y: 0, width: 30, height: BH, rx: 9, fill: colour }, g);
        el("rect", { x: 20, y: 0, width: 10, height: BH, fill: colour }, g);
        txt(g, 15, 22, b.name[0], { class: "am-bside", "text-anchor": "middle" });
        txt(g, 15, 44, b.name.slice(1), { class: "am-bnum", "text-anchor": "middle" });
        coin(g, BW - 17, 18, 10, b.coin);
        if (b.goods && b.colour) {
          const gg = el("g", { transform: `translate(${46} ${47})` }, g);
          good(gg, b.colour, 11);
          txt(g, 62, 54, String(b.goods), { class: "am-bgoods" });
        } else {
          txt(g, 62, 54, "—", { class: "am-sub", "text-anchor": "middle" });
        }
        // an arrow from the buyer into its line
        const arrow = { South: [BW / 2, -BGAP + 3, 0], North: [BW / 2, BH + BGAP - 3, 180], West: [BW + BGAP - 3, BH / 2, 90], East: [-BGAP + 3, BH / 2, -90] }[side];
        el("path", { d: "M-6,4 L0,-5 L6,4 Z", transform: `translate(${arrow[0]} ${arrow[1]}) rotate(${arrow[2]})`, fill: colour }, g);
        el("rect", { class: "am-hl", x: -3, y: -3, width: BW + 6, height: BH + 6, rx: 11 }, g);
      });
      // the side's label: seat colour, name, team, to move
      const team = teams.length === 2 && teams[0].length === 2 ? (teams[0].includes(seat) ? "team A" : "team B") : null;
      const label = (mover === seat ? "▶ " : "") + side + " · " + clip(name, 24) + (team ? " · " + team : "");
      let lx, ly, rot = 0;
      if (side === "South") { lx = GX + G / 2; ly = GY + G + BGAP + BH + 26; }
      else if (side === "North") { lx = GX + G / 2; ly = GY - BGAP - BH - 12; }
      else if (side === "West") { lx = GX - BGAP - BW - 14; ly = GY + G / 2; rot = -90; }
      else { lx = GX + G + BGAP + BW + 26; ly = GY + G / 2; rot = 90; }
      const t = txt(svg, lx, ly, label, { class: "am-side" + (mover === seat ? " moving" : ""), "text-anchor": "middle", transform: rot ? `rotate(${rot} ${lx} ${ly})` : null });
      const tw = 7.6 * label.length;
      const ul = el("rect", { x: lx - tw / 2, y: ly + 5, width: tw, height: 4, rx: 2, fill: colour, transform: rot ? `rotate(${rot} ${lx} ${ly})` : null }, svg);
      titleOf(t, `${side}: ${name}, seat ${seat}`);
    }
    // empty sides (2 or 3 players)
    for (const side of SIDES) {
      if (obs.players.some((p) => p.side === side)) continue;
      let lx, ly, rot = 0;
      if (side === "North") { lx = GX + G / 2; ly = GY - 40; }
      else if (side === "East") { lx = GX + G + 40; ly = GY + G / 2; rot = 90; }
      else if (side === "West") { lx = GX - 40; ly = GY + G / 2; rot = -90; }
      else { lx = GX + G / 2; ly = GY + G + 50; }
      txt(svg, lx, ly, side + ": nobody sits here", { class: "am-empty-side", "text-anchor": "middle", transform: rot ? `rotate(${rot} ${lx} ${ly})` : null });
    }
  }

  // ---- the side panel ----------------------------------------------------------------------------
  const PHASES = {
    build: "Set-up: building the market",
    "random build": "Set-up: a random market",
    "start coin": "Set-up: starting coins",
    choose: "PASS or PLAY?",
    restock: "PASS 1: restocking the vendors",
    "pass moves": "PASS 2: moving the market",
    "pass coin": "PASS 3: taking a coin",
    "pass king": "PASS 4: the king may buy",
    play: "PLAY: moves and purchases",
    over: "Game over",
  };

  function phaseHelp(view, obs) {
    const mine = myTurn(view);
    const t = obs.turn || {};
    switch (obs.phase) {
      case "build": {
        const placed = Object.values(obs.market).filter((x) => x).length;
        return [`${placed} of 15 tiles placed; the square left empty is the hole.`,
          mine ? "Your turn: pick a tile in the tray, then an empty square." : ""];
      }
      case "random build":
        return ["The tiles are laid out at random, square by square from A1 to D4; one square stays empty: the hole.", ""];
      case "start coin":
        return ["Each player puts a coin on one of their buyers.", mine ? "Your turn: click one of your buyers." : ""];
      case "choose":
        return ["PASS: restock, 2 free moves, a coin, the king. PLAY: pay coins to move tiles, then buy.",
          mine ? "Your turn: choose pass or play." : ""];
      case "restock":
        return [`${plural(t.goods_to_draw || 0, "good")} still to draw from the bag.`, ""];
      case "pass moves":
        return [`${plural(t.market_moves_owed || 0, "free move")} owed: a tile goes into the hole.`,
          mine ? "Your turn: click the tile to move into the hole." : ""];
      case "pass coin":
        return ["A coin from the reserve onto a buyer without one.", mine ? "Your turn: click one of your buyers." : ""];
      case "pass king":
        return ["The king may buy 1 good from a vendor in his row or column.", mine ? "Your turn: click a vendor, or let the king skip." : ""];
      case "play": {
        const notes = [t.bought ? "A purchase made: you may end the turn." : "A purchase is due."];
        if (t.errand_boy_just_moved) notes.push("The errand boy just moved.");
        return [notes.join(" "), mine ? "Buy: a buyer, then a vendor. Move: a tile, then the buyer who pays (errand boy free)." : ""];
      }
      default:
        return ["", ""];
    }
  }

  // Word-wraps a line into the panel (approximate widths; the panel's fonts are known).
  function wrap(str, chars) {
    const words = str.split(" "), lines = [];
    let cur = "";
    for (const w of words) {
      if ((cur + " " + w).trim().length > chars) { lines.push(cur.trim()); cur = w; } else cur += " " + w;
    }
    if (cur.trim()) lines.push(cur.trim());
    return lines;
  }

  function panelBox(svg, y, h, title) {
    el("rect", { x: PX, y, width: PW, height: h, rx: 12, class: "am-panel" }, svg);
    if (title) txt(svg, PX + 14, y + 24, title, { class: "am-h2" });
  }

  function drawTurn(svg, view, obs, y) {
    let [note, hint] = phaseHelp(view, obs);
    if (view.status === "open") [note, hint] = ["Waiting for players to take their seats.", ""];
    const lines = wrap(note, 46);
    const hints = hint ? wrap(hint, 42) : [];
    const h = 56 + 17 * lines.length + 18 * hints.length;
    panelBox(svg, y, h, null);
    txt(svg, PX + 14, y + 26, PHASES[obs.phase] || obs.phase, { class: "am-h2" });
    if (!obs.terminal && obs.turn_of >= 0 && obs.phase !== "random build") {
      el("circle", { cx: PX + 20, cy: y + 41, r: 6, fill: seatColour(obs.turn_of) }, svg);
      txt(svg, PX + 32, y + 46, clip(sideOf(obs.turn_of) + ": " + seatName(view, obs.turn_of), 28) + (obs.to_move < 0 ? " (drawing)" : " to move"), { class: "am-small bold" });
    } else if (obs.terminal) {
      txt(svg, PX + 14, y + 46, "the bag is empty and the round is complete", { class: "am-small" });
    }
    lines.forEach((l, i) => txt(svg, PX + 14, y + 66 + 17 * i, l, { class: "am-tiny" }));
    hints.forEach((l, i) => txt(svg, PX + 14, y + 68 + 17 * lines.length + 18 * i, l, { class: "am-hint" }));
    return h;
  }

  function drawTray(svg, view, obs, y) {
    const left = obs.tiles_to_place || {};
    const kinds = TILE_ORDER.filter((k) => left[k]);
    const s = 58, gap = 6, per = 5;
    const rows = Math.max(1, Math.ceil(kinds.length / per));
    const h = 40 + rows * (s + 26);
    panelBox(svg, y, h, "Tiles to place");
    kinds.forEach((kind, i) => {
      const x = PX + 12 + (i % per) * (s + gap), yy = y + 36 + Math.floor(i / per) * (s + 26);
      const g = el("g", { transform: `translate(${x} ${yy})`, "data-key": "tile-" + slug(kind), "aria-label": `tile to place: ${kind}, ${left[kind]} of ${TILE_TOTAL[kind]} left`, class: "am-traytile" }, svg);
      tile(g, kind, obs, s, true);
      el("rect", { class: "am-hl", x: 1, y: 1, width: s - 2, height: s - 2, rx: 10 }, g);
      txt(svg, x + s / 2, yy + s + 15, left[kind] > 1 ? "×" + left[kind] : "", { class: "am-tiny", "text-anchor": "middle" });
    });
    if (!kinds.length) txt(svg, PX + 14, y + 60, "all 15 tiles are on the market", { class: "am-tiny" });
    return h;
  }

  function drawKing(svg, view, obs, y) {
    const h = 88;
    panelBox(svg, y, h, null);
    crown(svg, PX + 30, y + 26, 14);
    txt(svg, PX + 52, y + 30, "The king's goods", { class: "am-h2" });
    txt(svg, PX + 52, y + 48, "each good you hold scores this many points", { class: "am-tiny" });
    COLOURS.forEach((colour, i) => {
      const x = PX + 26 + i * 80, yy = y + 70;
      const gg = el("g", { transform: `translate(${x} ${yy})` }, svg);
      good(gg, colour, 11);
      txt(svg, x + 16, yy + 7, "×" + (obs.king[colour] || 0), { class: "am-kval" + (obs.king[colour] ? "" : " zero") });
    });
    return h;
  }

  function drawStock(svg, view, obs, y) {
    const openly = (obs.removed && obs.removed.openly) || {};
    const showRemoved = COLOURS.some((c) => openly[c]);
    const rows = [["on vendors", obs.vendors], ["unseen", obs.unseen]];
    if (showRemoved) rows.push(["removed", openly]);
    const h = 70 + rows.length * 22 + 44;
    panelBox(svg, y, h, "Goods and coins");
    const colX = (i) => PX + 150 + i * 46;
    COLOURS.forEach((colour, i) => {
      const gg = el("g", { transform: `translate(${colX(i)} ${y + 44})` }, svg);
      good(gg, colour, 9);
    });
    rows.forEach(([label, counts], r) => {
      const yy = y + 74 + r * 22;
      txt(svg, PX + 14, yy, label, { class: "am-small" });
      COLOURS.forEach((colour, i) => txt(svg, colX(i), yy, String(counts[colour] || 0), { class: "am-num", "text-anchor": "middle" }));
    });
    const yy = y + 74 + rows.length * 22 + 10;
    const hidden = (obs.removed && obs.removed.unseen) || 0;
    txt(svg, PX + 14, yy, `bag: ${plural(obs.bag, "good")} to draw` + (hidden ? ` (+${hidden} removed unseen)` : ""), { class: "am-small" });
    coin(svg, PX + 22, yy + 22, 8, true);
    txt(svg, PX + 36, yy + 27, `${plural(obs.coin_reserve, "coin")} in the reserve`, { class: "am-small" });
    return h;
  }

  function drawSides(svg, view, obs, y) {
    const teams = teamsOf(obs);
    const n = obs.players.length;
    const rowH = 24;
    const h = 54 + n * rowH + (teams.length < n ? teams.length * 22 : 0) + 32;
    panelBox(svg, y, h, teams.length < n ? "Teams and scores" : "Scores");
    const colX = (i) => PX + 146 + i * 30;
    COLOURS.forEach((colour, i) => {
      const gg = el("g", { transform: `translate(${colX(i)} ${y + 40})` }, svg);
      good(gg, colour, 8);
    });
    txt(svg, PX + 264, y + 45, "coins", { class: "am-tiny", "text-anchor": "middle" });
    txt(svg, PX + PW - 14, y + 45, "score", { class: "am-tiny", "text-anchor": "end" });
    let yy = y + 54;
    teams.forEach((team, ti) => {
      const held = team.map((s) => goodsOf(obs.players[s]));
      const best = {};
      COLOURS.forEach((c) => { best[c] = Math.max(...held.map((h2) => h2[c])); });
      if (teams.length < n) {
        txt(svg, PX + 14, yy + 16, (ti === 0 ? "team A: " : "team B: ") + teamName(view, team), { class: "am-small bold" });
        if (obs.terminal && obs.returns && obs.returns[team[0]] > 0) {
          crown(svg, PX + PW - 64, yy + 10, 9);
          txt(svg, PX + PW - 78, yy + 16, obs.returns[team[0]] >= 1 ? "won" : "shared", { class: "am-won", "text-anchor": "end" });
        }
        txt(svg, PX + PW - 14, yy + 16, String(obs.scores[team[0]]), { class: "am-score", "text-anchor": "end" });
        yy += 22;
      }
      team.forEach((seat, k) => {
        const p = obs.players[seat];
        const rowY = yy + 17;
        if (ti % 2 === 0) el("rect", { x: PX + 6, y: yy, width: PW - 12, height: rowH, rx: 5, fill: "#f3e8cc", opacity: 0.6 }, svg);
        el("circle", { cx: PX + 20, cy: rowY - 5, r: 6, fill: seatColour(seat) }, svg);
        const nm = txt(svg, PX + 32, rowY, clip(p.side[0] + " · " + seatName(view, seat), 13), { class: "am-small" });
        titleOf(nm, `${p.side}: ${seatName(view, seat)}`);
        COLOURS.forEach((c, i) => {
          const v = held[k][c];
          const counts = v > 0 && v === best[c];
          txt(svg, colX(i), rowY, String(v), { class: "am-num" + (counts ? " bold" : " faint"), "text-anchor": "middle" });
        });
        txt(svg, PX + 264, rowY, String(coinsOf(p)), { class: "am-num", "text-anchor": "middle" });
        if (teams.length === n) {
          txt(svg, PX + PW - 14, rowY, String(obs.scores[seat]), { class: "am-score", "text-anchor": "end" });
          if (obs.terminal && obs.returns && obs.returns[seat] > 0) crown(svg, PX + PW - 52, rowY - 5, 7);
        }
        yy += rowH;
      });
    });
    txt(svg, PX + 14, y + h - 10, teams.length < n ? "bold: the partner's goods that count" : "bold: goods that score (the king has some)", { class: "am-tiny" });
    return h;
  }

  // ---- the renderer -------------------------------------------------------------------------------
  function draw(root, view) {
    const obs = view.observation;
    const wrapDiv = document.createElement("div");
    wrapDiv.className = "tl-am";
    root.appendChild(wrapDiv);
    const svg = el("svg", { class: "am-board", role: "group", "aria-label": "Aztec Market board" });
    wrapDiv.appendChild(svg);
    const bg = el("rect", { x: 0, y: 0, width: W, rx: 18, class: "am-bg" }, svg);
    drawMarket(svg, view, obs);
    drawBuyers(svg, view, obs);
    let y = 14;
    y += drawTurn(svg, view, obs, y) + 10;
    if (obs.phase === "build" || obs.phase === "random build") y += drawTray(svg, view, obs, y) + 10;
    y += drawKing(svg, view, obs, y) + 10;
    if (obs.phase !== "build" && obs.phase !== "random build") y += drawStock(svg, view, obs, y) + 10;
    y += drawSides(svg, view, obs, y);
    const H = Math.max(y + 14, GY + G + BGAP + BH + 44);
    bg.setAttribute("height", H);
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  }

  function keys(move, view) {
    const obs = view.observation;
    switch (move.kind) {
      case "place": return ["tile-" + slug(move.tile), move.square];
      case "move": return move.paid_by ? [move.square, move.paid_by] : [move.square];
      case "coin": return [move.buyer];
      case "buy": return [move.buyer, vendorSquare(obs, move.vendor) || "vendor-" + move.vendor];
      case "king_buys": return [vendorSquare(obs, move.vendor) || "vendor-" + move.vendor];
      case "king_skips": return ["king-skips"];
      case "pass": return ["pass"];
      case "play": return ["play"];
      case "end_turn": return ["end"];
      case "draw": return ["draw-" + move.colour];
      case "hole": return ["hole-" + move.square];
      default: return [move.kind];
    }
  }

  // The sides at the end, ranked by the AM-7 key: score, then the coins of the side's member with
  // the most coins, then the goods of its member with the most goods.
  function sideRows(view) {
    const obs = view.observation;
    const scores = (view.result && view.result.scores) || view.scores || obs.scores;
    const returns = (view.result && view.result.returns) || obs.returns || [];
    return teamsOf(obs).map((team) => {
      const coins = Math.max(...team.map((s) => coinsOf(obs.players[s])));
      const goods = Math.max(...team.map((s) => { const g = goodsOf(obs.players[s]); return COLOURS.reduce((a, c) => a + g[c], 0); }));
      return { team, name: teamName(view, team), score: scores[team[0]], coins, goods, share: returns[team[0]] || 0 };
    });
  }

  function sideWords(view, row) {
    return esc(row.name) + (row.team.length > 1 ? ` (${row.team.map((s) => esc(seatName(view, s))).join(" and ")})` : ` (${esc(seatName(view, row.team[0]))})`);
  }

  function result(view) {
    const obs = view.observation;
    const rows = sideRows(view).sort((a, b) => b.score - a.score || b.coins - a.coins || b.goods - a.goods);
    const team = rows[0].team.length > 1;
    const top = rows[0];
    const tiedScore = rows.filter((r) => r.score === top.score);
    const winners = rows.filter((r) => r.score === top.score && r.coins === top.coins && r.goods === top.goods);
    const verb = (r) => (r.team.length > 1 ? "win" : "wins");
    const member = (r, what) => (team ? `${esc(r.name)}: the partner with the most ${what} has` : `${esc(r.name)} has`);
    let head, why = "";
    if (winners.length > 1) {
      head = `Shared victory: ${winners.map((r) => `<strong>${sideWords(view, r)}</strong>`).join(" and ")}, ` +
        `tied on <strong>${top.score}</strong> points.`;
      why = `Both tie-breaks are tied as well (coins: ${top.coins} each; goods: ${top.goods} each), so the ` +
        `victory is shared, 1/${winners.length} each (AM-7).`;
    } else if (tiedScore.length === 1) {
      const next = rows[1];
      head = `<strong>${sideWords(view, top)}</strong> ${verb(top)} with <strong>${top.score}</strong> points` +
        (next ? `, against ${next.score} for ${esc(next.name)}.` : ".");
    } else {
      const others = tiedScore.filter((r) => r !== top);
      const byCoins = others.every((r) => r.coins < top.coins);
      head = `<strong>${sideWords(view, top)}</strong> ${verb(top)} on a tie-break: ` +
        `${tiedScore.map((r) => esc(r.name)).join(" and ")} are tied on <strong>${top.score}</strong> points.`;
      if (byCoins) {
        why = `First tie-break, coins: ${member(top, "coins")} ${plural(top.coins, "coin")}; ` +
          others.map((r) => `${esc(r.name)} ${r.coins}`).join(", ") + " (AM-7).";
      } else {
        why = `First tie-break, coins: tied at ${top.coins}. Second tie-break, goods: ` +
          `${member(top, "goods")} ${plural(top.goods, "good")}; ` + others.map((r) => `${esc(r.name)} ${r.goods}`).join(", ") + " (AM-7).";
      }
    }
    let body = "";
    for (const r of rows) {
      const held = r.team.map((s) => goodsOf(obs.players[s]));
      const best = {};
      COLOURS.forEach((c) => { best[c] = Math.max(...held.map((h) => h[c])); });
      const win = r.share >= 1 ? (r.team.length > 1 ? "winners" : "winner") : r.share > 0 ? `shared (${+r.share.toFixed(2)})` : "";
      const calc = COLOURS.filter((c) => obs.king[c] && best[c]).map((c) => `${best[c]}·${obs.king[c]}`).join(" + ");
      const counted = {};   // equal partners: only the first one's goods are marked as counted
      const members = r.team.map((seat, k) => {
        const goods = COLOURS.filter((c) => held[k][c]).map((c) => {
          const v = held[k][c];
          if (v === best[c] && !counted[c]) { counted[c] = true; return `<strong>${c} ${v}</strong>`; }
          return `<span class="am-faint">${c} ${v}</span>`;
        });
        return `<li><span class="am-dot" style="background:${seatColour(seat)}"></span>${esc(sideOf(seat))}: ` +
          `${esc(seatName(view, seat))}<div class="am-goods">${goods.length ? goods.join(", ") : "no goods"}; ` +
          `${plural(coinsOf(obs.players[seat]), "coin")}</div></li>`;
      }).join("");
      body += `<div class="am-side-block${r.share > 0 ? " am-win" : ""}"><div><strong>${esc(r.name)}: ${r.score}</strong>` +
        (win ? ` <span class="am-badge">${win}</span>` : "") + `</div>` +
        `<div class="am-calc">${calc ? esc(calc) + " = " + r.score : "no goods of a colour the king holds"}</div>` +
        `<ul>${members}</ul></div>`;
    }
    const king = COLOURS.map((c) => `${c} ${obs.king[c] || 0}`).join(", ");
    return `<div class="am-result"><p>${head}</p>${why ? `<p>${why}</p>` : ""}${body}` +
      `<p class="am-kingline"><strong>The king</strong> (points per good): ${esc(king)}.</p>` +
      `<p class="am-note">Per colour, a side scores the goods of ${team ? "its partner with the most of that colour (bold)" : "that colour"} ` +
      `times the king's goods of that colour. Ties go to the side whose ${team ? "partner" : "player"} has the most coins, ` +
      `then the most goods; else the win is shared (AM-7).</p></div>`;
  }

  window.Tlatelolco.register("aztec_market", { draw, keys, result });
})();
