// The account bar of the lobby and the game page: log in and sign up (a dialog each), log out,
// the account's name linking to its profile, its settings (e-mail and whether it is verified,
// language, reminders by e-mail and by push on this device, the password), and "your turn in
// N games", also as the tab title's "(N) " prefix, refreshed every 30 s and whenever the page
// is shown again. After a login the guest seats this browser holds (seats.js) are attached to
// the account. The lobby says whether the link verifying an address worked (?verified=1|0,
// where the link sends the browser), then takes it out of the address.
//
// Accounts are optional: a guest sees two buttons and plays as before. The account's data
// comes only from the server's answers to this browser's session; nothing of it is stored
// here. Pages listen to the "tlatelolco:account" event (detail: {user, games, yourTurn}).
"use strict";
(function () {
  const T = window.Tlatelolco;
  const el = T.el;
  const api = T.api.bind(T);
  const S = window.TlatelolcoSeats;
  const REFRESH = 30000;  // ms between two looks at the account's games
  const NAME = /^[\p{L}\p{N} _.-]{2,24}$/u;  // as the server checks it
  const PREFIX = /^\(\d+\) /;  // the tab title's count
  const NAME_RULE = () => t("A name has 2 to 24 letters, digits, single spaces or the signs " +
                            "_ - and . (no space at either end).");

  // --- English and Spanish: this script's own copy of the catalogue, so that it never waits
  // for, nor disturbs, the page's own loading of it
  let messages = {};
  let plurals = {};
  const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const t = (message, params) => T.fill(has(messages, message) ? messages[message] : message,
                                        params);
  function tn(singular, plural, n, params) {
    const forms = has(plurals, singular) ? plurals[singular] : [singular, plural];
    return T.fill(n === 1 ? forms[0] : forms[Math.min(1, forms.length - 1)],
                  Object.assign({n}, params || {}));
  }

  async function loadLanguage() {
    const lang = T.chooseLanguage();
    if (lang === "en") return;
    try {
      const r = await fetch(`/i18n/${lang}.json`);
      if (r.ok) { const c = await r.json(); messages = c.messages; plurals = c.plurals; }
    } catch (err) { /* English, then */ }
  }

  // --- the server --------------------------------------------------------------------------
  // (requests: T.api; errors carry .status and .code)

  // a refusal in the reader's words where its reason is known, else the server's sentence
  function refusal(err) {
    if (err.code === "bad_login") return t("Wrong name or password.");
    if (err.status === 429) return t("Too many tries. Wait a while, then try again.");
    if (err.code === "name_taken") return t("That name is taken: choose another one.");
    if (err.code === "bad_name") return NAME_RULE();
    if (err.code === "bad_password") {
      return t("A password has 8 to 200 characters and is not the name.");
    }
    if (err.code === "bad_email") return t("That e-mail address is not valid.");
    if (err.code === "no_email") return t("Write an e-mail address to be reminded by e-mail.");
    if (err.code === "login_needed") return t("You are logged out: log in again.");
    if (err.code === "cross_site") return t("Reload this page, then try again.");
    if (err.status === undefined) return t("The server cannot be reached. Try again soon.");
    return err.message;
  }

  // the page's error line (both pages have one)
  function showError(message) {
    const box = document.getElementById("error");
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
    setTimeout(() => { box.hidden = true; }, 8000);
  }

  // --- state ---------------------------------------------------------------------------------
  const Account = {
    user: null,  // {id, name, email, email_verified, lang, notify_email, notify_push,
                 //  created_at} or null
    mailServer: true,  // whether the server sends mail (the links verifying an address)
    games: [],  // the account's unfinished games (GET /api/account/games), your turn first
    yourTurn: 0,
    ready: null,  // resolved once the session is known
    api,
    refresh: () => refreshGames(),
  };
  window.TlatelolcoAccount = Account;

  function announce() {
    document.dispatchEvent(new CustomEvent("tlatelolco:account", {detail: {
      user: Account.user, games: Account.games, yourTurn: Account.yourTurn}}));
  }

  function setUser(user) {
    const changed = JSON.stringify(Account.user) !== JSON.stringify(user || null);
    Account.user = user || null;
    if (!Account.user) { Account.games = []; Account.yourTurn = 0; }
    draw();
    showCount();
    if (changed) announce();
  }

  let asking = null;  // the look under way, for the account `askingFor`
  let askingFor = null;
  async function refreshGames() {
    if (!Account.user) return;
    const asked = Account.user.id;
    if (asking && askingFor === asked) return asking;
    askingFor = asked;
    asking = (async () => {
      try {
        const found = await api("GET", "/api/account/games");
        if (!Account.user || Account.user.id !== asked) return;  // logged out meanwhile
        const games = Array.isArray(found.games) ? found.games : [];
        // your turn first, whatever order the answer had
        Account.games = games.filter((g) => g.your_turn).concat(games.filter((g) => !g.your_turn));
        Account.yourTurn = Number.isInteger(found.your_turn) ? found.your_turn
          : games.filter((g) => g.your_turn).length;
      } catch (err) {
        // the session ended elsewhere (a logout, a password change on another device)
        if (err.status === 401 && Account.user && Account.user.id === asked) setUser(null);
        return;  // offline for a moment: the next look will tell
      } finally { asking = null; }
      showCount();
      announce();
    })();
    return asking;
  }

  // --- "your turn in N games": the badge and the tab title ----------------------------------
  function showCount() {
    const badge = document.getElementById("your-turn");
    if (badge) {
      badge.hidden = !Account.yourTurn;
      badge.textContent = tn("Your turn in {n} game", "Your turn in {n} games", Account.yourTurn);
    }
    retitle();
  }

  // the page's own title with "(N) " before it; the page may set its title at any time (the
  // game page does at every move), so the prefix is put back whenever the title changes
  function retitle() {
    const plain = document.title.replace(PREFIX, "");
    const wanted = Account.yourTurn ? `(${Account.yourTurn}) ${plain}` : plain;
    if (document.title !== wanted) document.title = wanted;
  }

  function watchTitle() {
    let title = document.querySelector("title");
    if (!title) { title = el("title"); document.head.append(title); }
    new MutationObserver(retitle).observe(title, {childList: true, characterData: true,
                                                  subtree: true});
  }

  // --- the bar --------------------------------------------------------------------------------
  function bar() {
    let box = document.getElementById("account");
    if (!box) {
      const header = document.querySelector("header.top");
      if (!header) return null;
      box = el("div", {id: "account", className: "account-bar"});
      header.append(box);
    }
    return box;
  }

  function draw() {
    const box = bar();
    if (!box) return;
    box.setAttribute("aria-label", t("Account"));
    box.setAttribute("role", "group");
    const user = Account.user;
    if (!user) {
      const login = el("button", {type: "button", id: "login-open", className: "link-button",
                                  textContent: t("Log in")});
      const signup = el("button", {type: "button", id: "signup-open", className: "small",
                                   textContent: t("Sign up")});
      login.addEventListener("click", () => openLogin());
      signup.addEventListener("click", () => openSignup());
      box.replaceChildren(login, signup);
      return;
    }
    const badge = el("a", {id: "your-turn", className: "your-turn-badge", href: "/#mine",
                           hidden: true});
    const name = el("a", {id: "account-name", className: "account-name",
                          href: "/players/" + encodeURIComponent(user.name),
                          textContent: user.name, title: t("Your profile")});
    const settings = el("button", {type: "button", id: "settings-open", className: "link-button",
                                   textContent: t("Settings")});
    const logout = el("button", {type: "button", id: "logout", className: "link-button",
                                 textContent: t("Log out")});
    settings.addEventListener("click", openSettings);
    logout.addEventListener("click", logOut);
    box.replaceChildren(badge, name, settings, logout);
  }

  // --- dialogs ---------------------------------------------------------------------------------
  // a modal dialog with a heading, a form of labelled fields, a message line and its buttons
  function dialog(id, title) {
    const old = document.getElementById(id);
    if (old) old.remove();
    const heading = el("h2", {id: id + "-title", textContent: title});
    const close = el("button", {type: "button", className: "link-button close",
                                textContent: "×"});
    close.setAttribute("aria-label", t("Close"));
    const form = el("form", {noValidate: true});
    const note = el("p", {className: "dialog-message", hidden: true});
    note.setAttribute("role", "alert");
    const box = el("dialog", {id, className: "account-dialog"},
                   el("div", {className: "dialog-head"}, heading, close), form, note);
    box.setAttribute("aria-labelledby", heading.id);
    close.addEventListener("click", () => box.close());
    box.addEventListener("close", () => box.remove());
    document.body.append(box);
    return {box, form, note};
  }

  function say(note, text, good) {
    note.textContent = text;
    note.hidden = !text;
    note.classList.toggle("good", Boolean(good));
  }

  // a labelled input (or other control) in a form; `help` said under it, for screen readers too
  function field(form, id, label, control, help) {
    control.id = id;
    form.append(el("label", {htmlFor: id, textContent: label}), control);
    if (help) {
      const about = el("p", {id: id + "-help", className: "help", textContent: help});
      control.setAttribute("aria-describedby", about.id);
      form.append(about);
    }
    return control;
  }

  function checkbox(form, id, label, checked) {
    const input = el("input", {type: "checkbox", id, checked});
    form.append(el("label", {className: "check"}, input, el("span", {textContent: label})));
    return input;
  }

  function buttons(form, submitText, ...more) {
    const submit = el("button", {type: "submit", textContent: submitText});
    form.append(el("div", {className: "dialog-buttons"}, submit, ...more));
    return submit;
  }

  // what a name and a password must be, said before the server is asked
  function checkName(name) {
    return NAME.test(name) && !/ {2}/.test(name) ? "" : NAME_RULE();
  }

  function checkPassword(password) {
    if (password.length < 8) return t("A password has at least 8 characters.");
    if (password.length > 200) return t("A password has at most 200 characters.");
    return "";
  }

  function nameInput(autocomplete) {
    return el("input", {type: "text", maxLength: 24, autocomplete, required: true,
                        autocapitalize: "none", spellcheck: false});
  }

  function passwordInput(autocomplete) {
    return el("input", {type: "password", maxLength: 200, autocomplete, required: true});
  }

  async function sending(submit, work) {
    submit.disabled = true;
    try { await work(); } finally { submit.disabled = false; }
  }

  function openLogin() {
    const {box, form, note} = dialog("login-dialog", t("Log in"));
    const name = field(form, "login-name", t("Name"), nameInput("username"));
    const password = field(form, "login-password", t("Password"), passwordInput("current-password"));
    const other = el("button", {type: "button", className: "link-button",
                                textContent: t("No account yet? Sign up")});
    other.addEventListener("click", () => { box.close(); openSignup(); });
    const submit = buttons(form, t("Log in"), other);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!name.value.trim() || !password.value) {
        say(note, t("Write your name and your password."));
        (name.value.trim() ? password : name).focus();
        return;
      }
      sending(submit, async () => {
        try {
          const found = await api("POST", "/api/account/login",
                                  {name: name.value.trim(), password: password.value});
          box.close();
          await loggedIn(found.user);
        } catch (err) {
          say(note, refusal(err));
          password.select();
        }
      });
    });
    box.showModal();
    name.focus();
  }

  function openSignup() {
    const {box, form, note} = dialog("signup-dialog", t("Sign up"));
    form.append(el("p", {className: "help", textContent: t(
      "An account keeps your seats on every device, reminds you when it is your turn and " +
      "rates your games. Playing as a guest needs none.")}));
    const name = field(form, "signup-name", t("Name"), nameInput("username"),
                      t("2 to 24 letters, digits, spaces, _ - or . Others see it."));
    const password = field(form, "signup-password", t("Password"),
                           passwordInput("new-password"), t("At least 8 characters."));
    const email = field(form, "signup-email", t("E-mail (optional)"),
                        el("input", {type: "email", maxLength: 254, autocomplete: "email"}),
                        t("Only for reminders, if you ask for them. Nobody else sees it."));
    const submit = buttons(form, t("Sign up"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const problem = checkName(name.value.trim()) || checkPassword(password.value) ||
        (email.value && !email.checkValidity() ? t("That e-mail address is not valid.") : "");
      if (problem) { say(note, problem); return; }
      const body = {name: name.value.trim(), password: password.value, lang: T.lang};
      if (email.value.trim()) body.email = email.value.trim();
      sending(submit, async () => {
        try {
          const found = await api("POST", "/api/account/signup", body);
          box.close();
          await loggedIn(found.user);
        } catch (err) { say(note, refusal(err)); }
      });
    });
    box.showModal();
    name.focus();
  }

  async function loggedIn(user) {
    setUser(user);
    await attachSeats(user);
    await refreshGames();
    // a game page shows the account's seat from now on (on a new device too)
    if (location.pathname.startsWith("/games/")) location.reload();
  }

  async function logOut() {
    try {
      await api("POST", "/api/account/logout", {});
    } catch (err) {
      if (err.status !== 401) { showError(refusal(err)); return; }
    }
    setUser(null);
  }

  // --- settings --------------------------------------------------------------------------------
  const Push = () => window.TlatelolcoPush || null;
  function pushWorks() {
    const push = Push();
    try { return Boolean(push && push.supported()); } catch (err) { return false; }
  }

  function openSettings() {
    const user = Account.user;
    if (!user) return;
    const {box, form, note} = dialog("settings-dialog", t("Settings"));
    const email = field(form, "settings-email", t("E-mail"),
                        el("input", {type: "email", maxLength: 254, autocomplete: "email",
                                     value: user.email || ""}),
                        t("For reminders by e-mail. Nobody else sees it."));
    const verification = emailStatus(form, email);
    const lang = field(form, "settings-lang", t("Language"), el("select"),
                       t("Of these pages, your mails and your notifications."));
    for (const [code, name] of [["en", "English"], ["es", "Español"]]) {
      lang.append(new Option(name, code, false, (user.lang || T.lang) === code));
    }
    const byMail = checkbox(form, "settings-notify-email",
                            t("E-mail me when it is my turn"), Boolean(user.notify_email));
    const byPush = checkbox(form, "settings-notify-push",
                            t("Send a notification to this browser when it is my turn"),
                            Boolean(user.notify_push));
    const pushHelp = el("p", {id: "settings-notify-push-help", className: "help"});
    byPush.setAttribute("aria-describedby", pushHelp.id);
    form.append(pushHelp);
    let pushState = "unsupported";
    const sayPush = () => {
      pushHelp.textContent = {
        unsupported: t("This browser cannot receive notifications from this site."),
        denied: t("Notifications are blocked for this site: allow them in the browser's " +
                  "settings first."),
        off: byPush.checked ? t("Saving asks this browser for notifications.") : "",
        subscribed: t("This browser receives them."),
      }[pushState] || "";
      pushHelp.hidden = !pushHelp.textContent;
    };
    byPush.addEventListener("change", sayPush);
    byPush.disabled = !pushWorks();
    sayPush();
    if (pushWorks()) {
      Push().state().then((found) => { pushState = found; sayPush(); }, () => {});
    }
    const submit = buttons(form, t("Save"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const mail = email.value.trim();
      if (mail && !email.checkValidity()) { say(note, t("That e-mail address is not valid.")); return; }
      if (byMail.checked && !mail) {
        say(note, t("Write an e-mail address to be reminded by e-mail."));
        email.focus();
        return;
      }
      sending(submit, async () => {
        let pushProblem = "";  // the rest is saved all the same
        try { pushState = await pushChoice(user, byPush, pushState); } catch (err) {
          pushProblem = err.message;
        }
        sayPush();
        try {
          const found = await api("POST", "/api/account/settings", {
            email: mail || null, lang: lang.value, notify_email: byMail.checked,
            notify_push: byPush.checked});
          setUser(found.user);
          verification.show(found.verification);
          say(note, pushProblem || t("Saved."), !pushProblem);
          if (!pushProblem && lang.value !== T.lang) T.setLanguage(lang.value);  // pages follow
        } catch (err) { say(note, refusal(err)); }
      });
    });
    box.append(passwordForm());  // a form of its own, after the settings' message
    box.showModal();
    email.focus();
  }

  // whether the saved address is verified, with a button mailing the link again while it is
  // not; said of the saved address only (hidden while another one is being typed)
  function emailStatus(form, input) {
    const line = el("p", {id: "settings-email-status", className: "email-status"});
    line.setAttribute("role", "status");
    const again = el("button", {type: "button", id: "settings-verify-again",
                                className: "link-button", textContent: t("Send the link again")});
    const box = el("div", {className: "email-verification"}, line, again);
    form.append(box);  // under the field and its help
    let said = "";  // what the last answer brought, until the address changes
    const show = (verification) => {
      const user = Account.user;
      if (verification !== undefined) said = verification || "";
      const saved = Boolean(user && user.email) && input.value.trim() === user.email;
      box.hidden = !saved;
      if (!saved) return;
      let text = t("Not verified yet: we sent you a link");
      if (user.email_verified) text = t("Verified");
      else if (!Account.mailServer || said === "no_mail_server") {
        text = t("This server sends no mail, so the address cannot be verified.");
      } else if (said === "rate_limited") {
        text = t("Not verified yet: too many links were sent to it in the last hour. " +
                 "Send the link again later.");
      } else if (said === "again") text = t("Not verified yet: we sent you the link again");
      line.textContent = text;
      line.classList.toggle("good", Boolean(user.email_verified));
      again.hidden = Boolean(user.email_verified) || !Account.mailServer;
    };
    input.addEventListener("input", () => show());
    again.addEventListener("click", () => sending(again, async () => {
      try {
        const found = await api("POST", "/api/account/verify", {});
        setUser(found.user);
        show("again");
      } catch (err) {
        if (err.code === "no_mail_server") Account.mailServer = false;
        if (err.code === "verified" || err.code === "no_email") {
          try { setUser((await api("GET", "/api/account")).user || null); } catch (e) { /* */ }
          show("");
        } else if (err.status === 429) show("rate_limited");
        else if (err.code === "no_mail_server") show("no_mail_server");
        else { line.textContent = refusal(err); line.classList.remove("good"); }
      }
    }));
    show();
    return {show};
  }

  // the lobby, where the link verifying an address lands: what became of it, said once
  function verifiedNote() {
    const query = new URLSearchParams(location.search);
    if (!query.has("verified")) return;
    const worked = query.get("verified") === "1";
    query.delete("verified");
    const search = query.toString();
    history.replaceState(history.state, "",
                         location.pathname + (search ? "?" + search : "") + location.hash);
    const main = document.querySelector("main");
    if (!main) return;
    const note = el("p", {id: "verified-note", className: "account-note" + (worked ? " good" : ""),
                          textContent: worked ? t("Your e-mail address is verified.")
                            : t("That link did not work: it is more than 48 hours old, or " +
                                "for an address changed since. Send a new one from your " +
                                "settings.")});
    note.setAttribute("role", "status");
    main.prepend(note);
  }

  // notifications on: this browser subscribes unless it has (its owner is asked first); off:
  // it stops. The state of this browser's subscription after it.
  async function pushChoice(user, box, state) {
    const push = Push();
    if (!push || box.disabled) return state;
    try {
      if (box.checked && state !== "subscribed") { await push.subscribe(); return "subscribed"; }
      if (!box.checked && user.notify_push) { await push.unsubscribe(); return "off"; }
    } catch (err) {
      if (!box.checked) return state;  // the account stops asking for pushes all the same
      box.checked = false;
      const refused = new Error(err.code === "denied"
        ? t("Notifications are blocked for this site: allow them in the browser's " +
            "settings, then try again.")
        : t("This browser could not subscribe to notifications. Try again later."));
      refused.push = true;
      throw refused;
    }
    return state;
  }

  function passwordForm() {
    const form = el("form", {noValidate: true, className: "password-form"});
    const box = el("fieldset", {}, el("legend", {textContent: t("Change the password")}));
    // the account's name for the browser's password manager, which files passwords by it
    form.append(el("input", {type: "text", autocomplete: "username", hidden: true,
                             readOnly: true, value: Account.user ? Account.user.name : ""}), box);
    const old = field(box, "password-old", t("Current password"), passwordInput("current-password"));
    const fresh = field(box, "password-new", t("New password"), passwordInput("new-password"),
                        t("At least 8 characters. Your other devices will be logged out."));
    const note = el("p", {className: "dialog-message", hidden: true});
    note.setAttribute("role", "alert");
    const submit = buttons(box, t("Change the password"));
    box.append(note);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const problem = checkPassword(fresh.value);
      if (!old.value || problem) { say(note, old.value ? problem : t("Write your current password.")); return; }
      sending(submit, async () => {
        try {
          await api("POST", "/api/account/password", {old: old.value, new: fresh.value});
          old.value = ""; fresh.value = "";
          say(note, t("The password is changed."), true);
        } catch (err) {
          say(note, err.code === "wrong_password" ? t("The current password is not right.")
            : refusal(err));
        }
      });
    });
    return form;
  }

  // --- guest seats become the account's ---------------------------------------------------------
  // Each credential this browser holds is offered once per account; a refusal (a finished game,
  // a seat another account holds) is not offered again, a busy server's 429 ends the round.
  async function attachSeats(user) {
    if (!S) return;
    for (const {gameId, token} of S.unattached(user.id)) {
      try {
        await api("POST", "/api/account/attach", {game_id: gameId, token});
      } catch (err) {
        if (err.status === 429 || err.status === undefined || err.status >= 500) return;
      }
      S.markAttached(gameId, token, user.id);
    }
  }

  // --- start -----------------------------------------------------------------------------------
  async function start() {
    await loadLanguage();
    watchTitle();
    verifiedNote();
    let user = null;
    try {
      const found = await api("GET", "/api/account");
      user = found.user || null;
      Account.mailServer = found.mail_server !== false;
    } catch (err) { user = null; }
    setUser(user);
    await refreshGames();
    setInterval(() => refreshGames(), REFRESH);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") refreshGames();
    });
  }
  Account.ready = start();
})();
