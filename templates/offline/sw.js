// The site's service worker (shitenno_site/pwa.py serves it at /sw.js; docs/offline.md says what it does and why).
// Pages: always from the network; only when the network cannot be reached at all (the fetch fails, not a slow or
// failing server) the last copy this phone saw of that page, for the account it was made for, marked as a copy.
// Club phones are shared: each page names its account (the X-Shitenno-Account header, shitenno_site/offline.py);
// the copies are kept per account, and all of them are forgotten as soon as a page arrives for another account
// (sign-out, sign-in, an expired session). A page that shows a secret (an invite link, a token, a manager's
// actions) comes with Cache-Control: no-store and is never kept.
// Static files: the shell (style sheet, scripts, icons) precached by Workbox when the worker installs, each with
// its revision (its hashed address, or a hash of its bytes), older precaches removed; other static files with a
// hashed address from the cache first (the address changes when the file does), the rest from the cache and
// refreshed behind. A deploy changes the hashed addresses: the previous build's files that a kept copy names are
// kept (KEPT_FILES) until no kept copy names them, so a copy made before the deploy still opens offline with its
// style sheet and scripts. Posts (moves) never pass through here: the page keeps them in its own queue
// (static/js/offline.js), as a worker's background sync does not exist on Safari.
const SETTINGS = {{ settings|safe }};
importScripts(SETTINGS.workbox);
workbox.setConfig({ modulePathPrefix: SETTINGS.modules, debug: false });
workbox.loadModule("workbox-expiration");
workbox.loadModule("workbox-precaching");

const PAGES = "shitenno-copies-"; // + the account's tag: one cache per account, and only ever one left
const STATIC = "shitenno-static"; // static files outside the precache
// The files of earlier builds that kept copies still name (docs/offline.md, "Copies that outlive a deploy").
const KEPT_FILES = "shitenno-kept-files";
const ACCOUNT_HEADER = "X-Shitenno-Account";
// The account signed in on this phone, as the last page said (its header, or the page's own message): a push is
// shown only when it is for that account. Kept in a cache, as a worker's variables go when it sleeps.
const ACCOUNT = "shitenno-account";
const ACCOUNT_URL = "/__signed-in-account__";
const { ExpirationPlugin, CacheExpiration } = workbox.expiration;
// A page is kept only while it is useful at a club evening: 60 pages, a week.
const KEEP = { maxEntries: 60, maxAgeSeconds: 7 * 24 * 3600 };

// collectstatic's hashed names: "site.3f2a9c1b0d4e.css"
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;

// Precached on install; a precache of an older worker is removed once this one runs.
workbox.precaching.precacheAndRoute(SETTINGS.precache);
workbox.precaching.cleanupOutdatedCaches();

// The static files the kept copies of pages name (their src and href attributes), as absolute addresses: every
// account's copies on this phone (after an account change only one account's are left).
async function namedByCopies() {
  const named = new Set();
  const attribute = /(?:src|href)\s*=\s*["']([^"'\s]+)["']/g;
  for (const name of (await caches.keys()).filter((name) => name.startsWith(PAGES))) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const copy = await cache.match(request);
      if (!copy) continue;
      for (const [, address] of (await copy.text()).matchAll(attribute)) {
        try {
          const url = new URL(address.replace(/&amp;/g, "&"), request.url);
          if (url.origin === self.location.origin && url.pathname.startsWith(SETTINGS.static)) named.add(url.href);
        } catch (error) {
          // not an address
        }
      }
    }
  }
  return named;
}

// On install, before this build's precache replaces the previous one (Workbox deletes, on activation, every
// precached file this build does not list): the previous build's hashed files that a kept copy names go into
// KEPT_FILES. A plain address (DEBUG) is not kept: the new build serves the same address.
async function keepPreviousBuild() {
  const precache = await caches.open(workbox.core.cacheNames.precache);
  const previous = (await precache.keys()).filter((request) => HASHED.test(new URL(request.url).pathname)
    && !workbox.precaching.getCacheKeyForURL(request.url));
  if (!previous.length) return;
  const named = await namedByCopies();
  const kept = await caches.open(KEPT_FILES);
  await Promise.all(previous.filter((request) => named.has(request.url)).map(async (request) => {
    const file = await precache.match(request);
    if (file) await kept.put(request.url, file);
  }));
}

// A kept file goes once no kept copy names it (the copy was read again from the site, expired, or dropped with
// its account's copies).
async function dropUnnamedFiles() {
  if (!(await caches.has(KEPT_FILES))) return;
  const kept = await caches.open(KEPT_FILES);
  const files = await kept.keys();
  if (!files.length) return;
  const named = await namedByCopies();
  await Promise.all(files.filter((request) => !named.has(request.url)).map((request) => kept.delete(request)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepPreviousBuild().catch(() => undefined));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  // Caches of the workers before Workbox's precaching ("shitenno-static-v1", "shitenno-pages-v1": the latter with
  // copies of anyone's pages) are dropped; the phone's waiting moves live in IndexedDB, which this does not touch.
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("shitenno-") && !name.startsWith(PAGES)
      && name !== STATIC && name !== ACCOUNT && name !== KEPT_FILES).map((name) => caches.delete(name))))
    .then(() => dropUnnamedFiles())
    .then(() => self.clients.claim()));
});

async function rememberAccount(account) {
  const cache = await caches.open(ACCOUNT);
  await cache.put(ACCOUNT_URL, new Response(account, { headers: { "Content-Type": "text/plain" } }));
}

async function signedInAccount() {
  const kept = await (await caches.open(ACCOUNT)).match(ACCOUNT_URL);
  return kept ? kept.text() : "";
}

