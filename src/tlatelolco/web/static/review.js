// The review of a finished game: a Review button, the server's "queued / n % done" while it
// is computed, then each seat's share of victory over the game as an SVG chart (a point per
// decision: a click moves the replay there), the summary per seat, mistakes and blunders
// marked in the chart and the move log, and at a flagged move the better move, shown on the
// board on request (the replay's `then=` view, marked as an alternative).
//
//   TlatelolcoReview.mount(section, {gameId, replay, api, goTo})
//       api(method, url) -> the JSON answer (errors thrown); goTo(step, then) moves the replay
//   TlatelolcoReview.drawn(view, {finished})  // after every drawing of the page
"use strict";
(() => {
  const T = window.Tlatelolco;
  const t = (m, p) => T.t(m, p);
  const POLL = 1000;  // ms between two looks at a review being computed
  const W = 640, H = 220, LEFT = 40, RIGHT = 12, TOP = 10, BOTTOM = 26;  // the chart's frame
  const MARKS = {mistake: "?", blunder: "??"};

  let options = {};
  let box = null;        // the #review section
  let view = null;       // the page's latest view
  let finished = false;  // the game is over (reviews are of finished games)
  let answer = null;     // the server's latest answer: {state, percent, position, review, …}
  let open = false;      // the panel is shown (Review was clicked)
  let started = false;   // the state of a review asked for earlier was looked up
  let polling = null;    // the timer of the next look
  let byStep = new Map();  // step -> the review's decision there

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(label, onClick, cls) {
    const b = element("button", cls === undefined ? "secondary" : cls, label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  const percent = (share) => `${Math.round(100 * share)}%`;
  const signed = (share) => `${share > 0 ? "+" : share < 0 ? "−" : ""}${Math.abs(Math.round(100 * share))}%`;
  const name = (seat) => (view ? T.seatName(view, seat) : t("Seat {n}", {n: seat + 1}));
  const colour = (seat) => T.SEAT_COLOURS[seat % T.SEAT_COLOURS.length];
  const labelText = (label) => (label === "blunder" ? t("blunder") : t("mistake"));

  function mount(container, opts) {
    options = Object.assign({replay: false}, opts || {});
    box = container;
    box.replaceChildren();
    box.hidden = true;
  }

  // --- the page drew a view: the button, the panel's cursor, the log's marks ----------------
  function drawn(v, info) {
    view = v;
    finished = !!(info && info.finished);
    if (!box) return;
    if (!finished) { box.hidden = true; return; }
    box.hidden = false;
    if (!options.replay) { drawLink(); return; }
    if (!started) start();
    drawPanel();
    markAlternative();
  }

  // the game's own page: the review lives on the replay page
  function drawLink() {
    if (box.querySelector("#review-link")) return;
    const a = element("a", "button", t("Review"));
    a.id = "review-link";
    a.href = `/games/${encodeURIComponent(options.gameId)}/replay?review=1`;
    a.title = t("Each seat's share of victory move by move, the mistakes and the better moves");
    box.replaceChildren(a);
  }

  // a review asked for before (by this page or another) goes on showing its progress
  async function start() {
    started = true;
    if (new URLSearchParams(location.search).get("review") === "1") { await ask(); return; }
    try { answer = await options.api("GET", reviewUrl()); } catch (err) { answer = null; }
    if (answer && (answer.state === "queued" || answer.state === "running")) {
      open = true;
      poll();
    }
    drawPanel();
  }

  function reviewUrl() {
    return `/api/games/${encodeURIComponent(options.gameId)}/review?lang=${T.lang}`;
  }

  async function ask() {
    open = true;
    answer = {state: "asking"};
    drawPanel();
    try {
      answer = await options.api("POST", reviewUrl());
    } catch (err) {
      answer = {state: "refused", error: err.message};
    }
    if (answer.state === "queued" || answer.state === "running") poll();
    drawPanel();
  }

  function poll() {
    clearTimeout(polling);
    polling = setTimeout(async () => {
      try { answer = await options.api("GET", reviewUrl()); } catch (err) { /* next time */ }
      polling = null;
      if (answer.state === "queued" || answer.state === "running") poll();
      drawPanel();
    }, POLL);
  }

  // --- the panel ----------------------------------------------------------------------------
  let drawnReview = null;  // the review the panel's chart was drawn for
  function drawPanel() {
    if (!box) return;
    const state = answer ? answer.state : "none";
    if (!open || state === "none") {
      drawnReview = null;
      const b = button(t("Review"), ask, "");
      b.id = "review-button";
      b.title = t("Each seat's share of victory move by move, the mistakes and the better moves");
      box.replaceChildren(heading(), b);
      return;
    }
    if (state !== "done") {
      drawnReview = null;
      const status = element("p", "review-status note");
      status.id = "review-status";
      status.setAttribute("role", "status");
      if (state === "asking") status.textContent = t("Asking the server for a review…");
      else if (state === "queued") status.textContent = t("Review queued (position {n})", {n: answer.position});
      else if (state === "running") status.textContent = t("Review: {p} % done", {p: answer.percent});
      else status.textContent = answer.error || t("The review failed.");
      const parts = [heading(), status];
      if (state === "running" || state === "queued") {
        const bar = element("progress", "review-progress");
        bar.max = 100;
        bar.value = answer.percent || 0;
        bar.setAttribute("aria-label", t("Review progress"));
        parts.push(bar);
      }
      if (state === "failed" || state === "refused") {
        status.classList.add("problem");
        const again = button(t("Try again"), ask);
        again.id = "review-button";
        parts.push(again);
      }
      box.replaceChildren(...parts);
      return;
    }
    const review = answer.review;
    if (drawnReview !== review) {
      drawnReview = review;
      byStep = new Map(review.decisions.map((d) => [d.step, d]));
      // the table scrolls in its own box on a narrow screen: the page never gets wider
      const table = element("div", "review-table");
      table.append(summary(review));
      box.replaceChildren(heading(), legend(review), chart(review), element("div", "review-detail"),
                          table, flagged(review));
      box.querySelector(".review-detail").id = "review-detail";
    }
    moveCursor();
    drawDetail();
    markLog();
  }

  function heading() {
    const h = element("h2", "review-heading", t("Review"));
    if (answer && answer.review) {
      const s = answer.review.settings;
      h.title = s.iterations ? t("{n} search iterations per decision", {n: s.iterations})
                             : t("{s} s of search per decision", {s: s.time});
    }
    return h;
  }

  function legend(review) {
    const list = element("ul", "review-legend");
    review.players.forEach((player, seat) => {
      const li = element("li", `seat-${seat}`);
      const swatch = element("span", "swatch");
      swatch.style.background = colour(seat);
      li.append(swatch, element("span", "", name(seat)));
      list.append(li);
    });
    const marks = element("li", "marks", t("? mistake · ?? blunder"));
    list.append(marks);
    return list;
  }

  // every seat's share of victory before each decision (what the position was worth to it
  // with the best move found), and the result at the end; x is the step of the game
  function chart(review) {
    const length = Math.max(1, review.length);
    const x = (step) => LEFT + (W - LEFT - RIGHT) * step / length;
    const y = (share) => TOP + (H - TOP - BOTTOM) * (1 - share);
    const svg = T.svg("svg", {viewBox: `0 0 ${W} ${H}`, class: "review-chart", id: "review-chart",
                              role: "group"});
    svg.setAttribute("aria-label", t("Each seat's share of victory over the game"));
    for (const share of [0, 0.25, 0.5, 0.75, 1]) {
      T.svg("line", {x1: LEFT, x2: W - RIGHT, y1: y(share), y2: y(share), class: "grid"}, svg);
      T.text(svg, LEFT - 6, y(share) + 4, percent(share), {class: "axis", "text-anchor": "end"});
    }
    const ticks = 5;
    for (let i = 0; i <= ticks; i++) {
      const step = Math.round(length * i / ticks);
      T.text(svg, x(step), H - BOTTOM + 16, String(step), {class: "axis", "text-anchor": "middle"});
    }
    const seats = review.players.length;
    const points = review.decisions.map((d) => ({step: d.step, shares: d.before, decision: d}));
    points.push({step: review.length, shares: review.returns, decision: null});
    // a click anywhere on the chart goes to the nearest point's step
    const area = T.svg("rect", {x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM,
                                class: "area"}, svg);
    area.addEventListener("click", (event) => {
      const matrix = svg.getScreenCTM();
      if (!matrix) return;
      const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      const step = (at.x - LEFT) / (W - LEFT - RIGHT) * length;
      let nearest = points[0];
      for (const p of points) if (Math.abs(p.step - step) < Math.abs(nearest.step - step)) nearest = p;
      choose(nearest.step);
    });
    T.svg("line", {x1: x(0), x2: x(0), y1: TOP, y2: H - BOTTOM, class: "cursor"}, svg);
    // points as large as their spacing allows, each taking the clicks up to half way to the next
    const spacing = (W - LEFT - RIGHT) / length;
    const radius = Math.min(2.6, Math.max(1, 0.45 * spacing));
    svg.style.setProperty("--hit", `${Math.max(0, Math.min(6, spacing - 2 * radius)).toFixed(2)}px`);
    for (let seat = 0; seat < seats; seat++) {
      const line = T.svg("polyline", {
        points: points.map((p) => `${x(p.step).toFixed(1)},${y(p.shares[seat]).toFixed(1)}`).join(" "),
        class: `seat-line seat-${seat}`, stroke: colour(seat), "data-seat": seat}, svg);
      line.setAttribute("aria-hidden", "true");
    }
    for (let seat = 0; seat < seats; seat++) {
      for (const p of points) {
        const dot = T.svg("circle", {cx: x(p.step), cy: y(p.shares[seat]), r: radius,
                                     class: `point seat-${seat}`, fill: colour(seat),
                                     "data-step": p.step, "data-seat": seat}, svg);
        const title = T.svg("title", {}, dot);
        title.textContent = pointTitle(p, seat);
        dot.addEventListener("click", () => choose(p.step));
      }
    }
    // the flagged moves, on their mover's line, over the points
    for (const d of review.decisions) {
      if (!d.label) continue;
      const g = T.svg("g", {class: `flag ${d.label}`, tabindex: 0, role: "button",
                            "data-step": d.step, "data-seat": d.seat}, svg);
      g.setAttribute("aria-label", flagTitle(d));
      T.svg("circle", {cx: x(d.step), cy: y(d.before[d.seat]), r: 5.5, stroke: colour(d.seat)}, g);
      T.text(g, x(d.step), y(d.before[d.seat]) - 8, MARKS[d.label], {"text-anchor": "middle"});
      const title = T.svg("title", {}, g);
      title.textContent = flagTitle(d);
      g.addEventListener("click", () => choose(d.step));
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(d.step); }
      });
    }
    return svg;
  }

  function pointTitle(p, seat) {
    if (!p.decision) return t("{name}: {p} at the end", {name: name(seat), p: percent(p.shares[seat])});
    return t("Step {k} · {name}: {p}", {k: p.step, name: name(seat), p: percent(p.shares[seat])});
  }

  function flagTitle(d) {
    return t("Step {k}: {label} by {name}, who gave away {loss}", {
      k: d.step, label: labelText(d.label), name: name(d.seat), loss: percent(d.loss)});
  }

  // a point or a flagged move: the replay goes to the position where that move was chosen
  function choose(step) {
    options.goTo(step);
  }

  function moveCursor() {
    const svg = box.querySelector("#review-chart");
    if (!svg || !view || !answer || !answer.review) return;
    const length = Math.max(1, answer.review.length);
    const cx = LEFT + (W - LEFT - RIGHT) * view.version / length;
    const cursor = svg.querySelector(".cursor");
    cursor.setAttribute("x1", cx);
    cursor.setAttribute("x2", cx);
    for (const old of svg.querySelectorAll(".point.current")) old.classList.remove("current");
    for (const dot of svg.querySelectorAll(`.point[data-step="${view.version}"]`)) dot.classList.add("current");
  }

  // the decision at the replay's step (or the one chosen): what was played, what was worth more
  function drawDetail() {
    const detail = box.querySelector("#review-detail");
    if (!detail || !view) return;
    detail.replaceChildren();
    const step = view.alternative ? view.alternative.step : view.version;
    const d = byStep.get(step);
    if (!d) {
      detail.append(element("p", "note", t("Click a point of the chart or a flagged move to see that decision.")));
      return;
    }
    const head = element("p", "review-move");
    head.append(element("strong", "", t("Step {k} · {name} to move", {k: d.step, name: name(d.seat)})));
    if (d.label) {
      const tag = element("span", `review-label ${d.label}`, `${MARKS[d.label]} ${labelText(d.label)}`);
      head.append(" ", tag);
    }
    const played = element("p", "review-played", t("Played: {move}", {move: d.played_words || d.played_text}));
    const shares = element("p", "note", t("{name}'s share of victory: {before} with the best move found, {after} after the move played", {
      name: name(d.seat), before: percent(d.before[d.seat]), after: percent(d.after[d.seat])}));
    detail.append(head, played, shares);
    const other = d.best !== null && d.best !== undefined && d.best !== d.played;
    if (other && !clearlyBetter(d)) {
      detail.append(element("p", "note review-no-better", t("No move was clearly better: the search cannot tell the best move it found from the move played.")));
    } else if (other) {
      const better = element("p", "review-better");
      better.id = "review-better";
      better.append(element("span", "", t("Better: {move}", {move: d.best_words || d.best_text})), " ");
      if (view.alternative && view.alternative.action === d.best) {
        const back = button(t("Back to the move played"), () => options.goTo(d.step), "secondary small");
        back.id = "review-back";
        better.append(back);
      } else {
        const show = button(t("Show it on the board"), () => options.goTo(d.step, d.best), "small");
        show.id = "review-show-better";
        better.append(show);
      }
      detail.append(better);
    } else if (d.best === null && d.seat !== view.viewer) {
      detail.append(element("p", "note", t("The moves this seat could have made stay hidden: they would tell what it kept secret.")));
    }
  }

  // The search's numbers differ from one run to the next, so a move is told as better only
  // when it is ahead of the move played by more than that noise. The review carries no noise
  // figure; its mistake threshold is set above the noise measured for each game
  // (review/thresholds.py), so a better move is shown exactly where a move is flagged.
  function clearlyBetter(d) {
    const review = answer && answer.review;
    const noise = review && review.labels ? review.labels.mistake : 0;
    return d.before[d.seat] - d.after[d.seat] > noise;
  }

  function summary(review) {
    const table = element("table", "review-summary");
    table.id = "review-summary";
    const head = element("tr");
    const columns = [
      [t("Player"), ""], [t("Mistakes"), ""], [t("Blunders"), ""],
      [t("Share lost"), t("The share of victory this seat's moves gave away, summed over the game")],
      [t("Luck"), t("What the draws did to this seat's share of victory, summed over the game")]];
    for (const [text, title] of columns) {
      const th = element("th", "", text);
      if (title) th.title = title;
      head.append(th);
    }
    const body = element("tbody");
    for (const row of review.summary) {
      const tr = element("tr", `seat-${row.seat}`);
      const who = element("td", "who");
      const swatch = element("span", "swatch");
      swatch.style.background = colour(row.seat);
      who.append(swatch, name(row.seat));
      tr.append(who, element("td", "", String(row.mistakes)), element("td", "", String(row.blunders)),
                element("td", "", percent(row.lost)), element("td", "", signed(row.luck)));
      body.append(tr);
    }
    const thead = element("thead");
    thead.append(head);
    table.append(thead, body);
    return table;
  }

  function flagged(review) {
    const wrap = element("div", "review-flags");
    const marked = review.decisions.filter((d) => d.label);
    if (!marked.length) {
      wrap.append(element("p", "note", t("No move was flagged: none gave away more than {p} of a game.", {
        p: percent(review.labels.mistake)})));
      return wrap;
    }
    wrap.append(element("h3", "", t("Mistakes and blunders")));
    const list = element("ol");
    for (const d of marked) {
      const li = element("li", d.label);
      const go = button(t("Step {k}", {k: d.step}), () => choose(d.step), "link-button");
      go.dataset.step = String(d.step);
      // the words name the player; the bare notation does not
      const what = d.played_words && d.played_words !== d.played_text ? d.played_words
        : `${name(d.seat)}: ${d.played_text}`;
      li.append(go, ` ${MARKS[d.label]} ${what} (−${percent(d.loss)})`);
      list.append(li);
    }
    wrap.append(list);
    return wrap;
  }

  // --- the move log and the board -----------------------------------------------------------
  function markLog() {
    if (!answer || !answer.review) return;
    const items = document.querySelectorAll("#log li[data-step]");
    const last = view.log[view.log.length - 1];
    for (const li of items) {
      if (last && last.alternative && li === items[items.length - 1]) {
        if (li.classList.contains("alternative")) continue;
        for (const other of document.querySelectorAll("#log li.current")) {
          other.classList.remove("current");
          other.removeAttribute("aria-current");
        }
        li.classList.add("alternative", "current");
        li.setAttribute("aria-current", "step");
        li.prepend(element("span", "review-mark alternative", t("alternative")), " ");
        li.scrollIntoView({block: "nearest"});
        continue;
      }
      const d = byStep.get(Number(li.dataset.step));
      if (!d || !d.label || li.querySelector(".review-mark")) continue;
      li.classList.add(`review-${d.label}`);
      const mark = element("span", `review-mark ${d.label}`, MARKS[d.label]);
      mark.title = t("{label}: gave away {loss} of a game", {label: labelText(d.label), loss: percent(d.loss)});
      li.append(" ", mark);
    }
  }

  function markAlternative() {
    const board = document.getElementById("board");
    const note = document.getElementById("alternative");
    const alt = view.alternative;
    if (board) board.classList.toggle("alternative", !!alt);
    if (!note) return;
    note.hidden = !alt;
    note.replaceChildren();
    if (!alt) return;
    note.append(element("strong", "", t("Not played in the game:")), " ",
                t("the board after {move} at step {k}, instead of {played}.", {
                  move: alt.words || alt.text, k: alt.step, played: alt.played_words || alt.played_text}), " ");
    const back = button(t("Back to the game"), () => options.goTo(alt.step), "secondary small");
    back.id = "alternative-back";
    note.append(back);
    const r = T.renderers[view.game];
    const entry = view.log[view.log.length - 1];
    if (!r || !entry || !entry.move) return;
    let keys = [];
    try { keys = (r.lastMoveKeys || r.keys)(entry.move, view) || []; } catch (err) { keys = []; }
    // the board, the dock and the extras below: the page moves a renderer's parts there
    const areas = ["board-content", "dock-game", "extras"].map((id) => document.getElementById(id))
      .filter(Boolean);
    for (const key of keys) {
      for (const area of areas) {
        for (const el of area.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) {
          el.classList.add("alternative-move");
        }
      }
    }
  }

  window.TlatelolcoReview = {mount, drawn, get answer() { return answer; }};
})();
