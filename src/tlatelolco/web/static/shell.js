// The registry the per-game renderers add themselves to, and small helpers they share.
"use strict";
window.Tlatelolco = {
  renderers: {},
  // Seat colours, in the same order on every board; none of them is a gem's or a good's colour.
  SEAT_COLOURS: ["#e08a1e", "#7d63b8", "#c2577f", "#2f9c95", "#8c6d46", "#5b7fb5", "#8f9a2a"],
  // An SVG element with attributes (null and undefined ones left out), added to `parent`.
  svg(tag, attrs, parent) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) node.setAttribute(k, String(v));
    }
    if (parent) parent.appendChild(node);
    return node;
  },
  // An SVG <text> at (x, y) holding `content`.
  text(parent, x, y, content, attrs) {
    const node = this.svg("text", Object.assign({x, y}, attrs || {}), parent);
    node.textContent = content;
    return node;
  },
  register(name, renderer) { this.renderers[name] = renderer; },
  // Copy a read-only field's text (an invite or spectator link), saying so on `button`.
  async copy(input, button) {
    input.select();
    let done = false;
    try { await navigator.clipboard.writeText(input.value); done = true; } catch (err) {
      try { done = document.execCommand("copy"); } catch (err2) { done = false; }
    }
    button.textContent = done ? "Copied" : "Select and copy";
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  },
  escape(text) {
    return String(text).replace(/[&<>"']/g, (c) => (
      {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));
  },
  seatName(view, seat) {
    const player = (view.players || [])[seat];
    const name = player ? player.name : `Seat ${seat}`;
    return seat === view.viewer ? `${name} (you)` : name;
  },
};
