/* Mexica: the browser renderer (drawn only from the view the shell passes).
 *
 * The island: 23 x 16 squares named by column letter (A..W, west to east) and row number
 * (1..16, north to south), the lake around it, canals, bridges along their axis, buildings
 * (owner + levels), calpulli tiles, founded districts (green), starting squares and each seat's
 * Mexica; drawn at the width the shell's frame gives it, which fits, zooms and pans it. The
 * turn's prompt (whose turn, AP left, what to do) and controls (the tools with what is left of
 * their supply, End turn, one's buildings, this part's calpulli tiles, the bridge axes when one
 * is to be picked) form the [data-dock] part, which the shell keeps in sight under the board;
 * the tables to read (notes, seats and scores, districts, scorings, tiles, supply, legend) the
 * [data-extra] part below it. Every word shown goes through t()/tn() (the "mexica" catalogue).
 *
 * Pick paths (data-key values, clicked in order):
 *   walk / boat            -> [square]                        the square your Mexica goes to
 *   start at I7            -> [square]                        (set-up: only starts are legal)
 *   teleport C3            -> ["tool:teleport", square]
 *   canal K5               -> ["tool:canal", square]
 *   canal K5-K6            -> ["tool:double", north-west square, other square]
 *   bridge O7 (N-S)        -> ["tool:bridge", square(, "axis:N-S")]    axis only when both are legal
 *   move bridge O7 to P9   -> ["tool:move_bridge", from, to(, "axis:W-E")]
 *   build 3 at D4          -> ["level:3", square]              a building of your supply
 *   found 7 at E5          -> ["tile:7", square]               a calpulli tile of this part
 *   token                  -> ["token"]                        the action-token supply
 *   end                    -> ["end"]                          the end-turn button
 * Walk and boat destinations never overlap (a walk from a bridge lands on land, a boat on a
 * bridge), and every other kind starts with its own tool, so no two legal moves share a path.
 * `label` names a key in words, `attempt` turns a click on any key that is not pickable into
 * the move it most likely meant (in notation the engine parses, for the server to say why it is
 * illegal, in the reader's language), and `lastMoveKeys` names the squares and buttons a move
 * touched.
 */
