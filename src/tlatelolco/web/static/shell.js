// The registry the per-game renderers add themselves to, and small helpers they share.
"use strict";
window.Tlatelolco = {
  renderers: {},
  register(name, renderer) { this.renderers[name] = renderer; },
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