function pagesOf(account) {
  return PAGES + account;
}

// Every copy made for another account is dropped (with its expiry records).
async function forgetAllBut(account) {
  const names = (await caches.keys()).filter((name) => name.startsWith(PAGES) && name !== pagesOf(account));
  await Promise.all(names.map((name) => caches.delete(name)));
  await Promise.all(names.map((name) => new CacheExpiration(name, KEEP).delete())); // their expiry records
}

// A sign-out on this phone (static/js/offline.js deleted the caches already, so their names come with the message):
// the expiry records of those copies go too (they held the account's page addresses), and the notifications shown
// to that account are closed (issue 47 finding 4).
async function forgetSignedOut(names) {
  const ours = names.filter((name) => typeof name === "string" && (name.startsWith(PAGES) || name === KEPT_FILES));
  await Promise.all(ours.map((name) => new CacheExpiration(name, KEEP).delete()));
  (await self.registration.getNotifications()).forEach((shown) => shown.close());
}

function keepable(response) {
  return response.status === 200 && response.type === "basic" && response.headers.has(ACCOUNT_HEADER)
    && !/no-store/i.test(response.headers.get("Cache-Control") || "");
}

// The page from the network; its account's copy kept (the other accounts' copies forgotten first).
async function fetchAndKeep(request) {
  const response = await fetch(request);
  const account = response.headers.get(ACCOUNT_HEADER);
  if (!account) return response; // a redirect (opaque) or a reply not from the site: nothing learnt, nothing kept
  await rememberAccount(account);
  await forgetAllBut(account);
  if (keepable(response)) {
    const cache = await caches.open(pagesOf(account));
    await cache.put(request.url, response.clone());
    const expiration = new CacheExpiration(pagesOf(account), KEEP);
    await expiration.updateTimestamp(request.url);
    await expiration.expireEntries();
  }
  return response;
}

// The copy of a page for the account whose copies are on this phone (after any account change only one such
// cache is left: with none, or two while a change is being made, no copy is shown). It is marked, so that the
// page says it is a copy even when the phone thinks it is online (lie-fi).
async function copyOf(request) {
  const names = (await caches.keys()).filter((name) => name.startsWith(PAGES));
  if (names.length !== 1) return undefined;
  if (await new CacheExpiration(names[0], KEEP).isURLExpired(request.url)) return undefined;
  const copy = await (await caches.open(names[0])).match(request.url, { ignoreVary: true });
  if (!copy) return undefined;
  const html = (await copy.text()).replace('id="offline-copy"', 'id="offline-copy" data-from-copy');
  return new Response(html, { status: copy.status, statusText: copy.statusText, headers: copy.headers });
}

// The account's own pages (its e-mail address, its tokens, its data) and the admin are never kept (issue 47).
const neverKept = (url) => url.pathname.startsWith("/admin/") || url.pathname.startsWith("/accounts/");

workbox.routing.registerRoute(
  ({ request, url }) => request.mode === "navigate" && url.origin === self.location.origin && !neverKept(url),
  async ({ request, event }) => {
    try {
      const response = fetchAndKeep(request);
      event.waitUntil(response.then(() => dropUnnamedFiles()).catch(() => undefined));
      return await response;
    } catch (error) {
      // No network at all (not a slow server: there is no timeout): the copy, or the browser's own error page.
      return (await copyOf(request)) || Response.error();
    }
  },
);

const isStatic = ({ request, url }) => request.method === "GET" && url.origin === self.location.origin
  && url.pathname.startsWith(SETTINGS.static);
const hashedFiles = new workbox.strategies.CacheFirst({
  cacheName: STATIC, plugins: [new ExpirationPlugin({ maxEntries: 80 })],
});
workbox.routing.registerRoute(
  (options) => isStatic(options) && HASHED.test(options.url.pathname),
  // An earlier build's file that a kept copy names (not in this build's precache, which is asked first).
  async (options) => (await caches.match(options.request, { cacheName: KEPT_FILES })) || hashedFiles.handle(options),
);
workbox.routing.registerRoute(
  isStatic,
  new workbox.strategies.StaleWhileRevalidate({
    cacheName: STATIC, plugins: [new ExpirationPlugin({ maxEntries: 80 })],
  }),
);

// A page names its account (every page does, /accounts/ pages too, which never pass through the page route); the
// page asks the worker to keep a copy of itself when it was loaded before the worker took over.
self.addEventListener("message", (event) => {
  const account = event.data && event.data.account;
  if (typeof account === "string" && account) event.waitUntil(rememberAccount(account));
  const gone = event.data && event.data.signedOut;
  if (Array.isArray(gone)) event.waitUntil(forgetSignedOut(gone));
  const url = event.data && event.data.keepPage;
  if (typeof url !== "string" || new URL(url).origin !== self.location.origin || neverKept(new URL(url))) return;
  event.waitUntil(fetchAndKeep(new Request(url, { credentials: "same-origin" })).then(() => dropUnnamedFiles())
    .catch(() => undefined));
});

// Web push (issue 39, leagues/notifications): show the message; a tap opens (or focuses) the page it names. A club
// phone changes hands: the message names the account it is for (leagues/notifications/devices.py), and it is shown
// only while that account is the one signed in here (issue 47): never one of A's messages to B, nor to nobody.
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = { title: event.data.text() }; }
  event.waitUntil(signedInAccount().then((account) => {
    if (!message.account || message.account !== account) return undefined; // for another account: not shown
    return self.registration.showNotification(message.title || "Shitennō", {
      body: message.body || "", tag: message.tag, data: { url: message.url || "/" },
    });
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => client.url === url.href);
    return open ? open.focus() : self.clients.openWindow(url.href);
  }));
});
