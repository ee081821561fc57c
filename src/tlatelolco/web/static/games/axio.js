/* Axio in the browser: the display of square tiles, the viewer's hand tile with its four
 * rotations, and every seat's score board.
 *
 * Drawn only from the view the shell passes (the engine's observation plus the legal moves).
 * Cells are (x, y) with x growing East and y growing North, as the engine numbers them; a
 * tile's corners are listed clockwise from the top-left.
 *
 * Key path of a placement: ["cell:X,Y", "rot:R"] and, for a tile with an empty corner, a
 * third key "empty:COLOUR" (the colour named for that corner). Free cells are drawn on the
 * display, the rotations as four previews of the hand tile, the colours as swatches. Placed
 * tiles and the empty squares around the display carry their "cell:X,Y" key too, so that a
 * click on them can be explained (`attempt`) and the last tile of each seat marked
 * (`lastMoveKeys`). Which rotation scores what is previewed with CSS only (:has on the
 * shell's pick/picked classes), so no event handler of our own is attached.
 *
 * Every text a player reads goes through t()/tn() (catalogue: locale/es/.../axio.po).
 */
(function () {
  "use strict";

  const T = window.Tlatelolco;  // the shell's shared helpers
  const t = (m, p) => T.t(m, p);
  const tn = (s, p, n, params) => T.tn(s, p, n, params);
  const svg = T.svg.bind(T), svgText = T.text.bind(T);

  const COLOURS = ["red", "green", "blue", "orange", "purple"];
  const TRACK_TOP = 12; // a colour track runs 0..12
  const STACK = 12;
  // Symbols on the black circles (bright) and on the light page (darker), plus a shape per
  // colour so that the board reads without colour vision.
  const BRIGHT = { red: "#ff5247", green: "#35c46a", blue: "#3f8cff", orange: "#ffa41b", purple: "#c77dff" };
  const INK = { red: "#c62828", green: "#1f8a44", blue: "#1f5fc8", orange: "#c86a00", purple: "#8a3fc4" };
  const TINT = { red: "#f8d2cf", green: "#cdebd6", blue: "#d3e1fa", orange: "#fbe0bd", purple: "#e8d6f6" };
  const SHAPE = { red: "disc", green: "triangle", blue: "diamond", orange: "star", purple: "cross" };
  const GLYPH = { red: "●", green: "▲", blue: "◆", orange: "★", purple: "✚" };
  const CELL = 100; // display units per cell
  const MIN_COLS = 6, MIN_ROWS = 5; // the least the display shows, in cells
  const CIRCLE = 0.41; // radius of a corner's quarter circle, in cells
  // Grid points of a cell's corners, clockwise from the top-left (y grows North).
  const CORNER_POINTS = [[0, 1], [1, 1], [1, 0], [0, 0]];
  // Around grid point (px, py): [cell dx, cell dy, which corner of that cell touches it].
  const AROUND_POINT = [[-1, 0, 2], [0, 0, 3], [-1, -1, 1], [0, -1, 0]];
  const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  const START_CELLS = [[0, 1], [1, 1], [1, 0], [0, 0]];

  // --- words ------------------------------------------------------------------------------
  // Called when drawing, not when loading: the catalogue arrives after this file runs.

  function colourWord(c) {
    return { red: t("red"), green: t("green"), blue: t("blue"), orange: t("orange"),
      purple: t("purple") }[c] || "";
  }

  function shapeWord(c) {
    return { disc: t("disc"), triangle: t("triangle"), diamond: t("diamond"), star: t("star"),
      cross: t("cross") }[SHAPE[c]] || "";
  }

  function cornerName(i) {
    return [t("top-left"), t("top-right"), t("bottom-right"), t("bottom-left")][i];
  }

  function cornerWord(c) {
    return c ? colourWord(c) : t("no symbol");
  }

  function tileWords(corners) {
    return corners.map((c, i) => cornerName(i) + ": " + cornerWord(c)).join(", ");
  }

  function turnWord(deg) {
    return deg ? t("turned {degrees}° clockwise", { degrees: deg }) : t("not turned");
  }

  // --- small helpers ----------------------------------------------------------------------

  const html = (tag, cls, parent, content) => T.html(tag, cls, parent, content);

  const esc = (text) => T.escape(text), seatName = (view, seat) => T.seatName(view, seat);
  // A translated sentence as HTML: its own text escaped, `params` (HTML already) filled in.
  const fillHtml = (text, params) => T.fill(esc(text), params);

  function turned(corners, degrees) {
    const r = ((Math.round(degrees / 90) % 4) + 4) % 4;
    return r ? corners.slice(4 - r).concat(corners.slice(0, 4 - r)) : corners.slice();
  }

  function boardValues(board) {
    return COLOURS.map((c) => Number((board || {})[c] || 0));
  }

  function cellKey(x, y) {
    return "cell:" + x + "," + y;
  }

  // --- symbols and tiles ------------------------------------------------------------------

  /** The symbol of `colour` centred at (cx, cy), about 2r across. */
  function symbol(parent, colour, cx, cy, r, fill) {
    const f = fill || BRIGHT[colour];
    const attrs = { fill: f, class: "ax-sym" };
    const shape = SHAPE[colour];
    if (shape === "disc") return svg("circle", Object.assign({ cx, cy, r: r * 0.8 }, attrs), parent);
    let pts;
    if (shape === "triangle") {
      pts = [[0, -1], [0.94, 0.68], [-0.94, 0.68]].map(([a, b]) => [cx + a * r, cy + b * r * 1.02]);
    } else if (shape === "diamond") {
      pts = [[0, -1], [0.78, 0], [0, 1], [-0.78, 0]].map(([a, b]) => [cx + a * r, cy + b * r]);
    } else if (shape === "star") {
      pts = [];
      for (let i = 0; i < 10; i++) {
        const ang = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 ? r * 0.45 : r * 1.05;
        pts.push([cx + rr * Math.cos(ang), cy + rr * Math.sin(ang)]);
      }
    } else {
      const a = r * 0.34, b = r * 0.92;
      pts = [[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]]
        .map(([p, q]) => [cx + p, cy + q]);
    }
    return svg("polygon", Object.assign({ points: pts.map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ") }, attrs), parent);
  }

  /** A round black token with a colour symbol: the legend's and the tracks' marker. */
  function token(parent, colour, cx, cy, r) {
    const g = svg("g", { class: "ax-token" }, parent);
    svg("circle", { cx, cy, r, class: "ax-token-bg" }, g);
    if (colour) symbol(g, colour, cx, cy, r * 0.62);
    return g;
  }

  /** A tile with its top-left at (x0, y0), `size` across, corners clockwise from top-left. */
  function drawTile(parent, x0, y0, size, corners, cls) {
    const g = svg("g", { class: "ax-tile" + (cls ? " " + cls : "") }, parent);
    const inset = size * 0.02, rc = size * 0.07, R = size * CIRCLE;
    const a = x0 + inset, b = y0 + inset, s = size - 2 * inset;
    svg("rect", { x: a, y: b, width: s, height: s, rx: rc, class: "ax-tile-body" }, g);
    const spots = [[a, b, 1, 1], [a + s, b, -1, 1], [a + s, b + s, -1, -1], [a, b + s, 1, -1]];
    corners.forEach((colour, i) => {
      const [cx, cy, dx, dy] = spots[i];
      const sweep = dx * dy > 0 ? 1 : 0;
      if (colour) {
        const d = `M${cx + dx * rc},${cy} L${cx + dx * R},${cy} A${R},${R} 0 0 ${sweep} ${cx},${cy + dy * R} ` +
          `L${cx},${cy + dy * rc} A${rc},${rc} 0 0 ${sweep} ${cx + dx * rc},${cy} Z`;
        svg("path", { d, class: "ax-quarter" }, g);
        const off = R * 0.44;
        symbol(g, colour, cx + dx * off, cy + dy * off, size * 0.12);
      } else {
        const r2 = R * 0.97;
        svg("path", { d: `M${cx + dx * r2},${cy} A${r2},${r2} 0 0 ${sweep} ${cx},${cy + dy * r2}`, class: "ax-empty-arc" }, g);
      }
    });
    svg("rect", { x: a, y: b, width: s, height: s, rx: rc, class: "ax-tile-edge" }, g);
    return g;
  }

  /** A face-down tile (stacks and the supply). */
  function tileBack(parent, x, y, size) {
    svg("rect", { x, y, width: size, height: size, rx: size * 0.1, class: "ax-back" }, parent);
    svg("circle", { cx: x + size / 2, cy: y + size / 2, r: size * 0.22, class: "ax-back-mark" }, parent);
  }

  // --- the rules the previews need --------------------------------------------------------

  function cellMap(display) {
    const map = new Map();
    for (const tile of display || []) map.set(tile.x + "," + tile.y, tile.corners);
    return map;
  }

  function freeCells(cells) {
    const free = new Map();
    if (cells.size < 4) return free;
    for (const key of cells.keys()) {
      const [x, y] = key.split(",").map(Number);
      for (const [dx, dy] of NEIGHBOURS) {
        const k = x + dx + "," + (y + dy);
        if (!cells.has(k)) free.set(k, [x + dx, y + dy]);
      }
    }
    return free;
  }

  /** The quadrants other tiles show around grid point (px, py) (null = empty quadrant). */
  function circleAround(cells, px, py) {
    const out = [];
    for (const [dx, dy, corner] of AROUND_POINT) {
      const corners = cells.get(px + dx + "," + (py + dy));
      if (corners) out.push(corners[corner]);
    }
    return out;
  }

  /** What placing `corners` (already turned) at (x, y) scores for a board (the 12 cap
   * applied): {gain: {colour: n}, axio: [colours reaching 12], empty: {colour: n} | null}. */
  function placementScore(cells, x, y, corners, board) {
    const raw = Object.fromEntries(COLOURS.map((c) => [c, 0]));
    let emptyCircle = null;
    corners.forEach((colour, i) => {
      const [dx, dy] = CORNER_POINTS[i];
      const around = circleAround(cells, x + dx, y + dy);
      if (colour) raw[colour] += around.filter((c) => c === colour).length;
      else emptyCircle = around;
    });
    const capped = (c, n) => Math.min(TRACK_TOP, board[c] + n) - board[c];
    const gain = {}, axio = [];
    for (const c of COLOURS) {
      gain[c] = capped(c, raw[c]);
      if (board[c] < TRACK_TOP && board[c] + raw[c] >= TRACK_TOP) axio.push(c);
    }
    let empty = null;
    if (emptyCircle) {
      empty = {};
      for (const c of COLOURS) {
        const n = emptyCircle.filter((q) => q === c).length;
        empty[c] = { extra: capped(c, raw[c] + n) - gain[c],
          axio: board[c] < TRACK_TOP && board[c] + raw[c] < TRACK_TOP && board[c] + raw[c] + n >= TRACK_TOP };
      }
    }
    return { gain, axio, empty };
  }

  // --- the display ------------------------------------------------------------------------

  function drawDisplay(main, view, ctx) {
    const { cells, free, legalCells, hand } = ctx;
    const pos = (x, y) => [x * CELL, -(y + 1) * CELL]; // top-left of cell (x, y)
    let xs = [], ys = [];
    for (const k of cells.keys()) { const [x, y] = k.split(",").map(Number); xs.push(x); ys.push(y); }
    for (const [x, y] of free.values()) { xs.push(x); ys.push(y); }
    if (!xs.length) { xs = [0, 1]; ys = [0, 1]; }
    let x0 = Math.min(...xs), x1 = Math.max(...xs) + 1, y0 = Math.min(...ys), y1 = Math.max(...ys) + 1;
    // At least 6 x 5 cells: an early display is drawn large, yet not as three giant tiles.
    const widen = (lo, hi, n) => { const d = Math.max(0, n - (hi - lo)); return [lo - Math.floor(d / 2), hi + Math.ceil(d / 2)]; };
    [x0, x1] = widen(x0, x1, MIN_COLS);
    [y0, y1] = widen(y0, y1, MIN_ROWS);
    // a thin margin, and bands for the coordinates on the left and along the top
    const pad = 0.15 * CELL, left = 0.45 * CELL, top = 0.3 * CELL;
    const vx = x0 * CELL - pad - left, vy = -y1 * CELL - pad - top;
    const vw = (x1 - x0) * CELL + 2 * pad + left, vh = (y1 - y0) * CELL + 2 * pad + top;
    let aria = tn("Axio display: {n} tile placed", "Axio display: {n} tiles placed", cells.size);
    if (free.size) aria += ", " + tn("{n} free cell next to it", "{n} free cells next to it", free.size);
    // drawn at the width the page gives it (the page's Fit and zoom scale the frame)
    const s = svg("svg", { viewBox: `${vx} ${vy} ${vw} ${vh}`, class: "ax-display", role: "group",
      "aria-label": aria }, main);
    svg("rect", { x: vx, y: vy, width: vw, height: vh, rx: 18, class: "ax-table" }, s);
    // A faint grid of the cells, and the coordinates along the top and the left side.
    const grid = svg("g", { class: "ax-grid" }, s);
    for (let x = x0; x <= x1; x++) svg("line", { x1: x * CELL, y1: -y1 * CELL, x2: x * CELL, y2: -y0 * CELL }, grid);
    for (let y = y0; y <= y1; y++) svg("line", { x1: x0 * CELL, y1: -y * CELL, x2: x1 * CELL, y2: -y * CELL }, grid);
    const axis = svg("g", { class: "ax-axis" }, s);
    for (let x = x0; x < x1; x++) svgText(axis, (x + 0.5) * CELL, -y1 * CELL - 8, "x " + x, { "text-anchor": "middle" });
    for (let y = y0; y < y1; y++) svgText(axis, x0 * CELL - 8, -(y + 0.5) * CELL + 6, "y " + y, { "text-anchor": "end" });

    // Empty squares away from the display: no move, but a click on one is explained.
    const voids = svg("g", { class: "ax-void-layer" }, s);
    for (let x = x0; x < x1; x++) {
      for (let y = y0; y < y1; y++) {
        const k = x + "," + y;
        if (cells.has(k) || free.has(k)) continue;
        const [px, py] = pos(x, y);
        const g = svg("g", { class: "ax-void", "data-key": cellKey(x, y) }, voids);
        svg("rect", { x: px, y: py, width: CELL, height: CELL, class: "ax-void-area" }, g);
      }
    }

    // Free cells: the placements' first key.
    const freeLayer = svg("g", { class: "ax-free-layer" }, s);
    const sortedFree = [...free.entries()].sort((a, b) => b[1][1] - a[1][1] || a[1][0] - b[1][0]);
    for (const [k, [x, y]] of sortedFree) {
      const [px, py] = pos(x, y);
      const legal = legalCells.has(k);
      const g = svg("g", { class: "ax-cell", "data-key": cellKey(x, y),
        "aria-label": legal ? t("free cell ({x},{y}): place your tile here", { x, y })
          : t("free cell ({x},{y})", { x, y }) }, freeLayer);
      svg("rect", { x: px + 5, y: py + 5, width: CELL - 10, height: CELL - 10, rx: 9, class: "ax-free" }, g);
      svgText(g, px + CELL / 2, py + CELL / 2 + 6, k, { class: "ax-free-label", "text-anchor": "middle" });
      if (legal && hand) {
        for (const deg of [0, 90, 180, 270]) {
          const ghost = drawTile(g, px, py, CELL, turned(hand.corners, deg), "ax-ghost");
          ghost.setAttribute("data-rot", String(deg));
        }
        svgText(g, px + CELL / 2, py + CELL / 2 + 7, "↻ ?", { class: "ax-cell-hint", "text-anchor": "middle" });
      }
    }

    // Placed tiles, each with a ring the last-move and highlight marks show (CSS).
    const tiles = svg("g", { class: "ax-tiles" }, s);
    for (const tile of view.observation.display || []) {
      const [px, py] = pos(tile.x, tile.y);
      const g = drawTile(tiles, px, py, CELL, tile.corners);
      g.setAttribute("data-key", cellKey(tile.x, tile.y));
      svg("rect", { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 9, class: "ax-last-ring" }, g);
      svg("title", {}, g).textContent = `(${tile.x},${tile.y}) ` + tileWords(tile.corners);
    }
    if (cells.size < 4) {
      for (const [x, y] of START_CELLS) {
        if (cells.has(x + "," + y)) continue;
        const [px, py] = pos(x, y);
        svg("rect", { x: px + 5, y: py + 5, width: CELL - 10, height: CELL - 10, rx: 9, class: "ax-start-slot" }, tiles);
      }
      svgText(tiles, CELL, -2 * CELL - 18, t("start square"), { class: "ax-note", "text-anchor": "middle" });
    }
  }

  // --- the dock: what to do now, the hand tile's rotations, the colours, the scores --------

  /** The prompt: what the viewer does now, step by step (CSS shows the step the picks have
   * reached), or what happens while nobody chooses (the start square, draws, AXIO!). */
  function drawPrompt(parent, view, ctx) {
    const obs = view.observation;
    const box = html("div", "ax-prompt" + (obs.extra_turn ? " ax-axio-note" : ""), parent);
    const status = statusWords(view);
    if (status.main) html("strong", "ax-prompt-main", box, status.main);
    if (ctx.hand && ctx.myTurn) {
      html("span", "ax-step ax-step-cell", box, t("Pick a free cell on the board for your tile."));
      html("span", "ax-step ax-step-rot", box, t("Pick a rotation: its points are shown under it."));
      html("span", "ax-step ax-step-colour", box, t("Name a colour for the empty corner."));
    } else if (ctx.hand) {
      html("span", "", box, t("Your tile for your next turn: point at a free cell to see what each rotation would score there."));
    } else if (!status.main && !obs.terminal) {
      html("span", "ax-dim", box, handlessWords(view));
    }
    if (status.sub) html("span", "ax-dim ax-prompt-sub", box, status.sub);
    if (!box.childNodes.length) box.remove();
  }

  /** Why the viewer holds no tile now. */
  function handlessWords(view) {
    const obs = view.observation;
    if (view.viewer === null || view.viewer === undefined) {
      return t("Each player's hand tile is private: a spectator sees none.");
    }
    if (obs.phase === "start square" || obs.phase === "first hands") {
      return t("Your first tile comes from your stack once the start square is laid.");
    }
    if (obs.phase === "extra draw" && obs.turn_of === view.viewer) {
      return t("AXIO! A tile is drawn for you from the general supply.");
    }
    return t("You hold no tile right now: you draw the next one from your stack when your turn is over.");
  }

  /** The hand tile in its four rotations (the placements' second key), each with what it
   * scores in the cell picked or pointed at, and the colours for an empty corner. */
  function drawHand(parent, view, ctx) {
    const hand = ctx.hand;
    if (!hand) return;
    const mine = ctx.myTurn;
    const box = html("div", "ax-hand", parent);
    const hasEmpty = hand.corners.includes(null);
    // Four cards in a row, one unit to a pixel at the dock's usual height.
    const W = 70, gap = 6, TS = 52, top = 4, LINE = 13;
    const width = 4 * W + 3 * gap, height = top + TS + 13 + 3 * LINE;
    const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "ax-rotations", role: "group",
      "aria-label": t("your hand tile in its four rotations") }, box);
    // Cells whose scores are previewed: the legal ones on your turn, else every free cell
    // (hovering one while waiting shows what each rotation would score there now).
    const previewCells = mine ? [...ctx.legalCells] : [...ctx.free.keys()];
    [0, 90, 180, 270].forEach((deg, i) => {
      const x = i * (W + gap);
      const corners = turned(hand.corners, deg);
      const g = svg("g", { class: "ax-rot", "data-key": "rot:" + deg,
        "aria-label": turnWord(deg) + ": " + tileWords(corners) }, s);
      svg("rect", { x, y: 0, width: W, height, rx: 8, class: "ax-rot-bg" }, g);
      svg("title", {}, g).textContent = turnWord(deg) + ": " + tileWords(corners);
      drawTile(g, x + (W - TS) / 2, top, TS, corners);
      const name = svgText(g, x + W / 2, top + TS + 11, deg === 0 ? t("0° as drawn") : deg + "°",
        { class: "ax-rot-label", "text-anchor": "middle" });
      if (name.textContent.length > 9) { // squeezed into the card rather than cut off
        name.setAttribute("textLength", String(W - 8));
        name.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
      // What this rotation scores in each cell: shown by CSS for the picked (or hovered) one.
      const rows = svg("g", { class: "ax-pts-layer" }, g);
      const y = top + TS + 12 + LINE;
      for (const k of previewCells) {
        const [cx, cy] = k.split(",").map(Number);
        const res = placementScore(ctx.cells, cx, cy, corners, ctx.myBoard);
        const pg = svg("g", { class: "ax-pts", "data-for": k }, rows);
        pointsRow(pg, x + W / 2, y, res, LINE);
      }
      const none = svgText(rows, x + W / 2, y, mine ? t("pick a cell") : previewCells.length ? t("point at a cell") : "",
        { class: "ax-pts-none", "text-anchor": "middle" });
      if (none.textContent.length > 12) { // kept inside the card
        none.setAttribute("textLength", String(W - 6));
        none.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    });
    if (hasEmpty) drawSwatches(box, mine);
  }

  /** The five colours to name for the hand tile's empty corner (the placements' third key). */
  function drawSwatches(parent, mine) {
    const sw = html("div", "ax-swatches", parent);
    html("div", "ax-swatch-title", sw, mine ? t("Colour for the empty corner (◌ under a rotation: what it adds):")
      : t("This tile has an empty corner: you name a colour for it when you place it."));
    const SW = 58.4;
    const ss = svg("svg", { viewBox: `0 0 ${5 * SW} 54`, class: "ax-swatch-svg", role: "group",
      "aria-label": t("colours to name for the empty corner") }, sw);
    COLOURS.forEach((c, i) => {
      const g = svg("g", { class: "ax-swatch", "data-key": "empty:" + c,
        "aria-label": t("name {colour} for the empty corner", { colour: colourWord(c) }) }, ss);
      svg("rect", { x: i * SW + 1, y: 1, width: SW - 4, height: 52, rx: 8, class: "ax-rot-bg" }, g);
      token(g, c, i * SW + SW / 2 - 1, 21, 14);
      svgText(g, i * SW + SW / 2 - 1, 48, colourWord(c), { class: "ax-rot-label", "text-anchor": "middle" });
    });
  }

  /** Every seat's five tracks on one line each: the scores a choice is weighed against. */
  function drawStrip(parent, view, mine) {
    const obs = view.observation;
    const box = html("div", "ax-strip" + (mine ? " ax-busy" : ""), parent);
    box.setAttribute("aria-label", obs.scores && obs.scores.length === 1 ? t("Score board (solo)") : t("Score boards"));
    (obs.scores || []).forEach((board, seat) => {
      const vals = boardValues(board);
      const low = Math.min(...vals);
      const row = html("div", "ax-srow" + (seat === obs.to_move ? " ax-mover" : "") +
        (seat === view.viewer ? " ax-me" : ""), box);
      html("span", "ax-turn-mark", row, seat === obs.to_move ? "▶" : "");
      html("span", "ax-sname", row, seatName(view, seat));
      const values = html("span", "ax-svals", row);
      COLOURS.forEach((c, i) => {
        const v = html("span", "ax-sval" + (vals[i] === low ? " ax-slow" : ""), values,
          GLYPH[c] + (vals[i] === TRACK_TOP ? "12★" : vals[i]));
        v.style.color = INK[c];
        v.setAttribute("aria-label", `${colourWord(c)} ${vals[i]}`);
        v.title = `${colourWord(c)} ${vals[i]}`;
      });
      html("span", "ax-chip ax-low", row, t("lowest {n}", { n: low })).title = t("the result is the lowest colour");
      if (!obs.terminal) {
        const stack = (obs.stacks || [])[seat];
        html("span", "ax-chip", row, t("stack {n}", { n: stack })).title =
          tn("{n} tile face down in the stack", "{n} tiles face down in the stack", stack);
      }
    });
  }

  /** "colour +n" for a tooltip, with "(reaches 12: AXIO!)" when it does. */
  function gainWords(c, n, axio) {
    return axio ? t("{colour} +{n} (reaches 12: AXIO!)", { colour: colourWord(c), n })
      : colourWord(c) + " +" + n;
  }

  /** "▲+2 ◆+1" chips, centred at (cx, y); AXIO! marks a colour reaching 12. */
  function pointsRow(parent, cx, y, res, LINE) {
    const chips = COLOURS.filter((c) => res.gain[c] > 0 || res.axio.includes(c));
    const parts = [];
    for (const c of chips) {
      const axio = res.axio.includes(c);
      parts.push({ c, n: res.gain[c], text: "+" + res.gain[c] + (axio ? "★" : ""), axio });
    }
    let line = 0;
    if (!parts.length) {
      svgText(parent, cx, y, "+0", { class: "ax-pts-zero", "text-anchor": "middle" });
      line = 1;
    } else {
      // Two chips on a line.
      const perLine = 2;
      for (let i = 0; i < parts.length; i += perLine) {
        const row = parts.slice(i, i + perLine);
        const widths = row.map((p) => 31 + (p.axio ? 7 : 0));
        let x = cx - widths.reduce((a, b) => a + b, 0) / 2;
        row.forEach((p, j) => {
          token(parent, p.c, x + 7, y + line * LINE - 4, 6);
          svgText(parent, x + 14, y + line * LINE, p.text, { class: "ax-pts-num" + (p.axio ? " ax-axio" : "") });
          x += widths[j];
        });
        line += 1;
      }
    }
    const named = res.empty ? COLOURS.map((c) => ({ c, n: res.empty[c].extra, axio: res.empty[c].axio }))
      .filter((e) => e.n > 0) : [];
    if (res.empty) {
      const label = svgText(parent, cx, y + line * LINE, named.length ? "◌" : "◌ +0",
        { class: "ax-pts-empty", "text-anchor": "middle" });
      let chars = 1;
      for (const e of named) {
        const span = svg("tspan", { fill: INK[e.c], "font-weight": 700 }, label);
        span.textContent = "\u2009" + GLYPH[e.c] + "+" + e.n + (e.axio ? "★" : "");
        chars += span.textContent.length;
      }
      if (chars * 6.2 > 66) { // three colours to name: squeeze the line into the card
        label.setAttribute("textLength", "66");
        label.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
      svg("title", {}, label).textContent = named.length
        ? t("naming a colour for the empty corner adds: {gains}",
          { gains: named.map((e) => gainWords(e.c, e.n, e.axio)).join(", ") })
        : t("the empty corner's circle has no colour to match");
    }
    svg("title", {}, parent).textContent = parts.length
      ? t("scores {gains}", { gains: parts.map((p) => gainWords(p.c, p.n, p.axio)).join(", ") })
      : t("scores nothing");
  }

  /** The CSS rules that show a picked (or hovered) cell's points under each rotation. */
  function previewStyle(root, cells) {
    const rules = [];
    for (const k of cells) {
      const sel = `.ax-cell[data-key="cell:${k}"]`;
      rules.push(`.board-area:has(${sel}.picked) .ax-pts[data-for="${k}"],` +
        `.board-area:not(:has(.ax-cell.picked)):has(${sel}:is(:hover,:focus-visible)) .ax-pts[data-for="${k}"]` +
        `{display:inline}`);
    }
    const style = document.createElement("style");
    style.textContent = rules.join("\n");
    root.appendChild(style);
  }

  // --- the score boards -------------------------------------------------------------------

  function drawBoards(side, view) {
    const obs = view.observation;
    const n = (obs.scores || []).length;
    const box = html("section", "ax-panel ax-boards", side);
    html("h3", "", box, n === 1 ? t("Score board (solo)") : t("Score boards"));
    const returns = obs.returns || (view.result && view.result.returns) || null;
    const best = returns ? Math.max(...returns) : null;
    (obs.scores || []).forEach((board, seat) => {
      const vals = boardValues(board);
      const low = Math.min(...vals);
      const b = html("div", "ax-board" + (seat === obs.to_move ? " ax-mover" : "") +
        (seat === view.viewer ? " ax-me" : ""), box);
      const h = html("div", "ax-board-head", b);
      html("span", "ax-turn-mark", h, seat === obs.to_move ? "▶" : "");
      html("span", "ax-name", h, seatName(view, seat));
      const chips = html("span", "ax-chips", h);
      if (obs.terminal && returns) {
        if (returns[seat] > 0 && returns[seat] === best && n > 1) {
          html("span", "ax-chip ax-win", chips, returns[seat] < 1 ? t("shared win") : t("victory"));
        }
      } else {
        const holding = (obs.holding || [])[seat];
        if (!holding && (obs.stacks || [])[seat] === 0 && seat !== obs.turn_of) {
          html("span", "ax-chip ax-off", chips, t("all placed"));
        }
      }
      const stack = (obs.stacks || [])[seat];
      const placed = (obs.placed_from_stack || [])[seat];
      if (!obs.terminal) {
        html("span", "ax-chip", chips, t("stack {n}", { n: stack })).title =
          tn("{n} tile face down in the stack", "{n} tiles face down in the stack", stack) + "; " +
          t("{placed} of {total} stack tiles placed", { placed, total: STACK });
      }
      const lowChip = html("span", "ax-chip ax-low", chips, t("lowest {n}", { n: low }));
      lowChip.title = t("the result is the lowest colour");
      const RH = 20, rows = COLOURS.length;
      const s = svg("svg", { viewBox: `0 0 372 ${rows * RH + 2}`, class: "ax-tracks", role: "img",
        "aria-label": `${seatName(view, seat)}: ` + COLOURS.map((c, i) => `${colourWord(c)} ${vals[i]}`).join(", ") +
          "; " + t("lowest {n}", { n: low }) }, b);
      COLOURS.forEach((c, i) => {
        const y = 1 + i * RH, v = vals[i];
        const isLow = v === low;
        if (isLow) svg("rect", { x: 0, y, width: 372, height: RH, rx: 5, class: "ax-low-band" }, s);
        token(s, c, 11, y + RH / 2, 8);
        for (let k = 1; k <= TRACK_TOP; k++) {
          const bx = 26 + (k - 1) * 25;
          const filled = k <= v;
          svg("rect", { x: bx, y: y + 2, width: 23, height: RH - 4, rx: 3,
            class: "ax-box" + (filled ? " ax-filled" : "") + (k === TRACK_TOP ? " ax-top" : ""),
            style: filled ? `fill:${TINT[c]};stroke:${INK[c]}` : null }, s);
          if (k === v) symbol(s, c, bx + 11.5, y + RH / 2, 5.5, INK[c]);
          else if (k === TRACK_TOP) svgText(s, bx + 11.5, y + RH / 2 + 3.5, "12", { class: "ax-box-num", "text-anchor": "middle" });
        }
        const val = svgText(s, 348, y + RH / 2 + 5, v === TRACK_TOP ? "12★" : String(v),
          { class: "ax-val" + (isLow ? " ax-val-low" : ""), "text-anchor": "middle", style: `fill:${INK[c]}` });
        if (v === TRACK_TOP) svg("title", {}, val).textContent = t("{colour} reached 12: AXIO!", { colour: colourWord(c) });
      });
    });
  }

  function drawSupply(parent, view) {
    const obs = view.observation;
    const box = html("div", "ax-supply", parent);
    const s = svg("svg", { viewBox: "0 0 44 40", class: "ax-supply-icon", "aria-hidden": "true" }, box);
    for (let i = 3; i >= 0; i--) tileBack(s, 4 + i * 3, 2 + i * 3, 26);
    const text = html("div", "ax-supply-text", box);
    html("strong", "", text, tn("General supply: {n} tile face down", "General supply: {n} tiles face down", obs.supply));
    text.appendChild(document.createTextNode(" · " + (obs.supply ? t("AXIO! extra turns draw from it")
      : t("empty: no more extra turns"))));
  }

  function drawLegend(parent) {
    const box = html("div", "ax-legend", parent);
    const s = svg("svg", { viewBox: "0 0 600 30", class: "ax-legend-svg", role: "img",
      "aria-label": t("legend: {symbols}, dotted arc: empty corner",
        { symbols: COLOURS.map((c) => `${colourWord(c)} ${shapeWord(c)}`).join(", ") }) }, box);
    COLOURS.forEach((c, i) => {
      token(s, c, 14 + i * 88, 15, 12);
      svgText(s, 31 + i * 88, 20, colourWord(c), { class: "ax-legend-word", style: `fill:${INK[c]}` });
    });
    const x = 14 + 5 * 88;
    svg("path", { d: `M${x - 10},4 A22,22 0 0 0 ${x + 12},26`, class: "ax-empty-arc" }, s);
    svgText(s, x + 18, 20, t("empty corner"), { class: "ax-legend-word", style: "fill:#6b6357" });
    html("div", "ax-dim ax-legend-note", box, t("The four corners around a grid point make one circle. A placed corner scores 1 point in its colour for every other symbol of that colour in its circle; an empty corner scores as the colour its player names."));
  }

  /** What the shell's turn line cannot say: AXIO! extra turns, the start square, draws;
   * {main, sub}, either empty. */
  function statusWords(view) {
    const obs = view.observation;
    const mover = obs.to_move;
    const pending = Number(obs.extra_turns_pending || 0);
    const me = (seat) => seat === view.viewer;
    const name = (seat) => seatName(view, seat);
    let main = "", sub = "";
    if (obs.terminal || view.status === "finished") return { main, sub };
    if (mover >= 0 && obs.extra_turn) {
      main = me(mover) ? t("AXIO! Your extra turn") : t("AXIO! Extra turn for {name}", { name: name(mover) });
      sub = t("The tile comes from the general supply; the own stack is drawn from afterwards.");
    } else if (mover < 0 && (obs.display || []).length < 4) {
      main = t("Laying out the start square ({n} of 4 tiles)", { n: (obs.display || []).length });
    } else if (mover < 0 && obs.phase === "extra draw") {
      main = me(obs.turn_of) ? t("AXIO! A tile is drawn from the general supply for you")
        : t("AXIO! A tile is drawn from the general supply for {name}", { name: name(obs.turn_of) });
    } else if (mover < 0) {
      main = me(obs.turn_of) ? t("A tile is drawn for you") : t("A tile is drawn for {name}", { name: name(obs.turn_of) });
    }
    if (pending) {
      const more = me(obs.turn_of)
        ? tn("You have {n} more extra turn to come.", "You have {n} more extra turns to come.", pending)
        : tn("{name} has {n} more extra turn to come.", "{name} has {n} more extra turns to come.", pending,
          { name: name(obs.turn_of) });
      sub += (sub ? " " : "") + more;
    }
    return { main, sub };
  }

  /** A part of the drawing the page moves out of the board's frame: `where` is "data-dock"
   * (kept in sight under the board) or "data-extra" (below it, to read). */
  function part(root, cls, where) {
    const box = html("div", "ax-root " + cls, root);
    box.setAttribute(where, "");
    return box;
  }

  // --- draw -------------------------------------------------------------------------------

  function draw(root, view) {
    const obs = view.observation;
    const wrap = html("div", "ax-root axio-board", root);
    if (!obs) {
      html("p", "ax-dim", wrap, t("Waiting for the game to start."));
      return;
    }
    const cells = cellMap(obs.display);
    const legal = (view.legal || []).filter((m) => m.move && m.move.kind === "place");
    const legalCells = new Set(legal.map((m) => m.move.x + "," + m.move.y));
    const viewerSeat = typeof view.viewer === "number" ? view.viewer : null;
    const ctx = {
      cells, legal, legalCells,
      free: obs.terminal ? new Map() : freeCells(cells),
      hand: obs.hand || null,
      myTurn: viewerSeat !== null && obs.to_move === viewerSeat && legal.length > 0,
      myBoard: viewerSeat !== null && obs.scores && obs.scores[viewerSeat]
        ? Object.fromEntries(COLOURS.map((c) => [c, Number(obs.scores[viewerSeat][c] || 0)]))
        : Object.fromEntries(COLOURS.map((c) => [c, 0])),
    };
    for (const k of legalCells) if (!ctx.free.has(k)) ctx.free.set(k, k.split(",").map(Number));
    // the frame: the display alone, as large as the screen allows
    drawDisplay(wrap, view, ctx);
    // the dock: what to do, the hand tile and its choices, everyone's tracks in short
    const dock = part(root, "ax-dock", "data-dock");
    drawPrompt(dock, view, ctx);
    const row = html("div", "ax-dock-row", dock);
    drawHand(row, view, ctx);
    drawStrip(row, view, ctx.myTurn);
    // below: the full score boards, the supply, the legend
    const extra = part(root, "ax-extra", "data-extra");
    drawBoards(extra, view);
    const notes = html("div", "ax-notes", extra);
    drawSupply(notes, view);
    html("div", "ax-foot ax-dim", notes, t("x grows East (right), y grows North (up)") + " · " +
      tn("{n} tile on the display", "{n} tiles on the display", cells.size));
    drawLegend(notes);
    if (ctx.hand) previewStyle(wrap, ctx.myTurn ? legalCells : ctx.free.keys());
  }

  // --- keys, their words, wrong clicks and the last move ------------------------------------

  function keys(move) {
    if (!move || move.kind !== "place") return [move && move.kind ? String(move.kind) : "?"];
    const path = [cellKey(move.x, move.y), "rot:" + move.rotation];
    if (move.empty) path.push("empty:" + move.empty);
    return path;
  }

  const CELL_KEY = /^cell:(-?\d{1,4}),(-?\d{1,4})$/;
  const ROT_KEY = /^rot:(0|90|180|270)$/;
  const EMPTY_KEY = /^empty:([a-z]{1,6})$/;

  /** A pick key in words, for the shell's "Picked: ..." line. */
  function label(key) {
    let m = CELL_KEY.exec(key || "");
    if (m) return t("cell ({x},{y})", { x: Number(m[1]), y: Number(m[2]) });
    // a rotation as its card says it: short on the dock's "Picked: ..." line
    m = ROT_KEY.exec(key || "");
    if (m) return Number(m[1]) ? m[1] + "°" : t("0° as drawn");
    m = EMPTY_KEY.exec(key || "");
    if (m && COLOURS.includes(m[1])) return t("{colour} for the empty corner", { colour: colourWord(m[1]) });
    return null;
  }

  /** The placement (in the engine's notation) meant by a click on `key`, which is not
   * pickable now, after the keys of `path`; null when no placement is meant (no tile to
   * place). A cell alone means its first rotation and, for a tile with an empty corner, the
   * first colour: the engine then explains what is wrong with the cell itself (taken, or not
   * touching the display along an edge), or that the placement is legal after all. A
   * rotation or a colour picked before its cell means that choice in the cell picked, else in
   * the first cell it may go to: the engine says it is legal, to be picked on the board. A
   * tile with an empty corner always names a colour, so that no reason quotes the notation. */
  function attempt(path, key, view) {
    const obs = view && view.observation;
    if (!obs || obs.terminal || typeof key !== "string") return null;
    const picked = path || [];
    const pickedCell = CELL_KEY.exec(picked[0] || "");
    const pickedRot = picked.map((k) => ROT_KEY.exec(k)).find(Boolean) || null;
    const ownCell = CELL_KEY.exec(key), ownRot = ROT_KEY.exec(key), named = EMPTY_KEY.exec(key);
    if (!ownCell && !ownRot && !named) return null;  // no key of a placement
    const cell = ownCell || pickedCell || firstCell(view);
    if (!cell) return null;
    const rot = ownCell ? null : ownRot || pickedRot;
    const hand = obs.hand;
    let colour = named && COLOURS.includes(named[1]) ? named[1] : null;
    if (!colour && hand && (hand.corners || []).includes(null)) colour = COLOURS[0];
    return `place at (${Number(cell[1])},${Number(cell[2])}) rot ${rot ? rot[1] : 0}` +
      (colour ? ` empty=${colour}` : "");
  }

  /** The first cell a placement may go to now, as a CELL_KEY match; null when none. */
  function firstCell(view) {
    const move = (view.legal || []).map((m) => m.move).find((m) => m && m.kind === "place");
    return move ? CELL_KEY.exec(cellKey(move.x, move.y)) : null;
  }

  /** The board elements of a move: the cell of a placed tile (a draw shows nothing). */
  function lastMoveKeys(move, view) {
    if (!move) return [];
    if (move.kind === "place") return [cellKey(move.x, move.y)];
    if (move.kind === "start") {
      const obs = (view && view.observation) || {};
      const tile = (obs.display || []).find((d) => d.tile === move.tile);
      return tile ? [cellKey(tile.x, tile.y)] : [];
    }
    return [];
  }

  // --- the end of the game ----------------------------------------------------------------

  function ordinalColour(i) {
    return [t("the lowest colour"), t("the second-lowest colour"), t("the third-lowest colour"),
      t("the fourth-lowest colour"), t("the highest colour")][i];
  }

  /** "a and b", "a, b and c" ... of HTML parts (up to the four seats of a game). */
  function listHtml(parts) {
    const [a, b, c, d] = parts;
    if (parts.length === 2) return fillHtml(t("{a} and {b}"), { a, b });
    if (parts.length === 3) return fillHtml(t("{a}, {b} and {c}"), { a, b, c });
    if (parts.length === 4) return fillHtml(t("{a}, {b}, {c} and {d}"), { a, b, c, d });
    return parts.join(", ");
  }

  function compareKeys(a, b) {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  }

  function result(view) {
    const obs = view.observation || {};
    const boards = (obs.scores || []).map(boardValues);
    const n = boards.length;
    if (!n) return "<p>" + esc(t("The game is over.")) + "</p>";
    const sorted = boards.map((v) => v.slice().sort((a, b) => a - b));
    const returns = (view.result && view.result.returns) || obs.returns || [];
    const name = (s) => "<strong>" + esc(seatName(view, s)) + "</strong>";
    const strong = (v) => "<strong>" + esc(v) + "</strong>";
    const lines = [];
    if (n === 1) {
      lines.push(fillHtml(t("Solo game: {name} ends with {low} in the lowest colour (the result to beat next time)."),
        { name: name(0), low: strong(sorted[0][0]) }));
    } else {
      let best = sorted[0];
      for (const k of sorted) if (compareKeys(k, best) > 0) best = k;
      let winners = sorted.map((k, s) => s).filter((s) => compareKeys(sorted[s], best) === 0);
      if (returns.length === n) {
        const top = Math.max(...returns);
        const byReturns = returns.map((r, s) => s).filter((s) => returns[s] === top && top > 0);
        if (byReturns.length) winners = byReturns;
      }
      const lowOf = (s) => sorted[s][0];
      if (winners.length === 1) {
        lines.push(fillHtml(t("{name} wins with {low} in the lowest colour."),
          { name: name(winners[0]), low: strong(lowOf(winners[0])) }));
      } else if (winners.length === n) {
        lines.push(fillHtml(t("Shared victory of everyone: all tracks sorted from low to high are equal ({values})."),
          { values: esc(sorted[winners[0]].join(", ")) }));
      } else {
        const names = listHtml(winners.map(name));
        lines.push(fillHtml(t("Shared victory of {names}: equal in all five colours (sorted from low to high: {values})."),
          { names, values: esc(sorted[winners[0]].join(", ")) }));
      }
      // Tie-breaks: seats level with the winner on the lowest colour lost on a later colour.
      const w = winners[0];
      const level = sorted.map((k, s) => s).filter((s) => !winners.includes(s) && lowOf(s) === lowOf(w));
      if (level.length) {
        const why = level.map((s) => {
          let i = 0;
          while (i < 5 && sorted[s][i] === sorted[w][i]) i++;
          const same = i > 1 ? " " + esc(t("(equal up to {which})", { which: ordinalColour(i - 1) })) : "";
          const them = winners.length > 1 ? esc(t("the winners")) : esc(seatName(view, w));
          return fillHtml(t("{name} also had {low} as the lowest colour; the tie-break compares the next colours from low to high, and {which} decided it{same}: {a} for {them} against {b}."),
            { name: name(s), low: esc(lowOf(w)), which: strong(ordinalColour(i)), same,
              a: esc(sorted[w][i]), them, b: esc(sorted[s][i]) });
        });
        lines.push(fillHtml(t("Tie-break: {why}"), { why: why.join(" ") }));
      } else if (winners.length === 1) {
        const others = sorted.map((k, s) => s).filter((s) => s !== w);
        const runner = Math.max(...others.map(lowOf));
        lines.push(fillHtml(t("No tie-break was needed: the next best lowest colour was {n}."), { n: esc(runner) }));
      }
    }
    // The table: each seat's tracks, the lowest marked (narrow: it sits in the side panel).
    let table = "<table class=\"axio-result-table\"><thead><tr><th>" + esc(t("player")) + "</th>" +
      COLOURS.map((c) => `<th style="color:${INK[c]}" title="${esc(colourWord(c))}" aria-label="${esc(colourWord(c))}">${GLYPH[c]}</th>`).join("") +
      "<th>" + esc(t("result")) + "</th></tr></thead><tbody>";
    boards.forEach((vals, s) => {
      const low = Math.min(...vals);
      const outcome = n === 1 ? "" : returns[s] === 1 ? t("wins") : returns[s] > 0 ? t("shares") : "";
      const order = t("from low to high: {values}", { values: sorted[s].join(", ") });
      table += "<tr title=\"" + esc(order) + "\">" +
        `<td>${esc(seatName(view, s))}</td>` +
        vals.map((v, i) => `<td class="${v === low ? "ax-r-low" : ""}" aria-label="${esc(colourWord(COLOURS[i]))} ${v}">` +
          `${v === low ? "<strong>" + v + "</strong>" : v}${v === TRACK_TOP ? "★" : ""}</td>`).join("") +
        `<td><strong>${low}</strong>${outcome ? " " + esc(outcome) : ""}</td></tr>`;
    });
    table += "</tbody></table>";
    return "<div class=\"axio-result\">" + lines.map((line) => "<p>" + line + "</p>").join("") + table +
      "<p class=\"ax-dim\">" + esc(t("A player's result is their lowest colour (shaded); ties compare the next-lowest, up to all five. ★: the track reached 12 (AXIO!).")) +
      "</p></div>";
  }

  T.register("axio", { draw, keys, label, attempt, lastMoveKeys, result });
})();
