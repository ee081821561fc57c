// Web Push for the account settings: subscribe this browser to the logged-in account's
// reminders, or stop. The page shows the words; this only does the work and says what went
// wrong with a code:
//
//   TlatelolcoPush.supported()      -> true when this browser can (service workers, Push API,
//                                      notifications, a secure page: https or localhost)
//   await TlatelolcoPush.state()    -> "unsupported" | "denied" | "subscribed" | "off"
//   await TlatelolcoPush.subscribe()   -> true, or throws Error whose .code is "unsupported",
//                                      "denied" (notifications blocked), "login_needed" or
//                                      "failed" (.message says more)
//   await TlatelolcoPush.unsubscribe() -> true (also when there was nothing to stop)
//
// Pushes are sent only while the account's notify_push setting is on (POST
// /api/account/settings), which the page sets along with subscribing.
"use strict";

window.TlatelolcoPush = (() => {
  const WORKER = "/push-worker.js";

  function failure(code, message) {
    const err = new Error(message || code);
    err.code = code;
    return err;
  }

  function supported() {
    return "serviceWorker" in navigator && "PushManager" in window
      && "Notification" in window && window.isSecureContext === true;
  }

  // base64url (the server's key) to the bytes PushManager.subscribe wants
  function bytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/")
      + "=".repeat((4 - (base64url.length % 4)) % 4);
    const raw = atob(base64);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  async function send(method, body) {
    const response = await fetch("/api/account/push", {
      method, credentials: "same-origin", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body),
    });
    if (response.status === 401) throw failure("login_needed");
    if (!response.ok) {
      let message = `HTTP ${response.status}`;
      try { message = (await response.json()).message || message; } catch (err) { /* kept */ }
      throw failure("failed", message);
    }
    return response.json();
  }

  async function registration() {
    return navigator.serviceWorker.register(WORKER, {scope: "/"});
  }

  async function current() {
    const found = await navigator.serviceWorker.getRegistration("/");
    return found ? found.pushManager.getSubscription() : null;
  }

  async function state() {
    if (!supported()) return "unsupported";
    if (Notification.permission === "denied") return "denied";
    return (await current()) ? "subscribed" : "off";
  }

  async function subscribe() {
    if (!supported()) throw failure("unsupported");
    const permission = await Notification.requestPermission();
    if (permission !== "granted") throw failure("denied");
    const key = await fetch("/api/push/key").then((r) => (r.ok ? r.json() : null));
    if (!key || typeof key.public_key !== "string") throw failure("failed", "no server key");
    const reg = await registration();
    await navigator.serviceWorker.ready;
    let sub = await reg.pushManager.getSubscription();
    const wanted = bytes(key.public_key);
    if (sub && sub.options && sub.options.applicationServerKey) {
      const had = new Uint8Array(sub.options.applicationServerKey);
      if (had.length !== wanted.length || had.some((b, i) => b !== wanted[i])) {
        await sub.unsubscribe(); // made for another server key: it would be refused
        sub = null;
      }
    }
    if (!sub) {
      try {
        sub = await reg.pushManager.subscribe({userVisibleOnly: true,
                                               applicationServerKey: wanted});
      } catch (err) {
        throw failure("failed", String(err && err.message || err));
      }
    }
    const json = sub.toJSON();
    await send("POST", {endpoint: json.endpoint, keys: {p256dh: json.keys.p256dh,
                                                        auth: json.keys.auth}});
    return true;
  }

  async function unsubscribe() {
    if (!supported()) return true;
    const sub = await current();
    if (!sub) return true;
    try {
      await send("DELETE", {endpoint: sub.endpoint});
    } finally {
      await sub.unsubscribe();
    }
    return true;
  }

  return {supported, state, subscribe, unsubscribe};
})();