(function () {
  "use strict";

  const COLS = "ABCDEFGHIJKLMNOPQRSTUVW";
  const W = 23, H = 16;
  const S = 40;                 // one square
  // margins: the row numbers on the left, the column letters on top (big enough to read when
  // a phone shows the whole island), a thin rim on the other two sides
  const MX = 38, MY = 32, RIM = 8;
  const BOARD_W = MX + W * S + RIM, BOARD_H = MY + H * S + RIM;
  // Seat colours (the same order in every Tlatelolco renderer); seat numbers on every piece,
  // counted from 1 as the page counts seats for people.
  const SEAT_COLOURS = window.Tlatelolco.SEAT_COLOURS;
  const SEAT_DARK = ["#8a4f06", "#46347a", "#7a2a4a", "#14605b", "#553f22", "#2f4a78", "#56600f"];
  const AP_PER_TURN = 6, TOKENS_PER_TURN = 2, START_BONUS = 5, PART_ONE_TILES = 8;
  const DIRS = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
  const COLOUR = {
    lake: "#8fc3df", lakeWave: "#b7daee", canal: "#2f7fb8", canalWave: "#6fb0dc",
    land: "#ecdfb6", landLine: "#d3c392", district: "#c9dc9a", districtLine: "#aac27a",
    bank: "#8a6a36", palace: "#e2cfa2", palaceLine: "#b99c5e", gold: "#d4a017",
    arms: "#b2372b", plank: "#b07a42", plankDark: "#6b4420", tile: "#3d2a1c",
    tileBig: "#4fd6cb", tileMid: "#f4c430", tileSmall: "#ffffff", size: "#8d7a45", match: "#1f7a34",
  };

  // ---- small helpers -------------------------------------------------------------------------
  const T = window.Tlatelolco;  // the shell's shared helpers
  const t = (m, p) => T.t(m, p);
  const tn = (one, many, n, p) => T.tn(one, many, n, p);
  const el = T.svg.bind(T), txt = T.text.bind(T);
  const esc = (s) => T.escape(s), seatName = (view, seat) => T.seatName(view, seat);
  function seatColour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }
  function seatDark(seat) { return SEAT_DARK[seat % SEAT_DARK.length]; }
  function middle(size) { return Math.ceil(size / 2); }
  function small(size) { return Math.ceil(middle(size) / 2); }
  function parse(name) { return [COLS.indexOf(name[0]), parseInt(name.slice(1), 10) - 1]; }
  function nameOf(c, r) { return COLS[c] + (r + 1); }
  function inGrid(c, r) { return c >= 0 && c < W && r >= 0 && r < H; }
  function px(c) { return MX + c * S; }
  function py(r) { return MY + r * S; }
  function sum(a) { return a.reduce((x, y) => x + y, 0); }
  const SQUARE_KEY = /^[A-W]([1-9]|1[0-6])$/;
  function isSquare(key) { return SQUARE_KEY.test(String(key)); }
  function axisWords(axis) { return axis === "N-S" ? t("north–south") : t("west–east"); }
  function axisShort(axis) { return axis === "N-S" ? t("N-S") : t("W-E"); }
  function directionWords(d) {
    return { N: t("north"), E: t("east"), S: t("south"), W: t("west") }[d] || d;
  }
  // "A", "A and B", "A, B and C" (the same words as the log's)
  function joinList(items) {
    if (items.length <= 1) return items.join("");
    if (items.length === 2) return t("{first} and {second}", { first: items[0], second: items[1] });
    return t("{first}, {rest}", { first: items[0], rest: joinList(items.slice(1)) });
  }
  // ---- the position, read once per view -------------------------------------------------------
  function readBoard(obs) {
    const terrain = obs.terrain || [];
    const t = (c, r) => (inGrid(c, r) && terrain[r] ? terrain[r][c] : "~");
    const canals = new Set(obs.canals || []);
    const bridges = new Map((obs.bridges || []).map((b) => [b.square, b.axis]));
    const buildings = new Map((obs.buildings || []).map((b) => [b.square, b]));
    const tiles = new Map((obs.calpulli || []).map((k) => [k.square, k.size]));
    const mexica = new Map();
    (obs.mexica || []).forEach((sq, seat) => { if (sq) mexica.set(sq, seat); });
    const areaOf = new Map();
    const areas = (obs.areas || []).map((a, i) => {
      const area = { index: i, size: a.size, tile: a.tile || null, squares: a.squares || [] };
      area.squares.forEach((sq) => areaOf.set(sq, area));
      area.tileSquare = area.squares.find((sq) => tiles.has(sq)) || null;
      return area;
    });
    const lake = (c, r) => t(c, r) === "~";
    const water = (c, r) => !inGrid(c, r) || lake(c, r) || canals.has(nameOf(c, r));
    return { terrain, t, canals, bridges, buildings, tiles, mexica, areas, areaOf, lake, water };
  }

  // Where an unfounded area's size is written: a free ordinary square, nothing beside it to the
  // west or east if possible, nearest the middle of the area.
  function labelSquare(b, area) {
    const free = (sq) => freeLand(b, sq);
    const piece = (c, r) => {
      const sq = inGrid(c, r) ? nameOf(c, r) : "";
      return b.buildings.has(sq) || b.mexica.has(sq) || b.tiles.has(sq) || b.bridges.has(sq);
    };
    const pts = area.squares.map(parse);
    const mc = sum(pts.map((p) => p[0])) / pts.length, mr = sum(pts.map((p) => p[1])) / pts.length;
    let best = null, bestKey = null;
    area.squares.filter(free).forEach((sq) => {
      const [c, r] = parse(sq);
      const key = [(piece(c - 1, r) || piece(c + 1, r)) ? 1 : 0, (c - mc) ** 2 + (r - mr) ** 2];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) { best = sq; bestKey = key; }
    });
    return best;
  }

  // Points each seat would score in a district of `size` now (MX-11): ties share a place and
  // use up the places they fill.
  function standings(levels, size) {
    const pts = [size, middle(size), small(size)];
    return levels.map((l) => {
      if (l <= 0) return 0;
      const place = levels.filter((o) => o > l).length;
      return place < 3 ? pts[place] : 0;
    });
  }

  // ---- pieces ----------------------------------------------------------------------------------
  // A building of `levels` for `seat`, centred on (0,0) in a square of side `s`.
  function buildingShape(parent, seat, levels, s, attrs) {
    const g = el("g", attrs || {}, parent);
    const base = s * 0.8, tier = s * 0.15;
    const fill = seatColour(seat), dark = seatDark(seat);
    el("rect", { x: -base / 2, y: -base / 2, width: base, height: base, rx: s * 0.1, fill, stroke: dark, "stroke-width": s * 0.045 }, g);
    // the stepped pyramid: one tier per level, seen from the side
    const bottom = base / 2 - s * 0.07;
    for (let i = 0; i < levels; i++) {
      const w = base * 0.82 - i * base * 0.17;
      el("rect", { x: -w / 2, y: bottom - (i + 1) * tier, width: w, height: tier - s * 0.02, fill: "#fff8e6", stroke: dark, "stroke-width": s * 0.025, opacity: 0.95 }, g);
    }
    // the seat in a white badge (top left), the levels as a digit (top right)
    const br = s * 0.14;
    el("circle", { cx: -base / 2 + br + s * 0.03, cy: -base / 2 + br + s * 0.03, r: br, fill: "#fff", stroke: dark, "stroke-width": s * 0.025 }, g);
    txt(g, -base / 2 + br + s * 0.03, -base / 2 + br + s * 0.03 + s * 0.075, String(seat + 1), { class: "mx-piece-badge", "font-size": s * 0.21, fill: dark, "text-anchor": "middle" });
    txt(g, base / 2 - s * 0.07, -base / 2 + s * 0.25, String(levels), { class: "mx-piece-levels", "font-size": s * 0.25, fill: "#fff", "text-anchor": "end" });
    return g;
  }

  // A Mexica figure for `seat` centred on (0,0), about `s` tall.
  function mexicaShape(parent, seat, s, attrs) {
    const g = el("g", attrs || {}, parent);
    const k = s / 40;
    const fill = seatColour(seat), dark = seatDark(seat);
    el("ellipse", { cx: 0, cy: 15 * k, rx: 12 * k, ry: 3.5 * k, fill: "#000", opacity: 0.22 }, g);
    const body = `M${-11 * k},${15 * k} Q${-11 * k},${2 * k} ${-6 * k},${-2 * k} L${6 * k},${-2 * k} Q${11 * k},${2 * k} ${11 * k},${15 * k} Z`;
    el("path", { d: body, fill, stroke: "#fff", "stroke-width": 3.2 * k, "stroke-linejoin": "round" }, g);
    el("path", { d: body, fill, stroke: dark, "stroke-width": 1.2 * k, "stroke-linejoin": "round" }, g);
    el("circle", { cx: 0, cy: -9 * k, r: 7 * k, fill, stroke: "#fff", "stroke-width": 3 * k }, g);
    el("circle", { cx: 0, cy: -9 * k, r: 7 * k, fill, stroke: dark, "stroke-width": 1.2 * k }, g);
    // a feather on the head
    el("path", { d: `M${2 * k},${-15 * k} Q${6 * k},${-22 * k} ${3 * k},${-25 * k} Q${1 * k},${-20 * k} ${-1 * k},${-15.5 * k} Z`, fill: "#2a9d5c", stroke: dark, "stroke-width": 0.8 * k }, g);
    txt(g, 0, 11.5 * k, String(seat + 1), { class: "mx-piece-seat", "font-size": 12 * k, fill: "#fff", "text-anchor": "middle" });
    return g;
  }

  // A calpulli tile of `size`, centred, side `s`: big (turquoise), middle (yellow), small (white).
  function tileShape(parent, size, s, attrs) {
    const g = el("g", attrs || {}, parent);
    el("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: s * 0.12, fill: COLOUR.tile, stroke: "#1d120a", "stroke-width": s * 0.04 }, g);
    el("rect", { x: -s / 2 + s * 0.08, y: -s / 2 + s * 0.08, width: s * 0.84, height: s * 0.84, rx: s * 0.08, fill: "none", stroke: "#8a6a3e", "stroke-width": s * 0.025 }, g);
    txt(g, -s * 0.08, s * 0.16, String(size), { class: "mx-tile-big", "font-size": s * 0.5, fill: COLOUR.tileBig, "text-anchor": "middle" });
    txt(g, s * 0.36, -s * 0.13, String(middle(size)), { class: "mx-tile-small", "font-size": s * 0.26, fill: COLOUR.tileMid, "text-anchor": "middle" });
    txt(g, s * 0.36, s * 0.33, String(small(size)), { class: "mx-tile-small", "font-size": s * 0.26, fill: COLOUR.tileSmall, "text-anchor": "middle" });
    return g;
  }

  // A bridge centred on (0,0) along `axis` ("N-S" or "W-E"), spanning `len`.
  function bridgeShape(parent, axis, len, wid, attrs) {
    const g = el("g", attrs || {}, parent);
    const ns = axis === "N-S";
    const wx = ns ? wid : len, hy = ns ? len : wid;
    el("rect", { x: -wx / 2 + 1.5, y: -hy / 2 + 2, width: wx, height: hy, rx: 3, fill: "#000", opacity: 0.2 }, g);
    el("rect", { x: -wx / 2, y: -hy / 2, width: wx, height: hy, rx: 3, fill: COLOUR.plank, stroke: COLOUR.plankDark, "stroke-width": 1.2 }, g);
    const n = Math.floor(len / 5.5);
    for (let i = 1; i < n; i++) {
      const d = -len / 2 + (i * len) / n;
      if (ns) el("line", { x1: -wx / 2 + 1, y1: d, x2: wx / 2 - 1, y2: d, stroke: COLOUR.plankDark, "stroke-width": 0.8, opacity: 0.7 }, g);
      else el("line", { x1: d, y1: -hy / 2 + 1, x2: d, y2: hy / 2 - 1, stroke: COLOUR.plankDark, "stroke-width": 0.8, opacity: 0.7 }, g);
    }
    // rails along both sides
    if (ns) {
      el("line", { x1: -wx / 2, y1: -hy / 2, x2: -wx / 2, y2: hy / 2, stroke: COLOUR.plankDark, "stroke-width": 2.6, "stroke-linecap": "round" }, g);
      el("line", { x1: wx / 2, y1: -hy / 2, x2: wx / 2, y2: hy / 2, stroke: COLOUR.plankDark, "stroke-width": 2.6, "stroke-linecap": "round" }, g);
    } else {
      el("line", { x1: -wx / 2, y1: -hy / 2, x2: wx / 2, y2: -hy / 2, stroke: COLOUR.plankDark, "stroke-width": 2.6, "stroke-linecap": "round" }, g);
      el("line", { x1: -wx / 2, y1: hy / 2, x2: wx / 2, y2: hy / 2, stroke: COLOUR.plankDark, "stroke-width": 2.6, "stroke-linecap": "round" }, g);
    }
    return g;
  }

  function tokenShape(parent, r, attrs) {
    const g = el("g", attrs || {}, parent);
    el("circle", { r, fill: "#e9b93a", stroke: "#8a6410", "stroke-width": r * 0.14 }, g);
    el("circle", { r: r * 0.68, fill: "none", stroke: "#8a6410", "stroke-width": r * 0.08, opacity: 0.8 }, g);
    txt(g, 0, r * 0.36, "+1", { "text-anchor": "middle", "font-size": r * 0.95, "font-weight": 700, fill: "#6b4c08" });
    return g;
  }

  // ---- the island --------------------------------------------------------------------------------
  function defs(svg, uid) {
    const d = el("defs", {}, svg);
    const lake = el("pattern", { id: "mx-lake-" + uid, width: 40, height: 20, patternUnits: "userSpaceOnUse" }, d);
    el("rect", { width: 40, height: 20, fill: COLOUR.lake }, lake);
    el("path", { d: "M2,7 q5,-4 10,0 t10,0 M22,16 q5,-4 10,0 t10,0", fill: "none", stroke: COLOUR.lakeWave, "stroke-width": 1.3, "stroke-linecap": "round" }, lake);
    const canal = el("pattern", { id: "mx-canal-" + uid, width: 20, height: 14, patternUnits: "userSpaceOnUse" }, d);
    el("rect", { width: 20, height: 14, fill: COLOUR.canal }, canal);
    el("path", { d: "M1,5 q4,-3 8,0 t8,0 M-9,12 q4,-3 8,0 t8,0 M11,12 q4,-3 8,0 t8,0", fill: "none", stroke: COLOUR.canalWave, "stroke-width": 1.2, "stroke-linecap": "round" }, canal);
    const palace = el("pattern", { id: "mx-palace-" + uid, width: 10, height: 10, patternUnits: "userSpaceOnUse" }, d);
    el("rect", { width: 10, height: 10, fill: COLOUR.palace }, palace);
    el("path", { d: "M0,5 H10 M5,0 V5 M0,10 H10 M10,5 V10 M0,5 V10", fill: "none", stroke: COLOUR.palaceLine, "stroke-width": 0.7, opacity: 0.6 }, palace);
  }

  function drawIsland(svg, view, b, uid) {
    const obs = view.observation;
    const mover = obs.phase === "playing" ? obs.turn_of : (view.to_move >= 0 ? view.to_move : -1);
    el("rect", { x: MX - 6, y: MY - 6, width: W * S + 12, height: H * S + 12, rx: 8, fill: "#7a5b2e" }, svg);
    el("rect", { x: MX, y: MY, width: W * S, height: H * S, fill: `url(#mx-lake-${uid})` }, svg);

    // coordinates
    const coords = el("g", { class: "mx-coords", "aria-hidden": "true" }, svg);
    for (let c = 0; c < W; c++) txt(coords, px(c) + S / 2, MY - 10, COLS[c], { "text-anchor": "middle" });
    for (let r = 0; r < H; r++) txt(coords, MX - 9, py(r) + S / 2 + 7, String(r + 1), { "text-anchor": "end" });

    const ground = el("g", { class: "mx-ground" }, svg);
    const canalLayer = el("g", { class: "mx-canals" }, svg);
    const banks = el("g", { class: "mx-banks" }, svg);
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        const sq = nameOf(c, r), t = b.t(c, r);
        if (t === "~") continue;
        const x = px(c), y = py(r);
        if (b.canals.has(sq)) {
          el("rect", { x, y, width: S, height: S, fill: `url(#mx-canal-${uid})` }, canalLayer);
          continue;
        }
        const area = b.areaOf.get(sq);
        const founded = area && area.tile;
        let fill = founded ? COLOUR.district : COLOUR.land;
        if (t === "S" || t === "X") fill = `url(#mx-palace-${uid})`;
        el("rect", { x, y, width: S, height: S, fill, stroke: founded ? COLOUR.districtLine : COLOUR.landLine, "stroke-width": 0.8 }, ground);
        // banks: a dry square's sides on water
        for (const [dc, dr, x1, y1, x2, y2] of [[0, -1, 0, 0, S, 0], [1, 0, S, 0, S, S], [0, 1, 0, S, S, S], [-1, 0, 0, 0, 0, S]]) {
          if (b.water(c + dc, r + dr)) {
            el("line", { x1: x + x1, y1: y + y1, x2: x + x2, y2: y + y2, stroke: COLOUR.bank, "stroke-width": 3, "stroke-linecap": "round" }, banks);
          }
        }
      }
    }

    // the palace: starting squares and the coat of arms
    const palace = el("g", { class: "mx-palace" }, svg);
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        const t = b.t(c, r), x = px(c), y = py(r);
        if (t === "S") {
          el("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 4, fill: "none", stroke: COLOUR.gold, "stroke-width": 2, "stroke-dasharray": "5 3" }, palace);
          starShape(palace, x + S - 9, y + 9, 5);
        } else if (t === "X") {
          el("rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 4, fill: COLOUR.arms, stroke: "#6e1d15", "stroke-width": 1.5 }, palace);
          el("circle", { cx: x + S / 2, cy: y + S / 2, r: 14, fill: COLOUR.gold, stroke: "#7a5a08", "stroke-width": 1.5 }, palace);
          nopal(palace, x + S / 2, y + S / 2);
        }
      }
    }

    // sizes of unfounded areas (green: equal to a tile of this part)
    const available = new Set(((obs.tiles || {}).available) || []);
    const labels = el("g", { class: "mx-sizes", "aria-hidden": "true" }, svg);
    b.areas.filter((a) => !a.tile).forEach((a) => {
      const sq = labelSquare(b, a);
      if (!sq) return;
      const [c, r] = parse(sq);
      const match = available.has(a.size);
      if (match) el("circle", { cx: px(c) + S / 2, cy: py(r) + S / 2, r: 13, fill: "#e6f4dd", stroke: COLOUR.match, "stroke-width": 1.6 }, labels);
      txt(labels, px(c) + S / 2, py(r) + S / 2 + 5.5, String(a.size), { class: match ? "mx-size mx-size-match" : "mx-size", "text-anchor": "middle", fill: match ? COLOUR.match : COLOUR.size });
    });

    const pieces = el("g", { class: "mx-pieces" }, svg);
    b.bridges.forEach((axis, sq) => {
      const [c, r] = parse(sq);
      bridgeShape(pieces, axis, S * 1.5, S * 0.56, { transform: `translate(${px(c) + S / 2},${py(r) + S / 2})` });
    });
    b.tiles.forEach((size, sq) => {
      const [c, r] = parse(sq);
      tileShape(pieces, size, S - 6, { transform: `translate(${px(c) + S / 2},${py(r) + S / 2})` });
    });
    b.buildings.forEach((bl, sq) => {
      const [c, r] = parse(sq);
      buildingShape(pieces, bl.owner, bl.levels, S, { transform: `translate(${px(c) + S / 2},${py(r) + S / 2})` });
    });
    b.mexica.forEach((seat, sq) => {
      const [c, r] = parse(sq);
      const cx = px(c) + S / 2, cy = py(r) + S / 2;
      if (seat === mover && !obs.terminal) {
        el("circle", { cx, cy, r: S * 0.47, fill: "none", stroke: "#fff3b0", "stroke-width": 6, opacity: 0.9 }, pieces);
        el("circle", { cx, cy, r: S * 0.47, fill: "none", stroke: "#e0a000", "stroke-width": 2.5, class: "mx-mover-ring" }, pieces);
      }
      mexicaShape(pieces, seat, S, { transform: `translate(${cx},${cy})` });
    });

    // the click targets, one per square, on top of everything
    const hits = el("g", { class: "mx-hits" }, svg);
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        const sq = nameOf(c, r);
        el("rect", { x: px(c) + 1, y: py(r) + 1, width: S - 2, height: S - 2, rx: 4, class: "mx-sq", "data-key": sq, "aria-label": squareLabel(view, b, c, r) }, hits);
      }
    }
  }

  function starShape(parent, cx, cy, r) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (i * Math.PI) / 5, rr = i % 2 ? r * 0.45 : r;
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
    }
    el("polygon", { points: pts.join(" "), fill: COLOUR.gold, stroke: "#7a5a08", "stroke-width": 0.8 }, parent);
  }

  // the coat of arms: an eagle on a nopal cactus, much simplified
  function nopal(parent, cx, cy) {
    const g = el("g", { transform: `translate(${cx},${cy})` }, parent);
    el("ellipse", { cx: 0, cy: 6, rx: 4, ry: 5.5, fill: "#3d8b3d", stroke: "#1f4d1f", "stroke-width": 0.8 }, g);
    el("ellipse", { cx: -5.5, cy: 2, rx: 3, ry: 4, fill: "#3d8b3d", stroke: "#1f4d1f", "stroke-width": 0.8, transform: "rotate(-25 -5.5 2)" }, g);
    el("ellipse", { cx: 5.5, cy: 2, rx: 3, ry: 4, fill: "#3d8b3d", stroke: "#1f4d1f", "stroke-width": 0.8, transform: "rotate(25 5.5 2)" }, g);
    el("path", { d: "M-9,-5 Q-4,-11 0,-6 Q4,-11 9,-5 Q4,-7 2,-3 L0,-1 L-2,-3 Q-4,-7 -9,-5 Z", fill: "#5a3a1a", stroke: "#2e1d0b", "stroke-width": 0.6 }, g);
    el("circle", { cx: 0, cy: -7.5, r: 1.8, fill: "#5a3a1a" }, g);
  }

  function squareLabel(view, b, c, r) {
    const sq = nameOf(c, r), t0 = b.t(c, r);
    const parts = [t("square {square}", { square: sq })];
    if (b.bridges.has(sq)) parts.push(t("bridge {axis} over a canal", { axis: axisWords(b.bridges.get(sq)) }));
    else if (b.canals.has(sq)) parts.push(t("canal"));
    else if (t0 === "~") parts.push(t("lake"));
    else if (t0 === "S") parts.push(t("starting square"));
    else if (t0 === "X") parts.push(t("coat of arms"));
    else parts.push(t("land"));
    if (b.mexica.has(sq)) parts.push(t("Mexica of {name}", { name: seatName(view, b.mexica.get(sq)) }));
    const bl = b.buildings.get(sq);
    if (bl) parts.push(tn("building of {name}, {n} level", "building of {name}, {n} levels", bl.levels, { name: seatName(view, bl.owner) }));
    if (b.tiles.has(sq)) parts.push(t("calpulli tile {size}", { size: b.tiles.get(sq) }));
    const area = b.areaOf.get(sq);
    if (area) {
      parts.push(area.tile ? t("district {size}", { size: area.tile })
        : tn("unfounded area of {n} square", "unfounded area of {n} squares", area.size));
    }
    return parts.join(", ");
  }

  // ---- the dock: the turn's prompt and controls (the shell keeps them in sight under the board) --
  const node = (tag, cls, parent, text) => T.html(tag, cls, parent, text);
  // a control's picture: an SVG of w x h units shown at that many px
  function icon(w, h, paint) {
    const s = el("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: "mx-icon", "aria-hidden": "true", focusable: "false" });
    paint(s);
    return s;
  }
  // a control with a pick key: its picture, then a label and a line under it (cost, what is left)
  function control(parent, key, cls, aria, picture, label, sub) {
    const c = node("div", "mx-ctl " + cls, parent);
    c.setAttribute("data-key", key);
    c.setAttribute("aria-label", aria);
    c.title = aria;
    c.appendChild(picture);
    if (label || sub) {
      const words = node("span", "mx-ctl-words", c);
      if (label) node("span", "mx-ctl-label", words, label);
      if (sub) node("span", "mx-ctl-sub", words, sub);
    }
    return c;
  }

  // What to do now, and what is left this turn (AP, action tokens).
  function promptPart(view, parent) {
    const obs = view.observation;
    const box = node("div", "mx-prompt", parent);
    const line = node("div", "mx-prompt-line", box);
    const todo = (text) => node("div", "mx-todo-line", box, text);
    const head = (text) => `<b class="mx-head">${esc(text)}</b> `;
    if (obs.terminal) {
      line.innerHTML = fillHtml(t("Game over: {result}"), { result: resultLine(view) });
      return;
    }
    if (obs.phase === "drawing calpulli tiles") {
      line.textContent = t("Set-up: drawing the part-1 calpulli tiles ({drawn} of {total})",
        { drawn: ((obs.tiles || {}).available || []).length, total: PART_ONE_TILES });
      return;
    }
    if (obs.phase === "placing the Mexica") {
      const seat = view.to_move;
      line.innerHTML = head(t("Set-up")) + fillHtml(t("{name} places the Mexica on a starting square."), { name: who(view, seat) });
      if (seat === view.viewer) todo(t("Click a free starting square (★) by the coat of arms."));
      return;
    }
    const seat = obs.turn_of;
    const held = (obs.tokens || [])[seat] || 0;
    // the AP left, and the held action tokens that may add to them (taken ones: on Token)
    line.innerHTML = head(t("Part {part} · round {round}", { part: obs.part, round: obs.round })) +
      fillHtml(t("{name} to move: {ap} AP left"), { name: who(view, seat), ap: `<span class="mx-ap-num">${obs.ap}</span>` }) +
      (held ? ` <span class="mx-plus" title="${esc(tn("{n} action token held", "{n} action tokens held", held))}">` +
        `<i class="mx-ico mx-ico-token"></i>${esc(tn("+{n} token", "+{n} tokens", held))}</span>` : "");
    const mine = seat === view.viewer && (view.legal || []).length;
    if (!obs.first_turn && !mine) return;
    const what = node("div", "mx-todo-line", box);
    if (obs.first_turn) node("span", "mx-warn", what, t("first turn: no blocking a rival Mexica"));
    if (mine) node("span", "mx-todo", what, t("Walk: a highlighted square. Else: a button, then a square."));
  }

  // The tools (with the supply they draw on), End turn, one's buildings, this part's tiles and
  // the two bridge axes (shown only while an axis is to be picked).
  function controlsPart(view, parent) {
    const obs = view.observation;
    const playing = obs.phase === "playing";
    const mover = playing ? obs.turn_of : (view.to_move >= 0 ? view.to_move : 0);
    const me = view.viewer !== null && view.viewer !== undefined ? view.viewer : mover;
    const supply = obs.supply || {};
    const singles = supply.single_canals || 0, doubles = supply.double_canals || 0;
    const bridges = supply.bridges || 0, tokens = supply.action_tokens || 0;
    const box = node("div", "mx-controls", parent);

    const tools = node("div", "mx-group mx-tools", box);
    control(tools, "tool:teleport", "mx-tool", t("Teleport your Mexica to any free square or bridge (5 AP)"), icon(26, 26, (g) => {
      el("circle", { cx: 13, cy: 13, r: 11.5, fill: "none", stroke: "#8a6410", "stroke-width": 1.3, "stroke-dasharray": "3 2.5" }, g);
      mexicaShape(g, mover, 19, { transform: "translate(13,14)" });
    }), t("Teleport"), t("{n} AP", { n: 5 }));
    control(tools, "tool:canal", "mx-tool", t("Place a single canal tile (1 AP), {n} left", { n: singles }), icon(26, 26, (g) => {
      el("rect", { x: 4, y: 4, width: 18, height: 18, rx: 2, fill: COLOUR.canal, stroke: "#1d4f73", "stroke-width": 1.5 }, g);
    }), t("Canal"), t("1 AP · {n} left", { n: singles }));
    control(tools, "tool:double", "mx-tool", t("Place a double canal tile on two neighbouring squares (1 AP), {n} left", { n: doubles }), icon(26, 26, (g) => {
      el("rect", { x: 1, y: 7, width: 24, height: 12, rx: 2, fill: COLOUR.canal, stroke: "#1d4f73", "stroke-width": 1.5 }, g);
      el("line", { x1: 13, y1: 7, x2: 13, y2: 19, stroke: "#1d4f73", "stroke-width": 1, "stroke-dasharray": "2 2" }, g);
    }), t("Double"), t("1 AP · {n} left", { n: doubles }));
    // placing a bridge while the supply has one; moving one once all 11 are on the board
    if (bridges) {
      control(tools, "tool:bridge", "mx-tool", t("Place a bridge from the supply (1 AP), {n} left", { n: bridges }), icon(26, 26, (g) => {
        bridgeShape(g, "W-E", 24, 12, { transform: "translate(13,13)" });
      }), t("Bridge"), t("1 AP · {n} left", { n: bridges }));
    } else {
      control(tools, "tool:move_bridge", "mx-tool", t("Move a bridge, once all 11 are on the board (1 AP)"), icon(26, 26, (g) => {
        bridgeShape(g, "W-E", 20, 10, { transform: "translate(12,18)" });
        el("path", { d: "M4,8 Q13,0 22,6 M22,6 l-4,-3 M22,6 l-5,1", fill: "none", stroke: "#8a6410", "stroke-width": 1.6, "stroke-linecap": "round" }, g);
      }), t("Move bridge"), t("{n} AP", { n: 1 }));
    }
    control(tools, "token", "mx-tool", t("Take an action token from the supply (1 AP), {n} in the supply, {taken} of {most} taken this turn",
      { n: tokens, taken: obs.tokens_taken || 0, most: TOKENS_PER_TURN }), icon(26, 26, (g) => {
      tokenShape(g, 11, { transform: "translate(13,13)" });
    }), t("Token"), t("taken {taken}/{most}", { taken: obs.tokens_taken || 0, most: TOKENS_PER_TURN }));
    control(tools, "end", "mx-tool mx-end", t("End your turn"), icon(26, 26, (g) => {
      el("path", { d: "M4,13 l6,6 l12,-13", fill: "none", stroke: "#2e7d32", "stroke-width": 3.5, "stroke-linecap": "round", "stroke-linejoin": "round" }, g);
    }), t("End turn"), t("unused AP lost"));

    // one's own buildings (the mover's, for a spectator): a building of L levels costs L AP
    const build = node("div", "mx-group mx-build", box);
    node("span", "mx-glabel", build, t("Build"));
    const left = ((obs.buildings_left || [])[me]) || [0, 0, 0, 0];
    for (let lv = 1; lv <= 4; lv++) {
      const n = left[lv - 1] || 0;
      const aria = tn("Build a building of {n} level ({n} AP), {left} left", "Build a building of {n} levels ({n} AP), {left} left", lv, { left: n });
      control(build, "level:" + lv, "mx-level" + (n ? "" : " mx-empty"), aria,
        icon(26, 26, (g) => buildingShape(g, me, lv, 26, { transform: "translate(13,13)" })), null, "×" + n);
    }

    // this part's calpulli tiles (founding is free)
    const found = node("div", "mx-group mx-found", box);
    node("span", "mx-glabel", found, t("Found"));
    const counts = new Map();
    ((obs.tiles || {}).available || []).forEach((sz) => counts.set(sz, (counts.get(sz) || 0) + 1));
    const sizes = [...counts.keys()].sort((a, c) => a - c);
    if (!sizes.length) node("span", "mx-none", found, obs.phase === "drawing calpulli tiles" ? t("being drawn") : t("none left"));
    sizes.forEach((size) => {
      const n = counts.get(size);
      let aria = t("Found a district with the calpulli tile {size} (free): the founder scores {middle}, others present {small}", { size, middle: middle(size), small: small(size) });
      if (n > 1) aria += ", " + tn("{n} tile of this size", "{n} tiles of this size", n);
      control(found, "tile:" + size, "mx-tilebtn", aria, icon(28, 28, (g) => {
        if (n > 1) tileShape(g, size, 24, { transform: "translate(16,12)", opacity: 0.55 });
        tileShape(g, size, 24, { transform: n > 1 ? "translate(12,16)" : "translate(14,14)" });
      }), null, n > 1 ? "×" + n : null);
    });

    // the axis of a bridge, when both are possible
    const axes = node("div", "mx-group mx-axes", box);
    ["N-S", "W-E"].forEach((axis) => {
      control(axes, "axis:" + axis, "mx-axis", t("Bridge axis {axis}", { axis: axisWords(axis) }), icon(26, 26, (g) => {
        bridgeShape(g, axis, 22, 10, { transform: "translate(13,13)" });
      }), axisShort(axis), null);
    });
  }

  function dockPart(view) {
    const dock = node("div", "mx mx-dock");
    dock.setAttribute("data-dock", "");
    promptPart(view, dock);
    if (!view.observation.terminal) controlsPart(view, dock);
    return dock;
  }

  // ---- the side panel ---------------------------------------------------------------------------
  function chip(seat) {
    return `<span class="mx-chip" style="background:${seatColour(seat)};border-color:${seatDark(seat)}">${seat + 1}</span>`;
  }
  function tileHtml(size, cls) {
    const title = t("calpulli tile {size}: {size} / {middle} / {small}", { size, middle: middle(size), small: small(size) });
    return `<span class="mx-tile ${cls || ""}" title="${esc(title)}">` +
      `<b>${size}</b><i><em>${middle(size)}</em><em>${small(size)}</em></i></span>`;
  }
  // markup around translated words (t() never inside a template literal: Babel would miss it)
  function span(cls, text) { return `<span class="${cls}">${esc(text)}</span>`; }
  function div(cls, text) { return `<div class="${cls}">${esc(text)}</div>`; }
  function box(title, inner, cls) {
    return `<section class="mx-box${cls ? " " + cls : ""}"><h3>${esc(title)}</h3>${inner}</section>`;
  }
  function th(label, title, cls) {
    return `<th${cls ? ` class="${cls}"` : ""}${title ? ` title="${esc(title)}"` : ""}>${label}</th>`;
  }
  function tilesHtml(sizes, cls, highlight) {
    if (!sizes || !sizes.length) return span("mx-none", t("none"));
    return [...sizes].sort((a, b) => a - b).map((sz) => tileHtml(sz, (cls || "") + (highlight && highlight.has(sz) ? " mx-tile-match" : ""))).join("");
  }
  // a translated template (t("...") without fields) as HTML: its words escaped, each {field}
  // replaced by markup
  function fillHtml(template, fields) {
    return esc(template).replace(/\{(\w+)\}/g, (all, key) => (
      Object.prototype.hasOwnProperty.call(fields, key) ? String(fields[key]) : all));
  }
  function who(view, seat) { return `${chip(seat)} <b>${esc(seatName(view, seat))}</b>`; }

  // The turn's longer notes, below the dock (its prompt says what to do in one line).
  function notesHtml(view) {
    const obs = view.observation;
    if (obs.terminal || obs.phase !== "playing") return "";
    const seat = obs.turn_of;
    let body = "";
    if (obs.idle_round && seat !== 0) {
      body += div("mx-note", t("Nobody has taken an action this round yet: if nobody does, part {part} ends with this round.", { part: obs.part }));
    }
    if (seat === view.viewer && (view.legal || []).length) {
      body += div("mx-hint", t("Walk: click a highlighted square next to your Mexica (from a bridge: another bridge by boat). Build: a building of your supply, then a square. Found: a tile, then a square. Canals and bridges: the tool, then the square(s)."));
    }
    return body ? box(t("Part {part} · round {round}", { part: obs.part, round: obs.round }), body, "mx-turn") : "";
  }

  function seatsHtml(view, b) {
    const obs = view.observation;
    const n = (obs.mexica || []).length;
    const onStart = (sq) => { if (!sq) return false; const [c, r] = parse(sq); return b.t(c, r) === "S"; };
    const left = obs.buildings_left || [], reserve = obs.buildings_part_two || [];
    const mover = obs.terminal ? -1 : (obs.phase === "playing" ? obs.turn_of : view.to_move);
    const byLevels = t("buildings left by levels 1/2/3/4");
    const starTitle = t("on a starting square: +{n} at a scoring", { n: START_BONUS });
    const star = ` <span class="mx-star" title="${esc(starTitle)}">★</span>`;
    const rows = [];
    for (let s = 0; s < n; s++) {
      const sq = obs.mexica[s];
      const l = left[s] || [0, 0, 0, 0];
      const built = [...b.buildings.values()].filter((x) => x.owner === s).reduce((a, x) => a + x.levels, 0);
      const res = reserve[s] || [0, 0, 0, 0];
      const title = [byLevels];
      if (sum(res)) title.push(t("part 2 adds {counts}", { counts: res.join("/") }));
      title.push(tn("{n} level built", "{n} levels built", built));
      rows.push(`<tr class="${s === mover ? "mx-mover" : ""}">` +
        `<td>${s === mover ? "▶" : ""}</td>` +
        `<td class="mx-name">${chip(s)} ${esc(seatName(view, s))}</td>` +
        `<td class="mx-num"><b>${(obs.scores || [])[s] ?? 0}</b></td>` +
        `<td class="mx-num">${(obs.tokens || [])[s] ?? 0}</td>` +
        `<td>${sq ? esc(sq) + (onStart(sq) ? star : "") : '<span class="mx-none">—</span>'}</td>` +
        `<td class="mx-left" title="${esc(title.join("; "))}">${l.join("/")}</td></tr>`);
    }
    const note = t("tok: action tokens held · at: where the Mexica stands (★ a starting square: +{n} at each scoring) · left: buildings by levels 1/2/3/4.", { n: START_BONUS });
    const head = th("") + th(esc(t("seat"))) + th(esc(t("pts")), t("points")) + th(esc(t("tok")), t("action tokens held")) +
      th(esc(t("at")), t("where the Mexica stands")) + th(esc(t("left")), byLevels);
    return box(t("Seats"), `<table class="mx-table mx-seats"><thead><tr>${head}</tr></thead>` +
      `<tbody>${rows.join("")}</tbody></table>` + div("mx-note", note + reserveNote(view)));
  }

  function reserveNote(view) {
    const obs = view.observation;
    const reserve = obs.buildings_part_two || [];
    if (!reserve.some((r) => sum(r))) return "";
    const same = reserve.every((r) => r.join("/") === reserve[0].join("/"));
    if (same) return " " + t("Part 2 adds {counts} to each seat.", { counts: reserve[0].join("/") });
    const each = reserve.map((r, s) => t("{seat}: {counts}", { seat: s + 1, counts: r.join("/") })).join(", ");
    return " " + t("Part 2 adds {counts}.", { counts: each });
  }

  function districtsHtml(view, b) {
    const obs = view.observation;
    const n = (obs.mexica || []).length;
    const founded = b.areas.filter((a) => a.tile).sort((a, c) => c.tile - a.tile);
    const levelsIn = (area) => {
      const lv = new Array(n).fill(0);
      area.squares.forEach((sq) => { const bl = b.buildings.get(sq); if (bl) lv[bl.owner] += bl.levels; });
      return lv;
    };
    let html = "";
    if (!founded.length) {
      html += div("mx-none", t("none founded yet"));
    } else {
      const seats = [...Array(n).keys()].map((s) => th(chip(s), t("levels of {name} (and what a scoring would give now)", { name: seatName(view, s) }), "mx-num"));
      html += `<table class="mx-table mx-districts"><thead><tr>` + th(esc(t("tile"))) + th(esc(t("at"))) + seats.join("") +
        `</tr></thead><tbody>`;
      founded.forEach((a) => {
        const lv = levelsIn(a), pts = standings(lv, a.tile);
        html += `<tr><td>${tileHtml(a.tile, "mx-tile-sm")}</td><td>${esc(a.tileSquare || "")}</td>` +
          lv.map((l, s) => `<td class="mx-num">${l ? `${l}<span class="mx-would">${pts[s] ? "+" + pts[s] : ""}</span>` : '<span class="mx-none">·</span>'}</td>`).join("") +
          `</tr>`;
      });
      html += `</tbody></table>`;
    }
    const available = new Set(((obs.tiles || {}).available) || []);
    const unfounded = b.areas.filter((a) => !a.tile).map((a) => a.size).sort((x, y) => y - x);
    html += `<div class="mx-areas"><b>` + esc(t("Unfounded areas:")) + `</b> ` + (unfounded.length
      ? unfounded.map((sz) => `<span class="mx-area${available.has(sz) ? " mx-area-match" : ""}">${sz}</span>`).join(" ")
      : span("mx-none", t("every area is a district"))) + `</div>`;
    let note = obs.terminal
      ? t("Levels built by each seat; in green what the district gave at the last scoring.")
      : t("Levels built by each seat; in green what a scoring would give now.");
    if (obs.part === 2 && !obs.terminal) note += " " + t("At the second scoring unfounded areas score too, as a tile of their size.");
    return box(t("Districts"), html + div("mx-note", note));
  }

  function tilesPanelHtml(view, b) {
    const obs = view.observation;
    const tl = obs.tiles || {};
    const drawing = obs.phase === "drawing calpulli tiles";
    const unfounded = new Set(b.areas.filter((a) => !a.tile).map((a) => a.size));
    const row = (label, html) => `<div class="mx-row"><span class="mx-k">${esc(label)}</span>${html}</div>`;
    let html = "";
    html += row(drawing ? t("drawn") : t("part {part}", { part: obs.part }), tilesHtml(tl.available, "", unfounded));
    if (obs.part === 1) html += row(drawing ? t("not drawn") : t("part {part}", { part: 2 }), tilesHtml(tl.face_down, "mx-tile-down"));
    if ((tl.removed || []).length) html += row(t("removed"), tilesHtml(tl.removed, "mx-tile-gone"));
    const note = fillHtml(t("Tile numbers: size (scoring 1st) · {middle}: founder, 2nd · {small}: others present, 3rd. Green: an unfounded area has that size."), {
      middle: span("mx-c-mid", t("middle number")), small: span("mx-c-small", t("small number")) });
    return box(t("Calpulli tiles"), html + `<div class="mx-note">${note}</div>`);
  }

  function supplyHtml(view) {
    const obs = view.observation, s = obs.supply || {};
    const item = (ico, text) => `<span><i class="mx-ico ${ico}"></i>${esc(text)}</span>`;
    return box(t("Supply"), `<div class="mx-supply">` +
      item("mx-ico-canal", tn("{n} single canal", "{n} single canals", s.single_canals ?? 0)) +
      item("mx-ico-canal2", tn("{n} double canal", "{n} double canals", s.double_canals ?? 0)) +
      item("mx-ico-bridge", tn("{n} bridge", "{n} bridges", s.bridges ?? 0)) +
      item("mx-ico-token", tn("{n} action token", "{n} action tokens", s.action_tokens ?? 0)) + `</div>`);
  }

  function scoringsHtml(view) {
    const obs = view.observation;
    const sc = obs.scorings || [];
    if (!sc.length) return "";
    const n = (obs.mexica || []).length;
    const names = [t("first scoring"), t("second scoring")];
    return box(t("Scorings"), `<table class="mx-table"><thead><tr><th></th>` +
      [...Array(n).keys()].map((s) => `<th>${chip(s)}</th>`).join("") + `</tr></thead><tbody>` +
      sc.map((pts, i) => `<tr><td>${esc(names[i] || "")}</td>` + pts.map((p) => `<td class="mx-num">+${p}</td>`).join("") + `</tr>`).join("") +
      `</tbody></table>`);
  }

  function legendHtml() {
    const sw = (cls, label) => `<span class="mx-leg"><i class="mx-sw ${cls}"></i>${esc(label)}</span>`;
    return `<section class="mx-box mx-legend">` +
      sw("mx-sw-lake", t("lake")) + sw("mx-sw-canal", t("canal")) + sw("mx-sw-land", t("unfounded land")) +
      sw("mx-sw-district", t("founded district")) + sw("mx-sw-start", t("★ starting square")) +
      `<span class="mx-leg"><span class="mx-size-ex">12</span>` + esc(t("size of an unfounded area (circled green: a tile of this part fits)")) + `</span>` +
      span("mx-leg", t("Buildings: the seat in the white badge, the levels top right and as tiers.")) +
      `</section>`;
  }

  // ---- the result ---------------------------------------------------------------------------------
  function outcome(view) {
    const obs = view.observation || {};
    const res = view.result || {};
    const scores = res.scores || obs.scores || view.scores || [];
    const returns = res.returns || obs.returns || [];
    const tokens = obs.tokens || [];
    const n = scores.length;
    const best = Math.max(...returns);
    const winners = [...Array(n).keys()].filter((s) => returns[s] === best && best > 0);
    const top = Math.max(...scores);
    const tiedTop = [...Array(n).keys()].filter((s) => scores[s] === top);
    return { scores, returns, tokens, n, winners, top, tiedTop };
  }

  // The result in a sentence; `plain`: text (the status strip), else HTML (the panels).
  function resultLine(view, plain) {
    const o = outcome(view);
    const names = (seats) => joinList(seats.map((s) => (plain ? seatName(view, s) : who(view, s))));
    const fill = (template, fields) => (plain ? T.fill(template, fields) : fillHtml(template, fields));
    const word = (text) => (plain ? text : esc(text));
    const pts = (n) => word(tn("{n} point", "{n} points", n));
    if (!o.winners.length) return fill(t("The game is over."), {});
    if (o.winners.length === 1 && o.tiedTop.length === 1) {
      return fill(t("{name} wins with {points}."), { name: names(o.winners), points: pts(o.top) });
    }
    const tok = (seats) => seats.map((s) => o.tokens[s] || 0).join(", ");
    const behind = o.tiedTop.filter((s) => !o.winners.includes(s));
    if (o.winners.length === 1) {
      const w = o.winners[0];
      return fill(t("{name} wins on the tie-break: tied on {points} with {others}, and the most unused action tokens break the tie: {mine} against {theirs}."),
        { name: names([w]), points: pts(o.top), others: names(behind), mine: o.tokens[w] || 0, theirs: tok(behind) });
    }
    let line = fill(t("Shared victory: {names}, tied on {points} and on {tokens} each (the tie-break, most unused action tokens, does not separate them)."),
      { names: names(o.winners), points: pts(o.top), tokens: word(tn("{n} unused action token", "{n} unused action tokens", o.tokens[o.winners[0]] || 0)) });
    if (behind.length) {
      line += " " + fill(t("{names} also had {points} but fewer unused action tokens ({tokens})."),
        { names: names(behind), points: pts(o.top), tokens: tok(behind) });
    }
    return line;
  }

  // Narrow on purpose: the shell shows it in its side panel.
  function result(view) {
    const o = outcome(view);
    let html = `<div class="mx-result"><p class="mx-result-line">${resultLine(view)}</p>`;
    html += `<table class="mx-table"><thead><tr>` + th(esc(t("seat"))) + th(esc(t("points")), "", "mx-num") +
      th(esc(t("tokens")), t("unused action tokens: the tie-break"), "mx-num") + `</tr></thead><tbody>`;
    const order = [...Array(o.n).keys()].sort((a, c) => (o.scores[c] - o.scores[a]) || ((o.tokens[c] || 0) - (o.tokens[a] || 0)) || a - c);
    order.forEach((s) => {
      const r = o.returns[s] || 0;
      const mark = r >= 1 ? " ★ " + t("won") : r > 0 ? " ★ " + t("shared") : "";
      html += `<tr class="${r > 0 ? "mx-winner" : ""}"><td>${chip(s)} ${esc(seatName(view, s))}<span class="mx-won">${esc(mark)}</span></td>` +
        `<td class="mx-num"><b>${o.scores[s]}</b></td><td class="mx-num">${o.tokens[s] ?? 0}</td></tr>`;
    });
    html += `</tbody></table><p class="mx-note">` + esc(t("Most points wins; on a tie, the most unused action tokens; still tied: a shared victory.")) + `</p></div>`;
    return html;
  }

  // ---- pick paths -------------------------------------------------------------------------------
  const pathCache = new WeakMap();
  function axisInfo(view) {
    let info = pathCache.get(view);
    if (info) return info;
    const bridge = new Map(), moved = new Map();
    (view.legal || []).forEach((m) => {
      const mv = m.move || {};
      if (mv.kind === "bridge") bridge.set(mv.square, (bridge.get(mv.square) || 0) + 1);
      if (mv.kind === "move_bridge") { const k = mv.from + ">" + mv.to; moved.set(k, (moved.get(k) || 0) + 1); }
    });
    info = { bridge, moved };
    pathCache.set(view, info);
    return info;
  }

  function keys(move, view) {
    const obs = view.observation || {};
    switch (move.kind) {
      case "end": return ["end"];
      case "token": return ["token"];
      case "start": return [move.square];
      case "boat": return [move.square];
      case "walk": {
        const seat = obs.turn_of;
        const from = (obs.mexica || [])[seat];
        const d = DIRS[move.direction];
        if (!from || !d) return ["walk:" + move.direction];
        const [c, r] = parse(from);
        return inGrid(c + d[0], r + d[1]) ? [nameOf(c + d[0], r + d[1])] : ["walk:" + move.direction];
      }
      case "teleport": return ["tool:teleport", move.square];
      case "canal": return ["tool:canal", move.square];
      case "double": return ["tool:double", move.squares[0], move.squares[1]];
      case "bridge": {
        const both = (axisInfo(view).bridge.get(move.square) || 0) > 1;
        return ["tool:bridge", move.square].concat(both ? ["axis:" + move.axis] : []);
      }
      case "move_bridge": {
        const both = (axisInfo(view).moved.get(move.from + ">" + move.to) || 0) > 1;
        return ["tool:move_bridge", move.from, move.to].concat(both ? ["axis:" + move.axis] : []);
      }
      case "build": return ["level:" + move.levels, move.square];
      case "found": return ["tile:" + move.size, move.square];
      case "draw": return ["draw:" + move.size];
      default: return [String(move.kind)];
    }
  }

  // ---- words for keys, wrong clicks, the last move ----------------------------------------------
  const boardCache = new WeakMap();
  function boardOf(view) {
    const obs = view.observation || {};
    let b = boardCache.get(obs);
    if (!b) { b = readBoard(obs); boardCache.set(obs, b); }
    return b;
  }

  // A pick key in words, for the shell's "Picked: ..." line.
  function label(key, view) {
    const k = String(key);
    if (isSquare(k)) {
      const b = boardOf(view);
      const [c, r] = parse(k);
      if (b.bridges.has(k)) return t("the bridge at {square}", { square: k });
      if (b.t(c, r) === "S") return t("the starting square {square}", { square: k });
      return t("square {square}", { square: k });
    }
    const [head, arg] = k.split(":");
    const n = parseInt(arg, 10);
    if (head === "tool") {
      const tools = { teleport: t("Teleport"), canal: t("Canal"), double: t("Double canal"), bridge: t("Bridge"), move_bridge: t("Move bridge") };
      return tools[arg] || k;
    }
    if (head === "level") return tn("a building of {n} level", "a building of {n} levels", n);
    if (head === "tile" || head === "draw") return t("calpulli tile {size}", { size: n });
    if (head === "axis") return t("axis {axis}", { axis: axisWords(arg) });
    if (head === "walk") return t("walk {direction}", { direction: directionWords(arg) });
    if (head === "token") return t("an action token");
    if (head === "end") return t("End turn");
    return k;
  }

  const ALL = [];
  for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) ALL.push(nameOf(c, r));
  function neighbours(sq) {
    const [c, r] = parse(sq);
    return Object.entries(DIRS).filter(([, [dc, dr]]) => inGrid(c + dc, r + dr))
      .map(([d, [dc, dr]]) => [d, nameOf(c + dc, r + dr)]);
  }
  function terrainOf(b, sq) { const [c, r] = parse(sq); return b.t(c, r); }
  // ordinary land with nothing on it
  function freeLand(b, sq) {
    return ".C".includes(terrainOf(b, sq)) && !b.canals.has(sq) && !b.buildings.has(sq) && !b.tiles.has(sq) && !b.mexica.has(sq);
  }
  function accesses(b) {
    const out = new Set();
    b.bridges.forEach((axis, sq) => neighbours(sq).forEach(([d, n]) => {
      if ((axis === "N-S") === (d === "N" || d === "S")) out.add(n);
    }));
    return out;
  }
  // where a canal may go (MX-5), as far as the view tells
  function diggable(b, sq, ends) {
    const area = b.areaOf.get(sq);
    return freeLand(b, sq) && !ends.has(sq) && !(area && area.tile);
  }
  // where a Mexica may stand: dry, not the coat of arms, nothing on it (or a free bridge)
  function standable(b, sq) {
    const t0 = terrainOf(b, sq);
    const dry = t0 !== "~" && t0 !== "X" && !b.canals.has(sq);
    return (dry || b.bridges.has(sq)) && !b.buildings.has(sq) && !b.tiles.has(sq) && !b.mexica.has(sq);
  }
  // a square for a building or tile of the mover: free land in the Mexica's area if any
  function siteFor(b, at) {
    const area = at && !b.bridges.has(at) ? b.areaOf.get(at) : null;
    return (area && area.squares.find((q) => freeLand(b, q))) || ALL.find((q) => freeLand(b, q)) || at;
  }
  // a canal square a bridge could take, other than `not`
  function bridgeSite(b, not) {
    const open = (q) => b.canals.has(q) && q !== not && !b.bridges.has(q) && !b.mexica.has(q) &&
      neighbours(q).every(([, n]) => n === not || !b.bridges.has(n));
    return ALL.find(open) || ALL.find((q) => b.canals.has(q) && q !== not) || null;
  }

  // A click on a tool, building, tile or axis (nothing picked before it): the move it most
  // likely starts, completed with a square where only the tool's own reason can stop it.
  function toolAttempt(key, view, b) {
    const obs = view.observation || {};
    const at = (obs.mexica || [])[obs.turn_of];
    const [head, arg] = key.split(":");
    if (head === "level" || head === "tile") {
      const site = siteFor(b, at);
      if (!site) return null;
      return head === "level" ? `build ${arg} at ${site}` : `found ${arg} at ${site}`;
    }
    const ends = accesses(b);
    switch (key) {
      case "tool:teleport": {
        const sq = ALL.find((q) => standable(b, q));
        return sq ? "teleport " + sq : null;
      }
      case "tool:canal": {
        const sq = ALL.find((q) => diggable(b, q, ends)) || ALL.find((q) => terrainOf(b, q) === ".");
        return sq ? "canal " + sq : null;
      }
      case "tool:double": {
        const pairs = [];
        ALL.forEach((q) => neighbours(q).forEach(([d, n]) => { if (d === "E" || d === "S") pairs.push([q, n]); }));
        const pair = pairs.find(([p, q]) => diggable(b, p, ends) && diggable(b, q, ends)) ||
          pairs.find(([p, q]) => terrainOf(b, p) === "." && terrainOf(b, q) === ".");
        return pair ? `canal ${pair[0]}-${pair[1]}` : null;
      }
      case "tool:bridge": {
        const sq = bridgeSite(b, null);
        return sq ? "bridge " + sq : null;
      }
      case "tool:move_bridge": {
        const from = [...b.bridges.keys()].find((q) => !b.mexica.has(q)) || [...b.bridges.keys()][0] ||
          ALL.find((q) => b.canals.has(q));
        const to = from ? bridgeSite(b, from) : null;
        return from && to ? `move bridge ${from} to ${to}` : null;
      }
      default: return null;
    }
  }

  // `to` if it is next to `from`, else the neighbour of `from` on the way to it
  function towards(from, to) {
    const [c0, r0] = parse(from), [c1, r1] = parse(to);
    const across = Math.abs(c1 - c0) >= Math.abs(r1 - r0);
    const c = c0 + (across ? Math.sign(c1 - c0) : 0), r = r0 + (across ? 0 : Math.sign(r1 - r0));
    return inGrid(c, r) && (c !== c0 || r !== r0) ? nameOf(c, r) : neighbours(from)[0][1];
  }

  // A click on a square with no tool picked: a step, a boat trip (to a bridge) or else the
  // teleport that alone goes that far (its reason: the square is taken, or the AP are short).
  function stepAttempt(key, view, b) {
    const obs = view.observation || {};
    const at = (obs.mexica || [])[obs.turn_of];
    if (!at) return null;
    const step = neighbours(at).find(([, n]) => n === key);
    if (step) return "walk " + step[0];
    return b.bridges.has(key) && key !== at ? "boat to " + key : "teleport " + key;
  }

  // The move (in notation) meant by a click on `key`, which is not pickable now, after the
  // keys `path`; null when no move is meant. The server says why that move is not legal.
  function attempt(path, key, view) {
    const obs = view.observation || {};
    const k = String(key);
    path = path || [];
    if (obs.terminal) return null;
    // in the set-up any other piece meets the set-up's own reason
    if (obs.phase === "placing the Mexica") return isSquare(k) ? "start at " + k : "end";
    if (obs.phase !== "playing") return "end";
    if (k === "end" || k === "token") return k;
    if (k.startsWith("walk:")) return "walk " + k.slice(5);
    const b = boardOf(view);
    const tool = path[0];
    if (k.startsWith("axis:")) {
      const axis = k.slice(5);
      if (tool === "tool:bridge" && path.length === 2) return `bridge ${path[1]} ${axis}`;
      if (tool === "tool:move_bridge" && path.length === 3) return `move bridge ${path[1]} to ${path[2]} ${axis}`;
      const site = bridgeSite(b, null);  // an axis before its square: a bridge along it
      return site ? `bridge ${site} ${axis}` : "bridge P8 " + axis;
    }
    if (!isSquare(k)) return toolAttempt(k, view, b);
    if (!tool || isSquare(tool)) return stepAttempt(k, view, b);
    if (tool.startsWith("level:")) return `build ${tool.slice(6)} at ${k}`;
    if (tool.startsWith("tile:")) return `found ${tool.slice(5)} at ${k}`;
    switch (tool) {
      case "tool:teleport": return "teleport " + k;
      case "tool:canal": return "canal " + k;
      case "tool:double": {
        if (path.length >= 2) return `canal ${path[1]}-${towards(path[1], k)}`;
        const ends = accesses(b);
        const near = neighbours(k).map(([, n]) => n);
        const other = near.find((n) => diggable(b, n, ends)) || near.find((n) => terrainOf(b, n) !== "~") || near[0];
        return `canal ${k}-${other}`;
      }
      case "tool:bridge": return "bridge " + k;
      case "tool:move_bridge": {
        if (path.length >= 2) return `move bridge ${path[1]} to ${k}`;
        return `move bridge ${k} to ${bridgeSite(b, k) || k}`;
      }
      default: return null;
    }
  }

  // The squares and buttons `move` touched, to mark it as a seat's last move (`seat`, when the
  // shell gives it, says whose Mexica walked; else the seat whose turn it is).
  function lastMoveKeys(move, view, seat) {
    const obs = view.observation || {};
    switch (move.kind) {
      case "start": case "boat": case "teleport": case "canal": case "bridge": case "build": case "found":
        return move.square ? [move.square] : [];
      case "double": return (move.squares || []).filter(Boolean);
      case "move_bridge": return [move.from, move.to].filter(Boolean);
      case "walk": {
        const sq = (obs.mexica || [])[seat !== undefined && seat !== null ? seat : obs.turn_of];
        return sq ? [sq] : [];
      }
      case "token": return ["token"];
      case "draw": return ["tile:" + move.size];
      default: return [];
    }
  }

  // ---- draw -------------------------------------------------------------------------------------
  let uidCounter = 0;
  // The island in the frame (drawn at the width it is given), the turn's controls for the dock
  // and the tables to read below it (the shell moves the [data-dock] and [data-extra] parts).
  function draw(root, view) {
    const obs = view.observation || {};
    const b = readBoard(obs);
    const uid = "m" + (++uidCounter);
    const svg = el("svg", { viewBox: `0 0 ${BOARD_W} ${BOARD_H}`, class: "mx-board", role: "group", "aria-label": t("the island of Mexica: 23 columns A to W, 16 rows 1 to 16") });
    defs(svg, uid);
    el("rect", { x: 0, y: 0, width: BOARD_W, height: BOARD_H, fill: "#f6efdc", rx: 10 }, svg);
    drawIsland(svg, view, b, uid);
    const island = node("div", "mx mx-island");
    island.appendChild(svg);
    const extras = node("div", "mx mx-extras");
    extras.setAttribute("data-extra", "");
    extras.innerHTML = notesHtml(view) + seatsHtml(view, b) + districtsHtml(view, b) + scoringsHtml(view) +
      tilesPanelHtml(view, b) + supplyHtml(view) + legendHtml();
    root.append(island, dockPart(view), extras);
  }

  window.Tlatelolco.register("mexica", { draw, keys, result, label, attempt, lastMoveKeys });
})();
