/* Axio in the browser: the display of square tiles, the viewer's hand tile with its four
 * rotations, and every seat's score board (rules digest AX-1 ... AX-7).
 *
 * Drawn only from the view the shell passes (the engine's observation plus the legal moves).
 * Cells are (x, y) with x growing East and y growing North, as the engine numbers them; a
 * tile's corners are listed clockwise from the top-left.
 *
 * Key path of a placement: ["cell:X,Y", "rot:R"] and, for a tile with an empty corner, a
 * third key "empty:COLOUR" (the colour named for that corner). Free cells are drawn on the
 * display, the rotations as four previews of the hand tile, the colours as swatches.
 * Which rotation scores what is previewed with CSS only (:has on the shell's pick/picked
 * classes), so no event handler of our own is attached.
 */
(function () {
  "use strict";

  const COLOURS = ["red", "green", "blue", "orange", "purple"];
  const TRACK_TOP = 12; // AX-1: a colour track runs 0..12
  const STACK = 12;
  // Symbols on the black circles (bright) and on the light page (darker), plus a shape per
  // colour so that the board reads without colour vision.
  const BRIGHT = { red: "#ff5247", green: "#35c46a", blue: "#3f8cff", orange: "#ffa41b", purple: "#c77dff" };
  const INK = { red: "#c62828", green: "#1f8a44", blue: "#1f5fc8", orange: "#c86a00", purple: "#8a3fc4" };
  const TINT = { red: "#f8d2cf", green: "#cdebd6", blue: "#d3e1fa", orange: "#fbe0bd", purple: "#e8d6f6" };
  const SHAPE = { red: "disc", green: "triangle", blue: "diamond", orange: "star", purple: "cross" };
  const GLYPH = { red: "●", green: "▲", blue: "◆", orange: "★", purple: "✚" };
  const CORNER_NAMES = ["top-left", "top-right", "bottom-right", "bottom-left"];
  const CELL = 100; // display units per cell
  const CIRCLE = 0.41; // radius of a corner's quarter circle, in cells
  // Grid points of a cell's corners, clockwise from the top-left (y grows North).
  const CORNER_POINTS = [[0, 1], [1, 1], [1, 0], [0, 0]];
  // Around grid point (px, py): [cell dx, cell dy, which corner of that cell touches it].
  const AROUND_POINT = [[-1, 0, 2], [0, 0, 3], [-1, -1, 1], [0, -1, 0]];
  const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1]];

  // The display as it was before its latest change, to mark the latest placements (the
  // observation does not say which tile was placed last).
  const memory = { gameId: null, version: -1, cells: null, prev: null };

  // --- small helpers ----------------------------------------------------------------------

  const T = window.Tlatelolco;  // the shell's shared helpers
  const svg = T.svg.bind(T), svgText = T.text.bind(T);

  function html(tag, cls, parent, content) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    if (parent) parent.appendChild(node);
    return node;
  }

  const esc = (text) => T.escape(text), seatName = (view, seat) => T.seatName(view, seat);

  function turned(corners, degrees) {
    const r = ((Math.round(degrees / 90) % 4) + 4) % 4;
    return r ? corners.slice(4 - r).concat(corners.slice(0, 4 - r)) : corners.slice();
  }

  function cornerWord(c) {
    return c ? c : "empty";
  }

  function tileWords(corners) {
    return corners.map((c, i) => CORNER_NAMES[i] + " " + cornerWord(c)).join(", ");
  }

  function plural(n, word, many) {
    return n + " " + (n === 1 ? word : (many || word + "s"));
  }

  function boardValues(board) {
    return COLOURS.map((c) => Number((board || {})[c] || 0));
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

  // --- the rules the previews need (AX-3) -------------------------------------------------

  function cellMap(display) {
    const map = new Map();
    for (const t of display || []) map.set(t.x + "," + t.y, t.corners);
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
      const t = cells.get(px + dx + "," + (py + dy));
      if (t) out.push(t[corner]);
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
    const { cells, free, legalCells, fresh, hand } = ctx;
    const pos = (x, y) => [x * CELL, -(y + 1) * CELL]; // top-left of cell (x, y)
    let xs = [], ys = [];
    for (const k of cells.keys()) { const [x, y] = k.split(",").map(Number); xs.push(x); ys.push(y); }
    for (const [x, y] of free.values()) { xs.push(x); ys.push(y); }
    if (!xs.length) { xs = [0, 1]; ys = [0, 1]; }
    let x0 = Math.min(...xs), x1 = Math.max(...xs) + 1, y0 = Math.min(...ys), y1 = Math.max(...ys) + 1;
    // At least 8 x 6 cells, so that an early display does not fill the screen with 3 tiles.
    const widen = (lo, hi, n) => { const d = Math.max(0, n - (hi - lo)); return [lo - Math.floor(d / 2), hi + Math.ceil(d / 2)]; };
    [x0, x1] = widen(x0, x1, 8);
    [y0, y1] = widen(y0, y1, 6);
    const pad = 0.45 * CELL, label = 0.35 * CELL;
    const vx = x0 * CELL - pad - label, vy = -y1 * CELL - pad - label;
    const vw = (x1 - x0) * CELL + 2 * pad + label, vh = (y1 - y0) * CELL + 2 * pad + label;
    const s = svg("svg", { viewBox: `${vx} ${vy} ${vw} ${vh}`, class: "ax-display", role: "group",
      "aria-label": `Axio display: ${plural(cells.size, "tile")} placed` +
        (free.size ? `, ${plural(free.size, "free cell")} next to it` : "") });
    main.appendChild(s);
    svg("rect", { x: vx, y: vy, width: vw, height: vh, rx: 18, class: "ax-table" }, s);
    // A faint grid of the cells, and the coordinates along the top and the left side.
    const grid = svg("g", { class: "ax-grid" }, s);
    for (let x = x0; x <= x1; x++) svg("line", { x1: x * CELL, y1: -y1 * CELL, x2: x * CELL, y2: -y0 * CELL }, grid);
    for (let y = y0; y <= y1; y++) svg("line", { x1: x0 * CELL, y1: -y * CELL, x2: x1 * CELL, y2: -y * CELL }, grid);
    const axis = svg("g", { class: "ax-axis" }, s);
    for (let x = x0; x < x1; x++) svgText(axis, (x + 0.5) * CELL, -y1 * CELL - pad * 0.35, "x " + x, { "text-anchor": "middle" });
    for (let y = y0; y < y1; y++) svgText(axis, x0 * CELL - pad * 0.35, -(y + 0.5) * CELL + 6, "y " + y, { "text-anchor": "end" });

    // Free cells: the placements' first key.
    const freeLayer = svg("g", { class: "ax-free-layer" }, s);
    const sortedFree = [...free.entries()].sort((a, b) => b[1][1] - a[1][1] || a[1][0] - b[1][0]);
    for (const [k, [x, y]] of sortedFree) {
      const [px, py] = pos(x, y);
      const legal = legalCells.has(k);
      const g = svg("g", { class: "ax-cell", "data-key": "cell:" + k,
        "aria-label": `free cell (${k}): place your tile here` }, freeLayer);
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

    // Placed tiles.
    const tiles = svg("g", { class: "ax-tiles" }, s);
    for (const t of view.observation.display || []) {
      const [px, py] = pos(t.x, t.y);
      const isFresh = fresh.has(t.x + "," + t.y);
      const g = drawTile(tiles, px, py, CELL, t.corners, isFresh ? "ax-fresh" : "");
      const title = svg("title", {}, g);
      title.textContent = `(${t.x},${t.y}) tile ${t.tile}, rot ${t.rotation}: ${tileWords(t.corners)}` +
        (isFresh ? " (just placed)" : "");
    }
    // The latest placements get a ring on top, so neighbours do not hide it.
    for (const k of fresh) {
      if (!cells.has(k)) continue;
      const [x, y] = k.split(",").map(Number);
      const [px, py] = pos(x, y);
      svg("rect", { x: px + 1, y: py + 1, width: CELL - 2, height: CELL - 2, rx: 9, class: "ax-fresh-ring" }, tiles);
    }
    if (cells.size < 4) {
      for (const [x, y] of [[0, 1], [1, 1], [1, 0], [0, 0]]) {
        if (cells.has(x + "," + y)) continue;
        const [px, py] = pos(x, y);
        svg("rect", { x: px + 5, y: py + 5, width: CELL - 10, height: CELL - 10, rx: 9, class: "ax-start-slot" }, tiles);
      }
      svgText(tiles, CELL, -2 * CELL - 18, "start square", { class: "ax-note", "text-anchor": "middle" });
    }
  }

  // --- the hand and the rotation picker ---------------------------------------------------

  function drawHand(side, view, ctx) {
    const obs = view.observation;
    const hand = ctx.hand;
    const box = html("section", "ax-panel ax-hand", side);
    const head = html("h3", "", box);
    if (!hand) {
      if (obs.terminal) {
        box.remove();
        return;
      }
      if (view.viewer === null || view.viewer === undefined) {
        head.textContent = "Hand tiles";
        html("p", "ax-dim", box, "Each player's hand tile is private (AX-6): a spectator sees none.");
      } else if (obs.phase === "start square" || obs.phase === "first hands") {
        head.textContent = "Your hand";
        html("p", "ax-dim", box, "Your first tile comes from your stack once the start square is laid.");
      } else if (obs.phase === "extra draw" && obs.turn_of === view.viewer) {
        head.textContent = "Your hand";
        html("p", "ax-dim", box, "AXIO! A tile is drawn for you from the general supply.");
      } else {
        head.textContent = "Your hand";
        html("p", "ax-dim", box, "You hold no tile right now: you draw the next one from your stack " +
          "when your turn is over.");
      }
      return;
    }
    const mine = ctx.myTurn;
    head.textContent = obs.extra_turn && mine ? "Your tile: AXIO! extra turn" : "Your tile";
    const hasEmpty = hand.corners.includes(null);
    const hint = html("p", "ax-hint", box);
    if (mine) {
      hint.textContent = "Pick a free cell, then a rotation" +
        (hasEmpty ? ", then a colour for the empty corner" : "") +
        ". Under each rotation: its points in the cell picked or pointed at" +
        (hasEmpty ? " (◌: what the named colour adds)." : ".");
    } else {
      hint.textContent = "Turned clockwise. Point at a free cell to see what each rotation " +
        "would score there now" + (hasEmpty ? " (◌: what the named colour adds)." : ".");
    }
    // Sized for a column about 300 px wide, one unit to a pixel.
    const W = 70, gap = 6, T = 56, top = 5, LINE = 14;
    const width = 4 * W + 3 * gap, height = top + T + 18 + 3 * LINE + 4;
    const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "ax-rotations", role: "group",
      "aria-label": "your hand tile in its four rotations" }, box);
    // Cells whose scores are previewed: the legal ones on your turn, else every free cell
    // (hovering one while waiting shows what each rotation would score there now).
    const previewCells = mine ? [...ctx.legalCells] : [...ctx.free.keys()];
    [0, 90, 180, 270].forEach((deg, i) => {
      const x = i * (W + gap);
      const corners = turned(hand.corners, deg);
      const g = svg("g", { class: "ax-rot", "data-key": "rot:" + deg,
        "aria-label": `rotation ${deg} degrees clockwise: ${tileWords(corners)}` }, s);
      svg("rect", { x, y: 0, width: W, height, rx: 8, class: "ax-rot-bg" }, g);
      drawTile(g, x + (W - T) / 2, top, T, corners);
      svgText(g, x + W / 2, top + T + 14, deg === 0 ? "0° drawn" : deg + "°", { class: "ax-rot-label", "text-anchor": "middle" });
      // What this rotation scores in each legal cell: shown by CSS for the picked (or
      // hovered) cell.
      const rows = svg("g", { class: "ax-pts-layer" }, g);
      for (const k of previewCells) {
        const [cx, cy] = k.split(",").map(Number);
        const res = placementScore(ctx.cells, cx, cy, corners, ctx.myBoard);
        const pg = svg("g", { class: "ax-pts", "data-for": k }, rows);
        pointsRow(pg, x + W / 2, top + T + 18 + LINE, res, LINE);
      }
      svgText(rows, x + W / 2, top + T + 18 + LINE, mine ? "pick a cell" : previewCells.length ? "point at a cell" : "",
        { class: "ax-pts-none", "text-anchor": "middle" });
    });
    if (hasEmpty) {
      const sw = html("div", "ax-swatches", box);
      html("div", "ax-swatch-title", sw, mine ? "Name a colour for the empty corner (it scores as that colour):"
        : "This tile has an empty corner: you name a colour for it when you place it.");
      const SW = 58.4;
      const ss = svg("svg", { viewBox: `0 0 ${5 * SW} 54`, class: "ax-swatch-svg", role: "group",
        "aria-label": "colours to name for the empty corner" }, sw);
      COLOURS.forEach((c, i) => {
        const g = svg("g", { class: "ax-swatch", "data-key": "empty:" + c,
          "aria-label": `name ${c} for the empty corner` }, ss);
        svg("rect", { x: i * SW + 1, y: 1, width: SW - 4, height: 52, rx: 8, class: "ax-rot-bg" }, g);
        token(g, c, i * SW + SW / 2 - 1, 21, 14);
        svgText(g, i * SW + SW / 2 - 1, 48, c, { class: "ax-rot-label", "text-anchor": "middle" });
      });
    }
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
      const t = svgText(parent, cx, y + line * LINE, named.length ? "◌" : "◌ +0",
        { class: "ax-pts-empty", "text-anchor": "middle" });
      let chars = 1;
      for (const e of named) {
        const g = svg("tspan", { fill: INK[e.c], "font-weight": 700 }, t);
        g.textContent = "\u2009" + GLYPH[e.c] + "+" + e.n + (e.axio ? "★" : "");
        chars += g.textContent.length;
      }
      if (chars * 6.2 > 66) { // three colours to name: squeeze the line into the card
        t.setAttribute("textLength", "66");
        t.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
      const title = svg("title", {}, t);
      title.textContent = named.length ? "naming a colour for the empty corner adds: " +
        named.map((e) => e.c + " +" + e.n + (e.axio ? " (reaches 12: AXIO!)" : "")).join(", ")
        : "the empty corner's circle has no colour to match";
    }
    const title = svg("title", {}, parent);
    title.textContent = "scores " + (parts.length ? parts.map((p) => p.c + " +" + p.n +
      (p.axio ? " (reaches 12: AXIO!)" : "")).join(", ") : "nothing");
  }

  /** The CSS rules that show a picked (or hovered) cell's points under each rotation. */
  function previewStyle(root, cells) {
    const rules = [];
    for (const k of cells) {
      const sel = `[data-key="cell:${k}"]`;
      rules.push(`.axio-board:has(${sel}.picked) .ax-pts[data-for="${k}"],` +
        `.axio-board:not(:has(.ax-cell.picked)):has(${sel}:is(:hover,:focus-visible)) .ax-pts[data-for="${k}"]` +
        `{display:inline}`);
    }
    const style = document.createElement("style");
    style.textContent = rules.join("\n");
    root.appendChild(style);
  }

  // --- the score boards -------------------------------------------------------------------

  function drawBoards(side, view, ctx) {
    const obs = view.observation;
    const n = (obs.scores || []).length;
    const box = html("section", "ax-panel ax-boards", side);
    html("h3", "", box, n === 1 ? "Score board (solo)" : "Score boards");
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
          html("span", "ax-chip ax-win", chips, returns[seat] < 1 ? "shared win" : "winner");
        }
      } else {
        const holding = (obs.holding || [])[seat];
        if (!holding && (obs.stacks || [])[seat] === 0 && seat !== obs.turn_of) {
          html("span", "ax-chip ax-off", chips, "all placed");
        }
      }
      const stack = (obs.stacks || [])[seat];
      const placed = (obs.placed_from_stack || [])[seat];
      if (!obs.terminal) {
        html("span", "ax-chip", chips, `stack ${stack}`).title =
          `${plural(stack, "tile")} face down in the stack; ${placed}/${STACK} stack tiles placed`;
      }
      const lowChip = html("span", "ax-chip ax-low", chips, "lowest " + low);
      lowChip.title = "the result is the lowest colour (AX-5)";
      const RH = 20, rows = COLOURS.length;
      const s = svg("svg", { viewBox: `0 0 372 ${rows * RH + 2}`, class: "ax-tracks", role: "img",
        "aria-label": `${seatName(view, seat)}: ` + COLOURS.map((c, i) => `${c} ${vals[i]}`).join(", ") +
          `; lowest ${low}` }, b);
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
        if (v === TRACK_TOP) svg("title", {}, val).textContent = `${c} reached 12: AXIO!`;
      });
    });
  }

  function drawSupply(parent, view) {
    const obs = view.observation;
    const box = html("div", "ax-supply", parent);
    const s = svg("svg", { viewBox: "0 0 44 40", class: "ax-supply-icon", "aria-hidden": "true" }, box);
    for (let i = 3; i >= 0; i--) tileBack(s, 4 + i * 3, 2 + i * 3, 26);
    const t = html("div", "ax-supply-text", box);
    html("strong", "", t, `General supply: ${plural(obs.supply, "tile")} face down`);
    t.appendChild(document.createTextNode(obs.supply ? " · AXIO! extra turns draw from it"
      : " · empty: no more extra turns"));
  }

  function drawLegend(parent) {
    const box = html("div", "ax-legend", parent);
    const s = svg("svg", { viewBox: "0 0 600 30", class: "ax-legend-svg", role: "img",
      "aria-label": "legend: " + COLOURS.map((c) => `${c} ${SHAPE[c]}`).join(", ") +
        ", dotted arc: empty corner" }, box);
    COLOURS.forEach((c, i) => {
      token(s, c, 14 + i * 88, 15, 12);
      svgText(s, 31 + i * 88, 20, c, { class: "ax-legend-word", style: `fill:${INK[c]}` });
    });
    const x = 14 + 5 * 88;
    svg("path", { d: `M${x - 10},4 A22,22 0 0 0 ${x + 12},26`, class: "ax-empty-arc" }, s);
    svgText(s, x + 18, 20, "empty corner", { class: "ax-legend-word", style: "fill:#6b6357" });
    html("div", "ax-dim", box, "The four corners around a grid point make one circle. A placed corner " +
      "scores 1 point in its colour for every other symbol of that colour in its circle; an empty " +
      "corner scores as the colour its player names.");
  }

  /** What the shell's turn line cannot say: AXIO! extra turns, the start square, draws. */
  function statusLine(parent, view) {
    const obs = view.observation;
    const mover = obs.to_move;
    const pending = Number(obs.extra_turns_pending || 0);
    const me = (seat) => seat === view.viewer;
    let main = "", sub = "";
    if (obs.terminal || view.status === "finished") return;
    if (mover >= 0 && obs.extra_turn) {
      main = me(mover) ? "AXIO! Your extra turn" : `AXIO! Extra turn for ${seatName(view, mover)}`;
      sub = "The tile comes from the general supply; the own stack is drawn from afterwards.";
    } else if (mover < 0 && (obs.display || []).length < 4) {
      main = `Laying out the start square (${(obs.display || []).length} of 4 tiles)`;
    } else if (mover < 0 && obs.phase === "extra draw") {
      main = `AXIO! A tile is drawn from the general supply for ${me(obs.turn_of) ? "you" : seatName(view, obs.turn_of)}`;
    } else if (mover < 0) {
      main = `A tile is drawn for ${me(obs.turn_of) ? "you" : seatName(view, obs.turn_of)}`;
    }
    if (pending) {
      sub += (sub ? " " : "") + `${me(obs.turn_of) ? "You have" : seatName(view, obs.turn_of) + " has"} ` +
        `${plural(pending, "more extra turn")} to come.`;
    }
    if (!main && !sub) return;
    const box = html("div", "ax-status" + (obs.extra_turn || pending ? " ax-axio-note" : ""), parent);
    if (main) html("div", "ax-status-main", box, main);
    if (sub) html("div", "ax-dim", box, sub);
  }

  // --- draw -------------------------------------------------------------------------------

  /** The tiles placed since the display last changed (kept across redraws and draws). */
  function freshCells(view, cells) {
    const id = view.game_id || "";
    const version = Number(view.version || 0);
    const now = new Set(cells.keys());
    if (memory.gameId !== id || version < memory.version || !memory.cells) {
      memory.cells = now;
      memory.prev = null;
    } else if (now.size !== memory.cells.size) { // the display only grows
      memory.prev = memory.cells;
      memory.cells = now;
    }
    memory.gameId = id;
    memory.version = version;
    const fresh = new Set();
    const prev = memory.prev;
    if (prev && prev.size >= 4) for (const k of now) if (!prev.has(k)) fresh.add(k);
    return fresh;
  }

  function draw(root, view) {
    const obs = view.observation;
    const wrap = html("div", "axio-board", root);
    if (!obs) {
      html("p", "ax-dim", wrap, "Waiting for the game to start.");
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
      fresh: freshCells(view, cells),
      myTurn: viewerSeat !== null && obs.to_move === viewerSeat && legal.length > 0,
      myBoard: viewerSeat !== null && obs.scores && obs.scores[viewerSeat]
        ? Object.fromEntries(COLOURS.map((c) => [c, Number(obs.scores[viewerSeat][c] || 0)]))
        : Object.fromEntries(COLOURS.map((c) => [c, 0])),
    };
    for (const k of legalCells) if (!ctx.free.has(k)) ctx.free.set(k, k.split(",").map(Number));
    const main = html("div", "ax-main", wrap);
    const side = html("div", "ax-side", wrap);
    statusLine(main, view);
    drawDisplay(main, view, ctx);
    const foot = html("div", "ax-foot ax-dim", main);
    foot.textContent = `x grows East (right), y grows North (up) · ${plural(cells.size, "tile")} on the display` +
      (ctx.fresh.size ? ` · gold ring: the ${ctx.fresh.size === 1 ? "newest tile" : "newest tiles"}` : "");
    drawSupply(main, view);
    drawLegend(main);
    drawHand(side, view, ctx);
    drawBoards(side, view, ctx);
    if (ctx.hand) previewStyle(wrap, ctx.myTurn ? legalCells : ctx.free.keys());
  }

  // --- keys -------------------------------------------------------------------------------

  function keys(move) {
    if (!move || move.kind !== "place") return [move && move.kind ? String(move.kind) : "?"];
    const path = ["cell:" + move.x + "," + move.y, "rot:" + move.rotation];
    if (move.empty) path.push("empty:" + move.empty);
    return path;
  }

  // --- the end of the game (AX-5) ---------------------------------------------------------

  const ORDINAL = ["lowest", "second-lowest", "third-lowest", "fourth-lowest", "highest"];

  function compareKeys(a, b) {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  }

  function result(view) {
    const obs = view.observation || {};
    const boards = (obs.scores || []).map(boardValues);
    const n = boards.length;
    if (!n) return "<p>The game is over.</p>";
    const sorted = boards.map((v) => v.slice().sort((a, b) => a - b));
    const returns = (view.result && view.result.returns) || obs.returns || [];
    const name = (s) => "<strong>" + esc(seatName(view, s)) + "</strong>";
    const lines = [];
    if (n === 1) {
      lines.push(`<p>Solo game: ${name(0)} ends with <strong>${sorted[0][0]}</strong> in the lowest colour ` +
        `(the result to beat next time).</p>`);
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
        lines.push(`<p>${name(winners[0])} wins with <strong>${lowOf(winners[0])}</strong> in the lowest colour.</p>`);
      } else if (winners.length === n) {
        lines.push(`<p>Shared victory of everyone: all tracks sorted from low to high are equal ` +
          `(${sorted[winners[0]].join(", ")}).</p>`);
      } else {
        lines.push(`<p>Shared victory of ${winners.map(name).join(" and ")}: equal in all five colours ` +
          `(sorted from low to high: ${sorted[winners[0]].join(", ")}).</p>`);
      }
      // Tie-breaks: seats level with the winner on the lowest colour lost on a later colour.
      const w = winners[0];
      const level = sorted.map((k, s) => s).filter((s) => !winners.includes(s) && lowOf(s) === lowOf(w));
      if (level.length) {
        const why = level.map((s) => {
          let i = 0;
          while (i < 5 && sorted[s][i] === sorted[w][i]) i++;
          const same = i > 1 ? ` (equal up to the ${ORDINAL[i - 1]})` : "";
          const them = winners.length > 1 ? "the winners" : esc(seatName(view, w));
          return `${name(s)} also had ${lowOf(w)} as the lowest colour; the tie-break compares the next ` +
            `colours from low to high, and the <strong>${ORDINAL[i]}</strong> colour decided it${same}: ` +
            `${sorted[w][i]} for ${them} against ${sorted[s][i]}.`;
        });
        lines.push("<p>Tie-break (AX-5): " + why.join(" ") + "</p>");
      } else if (winners.length === 1) {
        const others = sorted.map((k, s) => s).filter((s) => s !== w);
        const runner = Math.max(...others.map(lowOf));
        lines.push(`<p>No tie-break was needed: the next best lowest colour was ${runner}.</p>`);
      }
    }
    // The table: each seat's tracks, the lowest marked (narrow: it sits in the side panel).
    let table = "<table class=\"axio-result-table\"><thead><tr><th>player</th>" +
      COLOURS.map((c) => `<th style="color:${INK[c]}" title="${c}" aria-label="${c}">${GLYPH[c]}</th>`).join("") +
      "<th>result</th></tr></thead><tbody>";
    boards.forEach((vals, s) => {
      const low = Math.min(...vals);
      const outcome = n === 1 ? "" : returns[s] === 1 ? "wins" : returns[s] > 0 ? "shares" : "";
      table += `<tr title="from low to high: ${sorted[s].join(", ")}"><td>${esc(seatName(view, s))}</td>` +
        vals.map((v, i) => `<td class="${v === low ? "ax-r-low" : ""}" aria-label="${COLOURS[i]} ${v}">` +
          `${v === low ? "<strong>" + v + "</strong>" : v}${v === TRACK_TOP ? "★" : ""}</td>`).join("") +
        `<td><strong>${low}</strong>${outcome ? " " + outcome : ""}</td></tr>`;
    });
    table += "</tbody></table>";
    return "<div class=\"axio-result\">" + lines.join("") + table +
      "<p class=\"ax-dim\">A player's result is their lowest colour (shaded); ties compare the next-lowest, " +
      "up to all five. ★: the track reached 12 (AXIO!).</p></div>";
  }

  window.Tlatelolco.register("axio", { draw, keys, result });
})();
