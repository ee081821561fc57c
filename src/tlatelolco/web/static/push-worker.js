// The Web Push service worker, served at /push-worker.js (scope "/"). The server's reminders
// arrive encrypted for this browser's subscription; each is shown as a notification (one per
// game: a newer reminder replaces the older), and a click opens the game's page.
"use strict";

const TEXT_MAX = 300; // characters of a title or body shown

function text(value, fallback) {
  return typeof value === "string" && value ? value.slice(0, TEXT_MAX) : fallback;
}

// A page of this site only: a push names its game by URL, and the worker opens nothing else.
function ownPage(link) {
  try {
    const url = new URL(typeof link === "string" ? link : "/", self.location.origin);
    return new URL(url.pathname + url.search, self.location.origin).href;
  } catch (err) {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = {body: event.data ? event.data.text() : ""};
  }
  const options = {
    body: text(data.body, ""),
    icon: "/static/favicon.svg",
    data: {url: ownPage(data.url)},
  };
  if (typeof data.tag === "string" && data.tag) {
    options.tag = data.tag.slice(0, 64);
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(text(data.title, "Tlatelolco"), options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = ownPage(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({type: "window", includeUncontrolled: true});
    for (const client of windows) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});

// The push service renewed the subscription: hand the new one to the server (the login
// cookie goes along, as with any same-origin request).
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil((async () => {
    const old = event.oldSubscription;
    let fresh = event.newSubscription;
    if (!fresh && old && old.options) {
      fresh = await self.registration.pushManager.subscribe(old.options);
    }
    if (!fresh) return;
    const json = fresh.toJSON();
    await fetch("/api/account/push", {
      method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({endpoint: json.endpoint, keys: json.keys}),
    });
    if (old && old.endpoint !== fresh.endpoint) {
      await fetch("/api/account/push", {
        method: "DELETE", credentials: "same-origin",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({endpoint: old.endpoint}),
      });
    }
  })());
});
