// Keeps a table scoring when the club's wifi drops (docs/offline.md). Three jobs:
// 1. registers the service worker (/sw.js), which keeps the last copy of each page read and the static files;
// 2. on a page opened from that copy, says how old it is ("Offline: this is the copy of this page from …");
// 3. on a table page, keeps the moves entered without a network in a queue on the phone (IndexedDB), shows them
//    as waiting, and sends them in order, each with its own key and the seq it expects, when the network returns
//    (the `online` event) and whenever the page opens. A move refused on return (409: another phone moved; 400: the
//    rules say no) stops the queue: the table is shown as it is now and the moves not taken are listed, to enter
//    again. Nothing is sent twice (a move's key makes a repeat answer what the first got) nor dropped unsaid.
// Safari has no Background Sync, so sending is the page's job, not the worker's.
(() => {
  const script = document.currentScript;
  const LIMIT = 200; // waiting moves a phone holds per table: a whole evening's play, far below IndexedDB's room

  if ("serviceWorker" in navigator && script && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // This page was loaded before the worker ran: ask it to keep a copy, so it opens offline next time.
        if (!navigator.serviceWorker.controller && registration.active) {
          registration.active.postMessage({ keepPage: window.location.href });
        }
      }).catch(() => {});
  }

  function showCopyAge() {
    const notice = document.getElementById("offline-copy");
    if (!notice || navigator.onLine) return;
    const at = new Date(notice.dataset.copiedAt);
    const when = at.toLocaleString(document.documentElement.lang || undefined,
      { dateStyle: "medium", timeStyle: "short" });
    notice.textContent = notice.dataset.text.replace("{time}", when);
    notice.hidden = false;
  }

  // --- the queue, one IndexedDB record per table: {waiting: [...], notTaken: [...]} ---------------------------
  // Plain IndexedDB: two calls (get, put) on one store do not need a library.
  let dbOpening = null;
  function db() {
    dbOpening = dbOpening || new Promise((resolve, reject) => {
      const request = indexedDB.open("shitenno-offline", 1);
      request.onupgradeneeded = () => request.result.createObjectStore("tables");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return dbOpening;
  }
  function done(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  async function load(code) {
    const store = (await db()).transaction("tables").objectStore("tables");
    return (await done(store.get(code))) || { waiting: [], notTaken: [] };
  }
  async function save(code, record) {
    const store = (await db()).transaction("tables", "readwrite").objectStore("tables");
    await done(store.put(record, code));
  }

  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function setUpTable(banner) {
    const code = banner.dataset.table;
    const moveUrl = banner.dataset.moveUrl;
    const waitingPart = document.getElementById("offline-moves");
    const notTakenPart = document.getElementById("not-taken");
    let record = { waiting: [], notTaken: [] }; // the in-memory copy; IndexedDB is written after each change
    let sending = false;
    let loaded = false;
    const early = []; // moves entered before IndexedDB answered

    function plural(kind, n) {
      return (n === 1 ? banner.dataset[kind + "One"] : banner.dataset[kind + "Many"]).replace("{n}", n);
    }

    function render() {
      const n = record.waiting.length;
      if (n) banner.textContent = plural(sending && navigator.onLine ? "sending" : "offline", n);
      else if (!navigator.onLine) banner.textContent = banner.dataset.offlineNone;
      banner.hidden = !n && navigator.onLine;
      banner.classList.toggle("sending", Boolean(n) && navigator.onLine);
      const list = waitingPart.querySelector("ol");
      const word = list.dataset.waitingLabel;
      list.replaceChildren(...record.waiting.map((move) => {
        const item = document.createElement("li");
        item.className = "waiting";
        item.dataset.key = move.key;
        item.textContent = `${move.label} (${word})`;
        return item;
      }));
      waitingPart.hidden = !n;
      notTakenPart.querySelector("ol").replaceChildren(...record.notTaken.map((move) => {
        const item = document.createElement("li");
        item.dataset.key = move.key;
        item.textContent = move.label;
        return item;
      }));
      notTakenPart.hidden = !record.notTaken.length;
    }

    function showBody(html) {
      const template = document.createElement("template");
      template.innerHTML = html;
      const body = template.content.querySelector("#table-body");
      const old = document.getElementById("table-body");
      if (!body || !old) return;
      old.replaceWith(body);
      if (window.htmx) window.htmx.process(body);
    }

    function csrfHeader() {
      try {
        return JSON.parse(document.body.getAttribute("hx-headers") || "{}");
      } catch (error) {
        return {};
      }
    }

    async function store() {
      try {
        await save(code, record);
      } catch (error) {
        // A phone refusing storage (private mode) still queues in this page; only a reload would lose the moves.
      }
    }

    // The moves go one at a time, in the order entered: each expects the seq the one before it makes.
    async function send() {
      if (sending || !loaded || !record.waiting.length || !navigator.onLine) return;
      sending = true;
      render();
      try {
        while (record.waiting.length && navigator.onLine) {
          const move = record.waiting[0];
          const body = new URLSearchParams(move.fields);
          body.set("seq", String(move.seq));
          body.set("key", move.key);
          // Only the last move asks for the table body back (as htmx does); the ones before it are posted as a
          // plain form, which the site answers with a redirect and no page to render: the queue empties faster.
          const last = record.waiting.length === 1;
          const headers = csrfHeader();
          if (last) Object.assign(headers, { "HX-Request": "true", "HX-Current-URL": window.location.href });
          let response;
          try {
            response = await fetch(move.url, {
              method: "POST", body, credentials: "same-origin", headers, redirect: "manual",
            });
          } catch (error) {
            break; // the network went again: the move stays first in line; sent again with its key, never twice
          }
          if (response.status >= 500) break; // the site is down: try again on the next `online` or page open
          if (response.type === "opaqueredirect" || response.ok) {
            record.waiting.shift();
            // Not awaited: were the page closed before this write, the move would be sent again on the next open,
            // with its key, and the site would answer what it answered now (taken once).
            store();
            if (response.ok) showBody(await response.text());
            render();
            continue;
          }
          const html = await response.text();
          // 409 (another phone moved first), 400 (the rules refuse it), 403: this move and those behind it were
          // entered on a table that is not the table now. Stop, show the table now, list them to enter again.
          record.notTaken.push(...record.waiting);
          record.waiting = [];
          await store();
          showBody(html);
          break;
        }
      } finally {
        sending = false;
        render();
      }
    }

    // A move form inside the table body: sent by htmx as always while online with nothing waiting; else queued.
    document.addEventListener("submit", (event) => {
      const form = event.target;
      if (!form.closest || !form.closest("#table-body")) return;
      if (new URL(form.action, window.location.href).pathname !== moveUrl) return;
      if (navigator.onLine && !sending && !record.waiting.length && !early.length) return;
      event.preventDefault();
      event.stopPropagation(); // htmx listens on the form itself, after this capturing listener
      if (record.waiting.length >= LIMIT) {
        banner.textContent = banner.dataset.full.replace("{n}", LIMIT);
        banner.hidden = false;
        return;
      }
      const submitter = event.submitter;
      const data = new FormData(form);
      if (submitter && submitter.name) data.append(submitter.name, submitter.value);
      const fields = [...data.entries()].filter(([, value]) => typeof value === "string");
      const last = record.waiting[record.waiting.length - 1];
      const seq = last ? last.seq + 1 : Number(data.get("seq"));
      const label = ((submitter && submitter.textContent) || form.dataset.move || "").trim();
      const move = { url: moveUrl, fields, seq, key: newKey(), label, at: Date.now() };
      if (!loaded) {
        early.push(move);
        return;
      }
      record.waiting.push(move);
      form.reset();
      render();
      store().then(send);
    }, true);

    notTakenPart.querySelector("[data-forget-not-taken]").addEventListener("click", () => {
      record.notTaken = [];
      render();
      store();
    });

    window.addEventListener("online", send);
    window.addEventListener("offline", render);

    load(code).catch(() => ({ waiting: [], notTaken: [] })).then((found) => {
      record = found;
      early.forEach((move, i) => {
        const last = record.waiting[record.waiting.length - 1];
        if (last && i === 0) move.seq = last.seq + 1;
        else if (i > 0) move.seq = early[i - 1].seq + 1;
        record.waiting.push(move);
      });
      early.length = 0;
      loaded = true;
      render();
      return store();
    }).then(send);
  }

  function setUp() {
    showCopyAge();
    const banner = document.getElementById("offline-banner");
    // A table page's body follows the table live, so only a copy opened offline is "the copy from …".
    if (!banner) window.addEventListener("offline", showCopyAge);
    if (banner && "indexedDB" in window) setUpTable(banner);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
