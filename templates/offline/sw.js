// The site's service worker (shitenno_site/pwa.py serves it at /sw.js; docs/offline.md says what it does and why).
// Pages: from the network when there is one, else the last copy this phone saw, so a table page opened once, and
// the league pages and rankings read before, still open with the wifi gone (each says how old its copy is).
// Static files: from the phone's cache, refreshed behind. Posts (moves) never pass through here: the page keeps
// them in its own queue (static/js/offline.js), as a worker's background sync does not exist on Safari.
const SETTINGS = {{ settings|safe }};
importScripts(SETTINGS.workbox);
workbox.setConfig({ modulePathPrefix: SETTINGS.modules, debug: false });
workbox.loadModule("workbox-expiration");

const PAGES = "shitenno-pages-v" + SETTINGS.version;
const STATIC = "shitenno-static-v" + SETTINGS.version;
const { ExpirationPlugin } = workbox.expiration;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(SETTINGS.shell)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // An older worker's copies are dropped; the phone's waiting moves live in IndexedDB, which this does not touch.
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("shitenno-") && name !== PAGES
      && name !== STATIC).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

// A page is kept only while it is useful at a club evening: 60 pages, a week.
workbox.routing.registerRoute(
  ({ request, url }) => request.mode === "navigate" && url.origin === self.location.origin
    && !url.pathname.startsWith("/admin/") && !url.pathname.startsWith("/accounts/"),
  new workbox.strategies.NetworkFirst({
    cacheName: PAGES,
    networkTimeoutSeconds: 6,
    matchOptions: { ignoreVary: true },
    plugins: [new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 7 * 24 * 3600 })],
  }),
);

workbox.routing.registerRoute(
  ({ request, url }) => request.method === "GET" && url.origin === self.location.origin
    && url.pathname.startsWith(SETTINGS.static),
  new workbox.strategies.StaleWhileRevalidate({
    cacheName: STATIC,
    plugins: [new ExpirationPlugin({ maxEntries: 80 })],
  }),
);

// The page asks the worker to keep a copy of itself when it was loaded before the worker took over.
self.addEventListener("message", (event) => {
  const url = event.data && event.data.keepPage;
  if (typeof url !== "string" || new URL(url).origin !== self.location.origin) return;
  event.waitUntil(caches.open(PAGES).then((cache) => cache.add(new Request(url, { credentials: "same-origin" }))));
});

// Web push (issue 39, leagues/notifications): show the message; a tap opens (or focuses) the page it names.
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = { title: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(message.title || "Shitennō", {
    body: message.body || "", tag: message.tag, data: { url: message.url || "/" },
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
