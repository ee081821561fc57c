// The seat credentials this browser holds, shared by the lobby and the game page.
//
// One localStorage key, "tlatelolco:seats": {GAME_ID: {token, seat, game, at, seats?}}, where
// `token` and `seat` are the credential the game page uses by default, `at` the last use (ms)
// and `seats` ({"0": token0, "2": token2}) every seat this browser holds in that game when it
// holds more than one (hot seat in a game with perfect information). The 50 most recently
// used games are kept. A credential never goes into an address: links carry only the game id.
// `attached` ({token: account id}) notes the credentials already offered to an account.
"use strict";
(function () {
  const KEY = "tlatelolco:seats";
  const KEEP = 50;
  let memory = {};  // when localStorage cannot be used (disabled, full): this page only

  function load() {
    try {
      const raw = localStorage.getItem(KEY);
      const data = raw ? JSON.parse(raw) : {};
      return data && typeof data === "object" && !Array.isArray(data) ? data : {};
    } catch (err) { return Object.assign({}, memory); }
  }

  function save(all) {
    const ids = Object.keys(all).filter((id) => all[id] && typeof all[id].token === "string");
    ids.sort((a, b) => (all[b].at || 0) - (all[a].at || 0));
    const kept = {};
    for (const id of ids.slice(0, KEEP)) kept[id] = all[id];
    memory = kept;
    try { localStorage.setItem(KEY, JSON.stringify(kept)); } catch (err) { /* memory only */ }
    return kept;
  }

  // the seats of an entry as {seat: token} (an entry of one seat has no `seats` map)
  function seatsOf(entry) {
    const out = {};
    if (!entry) return out;
    if (entry.seats && typeof entry.seats === "object") {
      for (const [s, t] of Object.entries(entry.seats)) if (typeof t === "string") out[s] = t;
    }
    if (entry.seat !== null && entry.seat !== undefined && typeof entry.token === "string") {
      out[String(entry.seat)] = entry.token;
    }
    return out;
  }

  function normalise(entry) {
    const seats = seatsOf(entry);
    const keys = Object.keys(seats);
    if (keys.length > 1) entry.seats = seats;
    else delete entry.seats;
    return entry;
  }

  const Seats = {
    KEY,
    all() { return load(); },
    // game ids, most recently used first
    ids() {
      const all = load();
      return Object.keys(all).sort((a, b) => (all[b].at || 0) - (all[a].at || 0));
    },
    get(gameId) { return load()[gameId] || null; },
    seatsOf,
    // the token for `seat` in `gameId` (null when this browser holds none)
    tokenFor(gameId, seat) {
      const entry = load()[gameId];
      if (!entry) return null;
      if (seat === null || seat === undefined) return entry.token || null;
      return seatsOf(entry)[String(seat)] || null;
    },
    // remember a credential: it becomes the game's default one; other seats held are kept
    put(gameId, token, seat, game) {
      const all = load();
      const old = all[gameId];
      const seats = seatsOf(old);
      // the same token seen under another seat number (an unknown seat filled in): one entry
      for (const [s, t] of Object.entries(seats)) if (t === token) delete seats[s];
      const entry = {token, seat: seat === undefined ? null : seat,
                     game: game || (old && old.game) || null, at: Date.now()};
      if (entry.seat !== null) seats[String(entry.seat)] = token;
      if (Object.keys(seats).length > 1) entry.seats = seats;
      all[gameId] = normalise(entry);
      save(all);
      return all[gameId];
    },
    // several seats at once (a game created with more than one seat taken): the first is the
    // default; `tokens` is {seat: token}
    putMany(gameId, tokens, game) {
      const seats = Object.keys(tokens).map(Number).sort((a, b) => a - b);
      if (!seats.length) return null;
      const all = load();
      const entry = {token: tokens[seats[0]], seat: seats[0], game: game || null,
                     at: Date.now()};
      if (seats.length > 1) {
        entry.seats = {};
        for (const s of seats) entry.seats[String(s)] = tokens[s];
      }
      all[gameId] = entry;
      save(all);
      return entry;
    },
    // mark a game as just used (it stays among the kept ones); fill in what was unknown
    touch(gameId, token, seat, game) {
      const all = load();
      const entry = all[gameId];
      if (!entry) return;
      entry.at = Date.now();
      if (game && !entry.game) entry.game = game;
      if (token && entry.token === token && (entry.seat === null || entry.seat === undefined) &&
          seat !== null && seat !== undefined) {
        entry.seat = seat;
        normalise(entry);
      }
      save(all);
    },
    // the credentials not yet offered to account `userId` (account.js attaches them to it
    // after a login): [{gameId, token}], most recently used games first
    unattached(userId) {
      const all = load();
      const found = [];
      for (const gameId of this.ids()) {
        const entry = all[gameId];
        const tokens = new Set(Object.values(seatsOf(entry)));
        if (typeof entry.token === "string") tokens.add(entry.token);
        const offered = entry.attached && typeof entry.attached === "object" ? entry.attached : {};
        for (const token of tokens) if (offered[token] !== userId) found.push({gameId, token});
      }
      return found;
    },
    // note that a credential was offered to account `userId` (taken or refused: not again)
    markAttached(gameId, token, userId) {
      const all = load();
      const entry = all[gameId];
      if (!entry) return;
      const held = new Set(Object.values(seatsOf(entry)).concat([entry.token]));
      const offered = {};
      for (const [t, id] of Object.entries(entry.attached || {})) if (held.has(t)) offered[t] = id;
      offered[token] = userId;
      entry.attached = offered;
      save(all);
    },
    // forget one credential (a token), or the whole game when no token is given
    drop(gameId, token) {
      const all = load();
      const entry = all[gameId];
      if (!entry) return;
      if (!token) { delete all[gameId]; save(all); return; }
      const seats = seatsOf(entry);
      for (const [s, t] of Object.entries(seats)) if (t === token) delete seats[s];
      const left = Object.keys(seats).map(Number).sort((a, b) => a - b);
      if (entry.token === token) {
        if (!left.length) { delete all[gameId]; save(all); return; }
        entry.token = seats[left[0]];
        entry.seat = left[0];
      }
      entry.seats = seats;
      all[gameId] = normalise(entry);
      save(all);
    },
  };
  window.TlatelolcoSeats = Seats;
})();
