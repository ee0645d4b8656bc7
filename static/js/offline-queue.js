// The phone's queues of waiting moves (docs/offline.md, "The queue of moves"), for every page of the site:
// 1. where they are kept: IndexedDB "shitenno-offline", store "queues", one record per account and table,
//    {waiting: [...], notTaken: [...]}; every change one readwrite transaction, the other tabs told of it;
// 2. how one waiting move is posted (its key and the seq it expects) and what a refusal says;
// 3. the queues of the tables NOT on screen: sent from whatever page of the site the phone is on when its
//    connection returns (the league page, the night's standings...), not only when that table is opened again,
//    with the table page's words ("sending: 2 moves waiting") and then "sent" or "not taken" naming the table.
// static/js/offline.js (loaded after this file) keeps the table on screen's own queue with these same functions.
// Shared code: it names no game (tests/games/test_game_code_stays_home.py).
(() => {
  const ANSWER_WITHIN = 20000; // ms: a send unanswered this long counts as failed (it is sent again, same key)
  const PAUSE_MAX = 30000; // ms: the longest pause between two tries while the site does not answer
  const account = (document.body && document.body.dataset.account) || "";

  let dbOpening = null;
  function db() {
    dbOpening = dbOpening || new Promise((resolve, reject) => {
      const request = indexedDB.open("shitenno-offline", 2);
      request.onupgradeneeded = () => {
        // Version 1 kept one queue per table, whoever entered it: those records are left where they are (in
        // "tables"), read once by the table page and listed as not taken, never sent (offline.js, adoptOld).
        if (!request.result.objectStoreNames.contains("queues")) request.result.createObjectStore("queues");
      };
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
  function empty() {
    return { waiting: [], notTaken: [] };
  }
  async function read(id) {
    const store = (await db()).transaction("queues").objectStore("queues");
    return (await done(store.get(id))) || empty();
  }
  const channel = "BroadcastChannel" in window ? new BroadcastChannel("shitenno-offline") : null;
  function tell(id) {
    if (channel) channel.postMessage({ id });
  }
  // change(record) edits the record in place; its return value is passed back. One transaction (IndexedDB runs
  // such transactions on one store one after another, across tabs), then the other tabs are told.
  async function update(id, change) {
    const transaction = (await db()).transaction("queues", "readwrite");
    const store = transaction.objectStore("queues");
    const record = (await done(store.get(id))) || empty();
    const result = change(record);
    store.put(record, id);
    await new Promise((resolve, reject) => {
      transaction.oncomplete = resolve;
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
    tell(id);
    return { record, result };
  }
  async function accountQueues() {
    const store = (await db()).transaction("queues").objectStore("queues");
    const range = IDBKeyRange.bound(`${account} `, `${account} \uffff`);
    const [keys, records] = await Promise.all([done(store.getAllKeys(range)), done(store.getAll(range))]);
    return keys.map((key, i) => ({ key, record: records[i] }));
  }

  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function csrfHeader() {
    try {
      return JSON.parse(document.body.getAttribute("data-hx-headers") || "{}");
    } catch (error) {
      return {};
    }
  }

  // 1 s, 2 s, 4 s … up to 30 s after the n-th failure in a row, each a little shuffled so that a club's phones do
  // not all come back at once.
  function pause(failures) {
    return Math.min(PAUSE_MAX, 1000 * 2 ** (failures - 1)) * (0.8 + 0.4 * Math.random());
  }

  // One move to the site. "taken", "refused" (with the answer) or "failed" (no answer, or the site failing).
  // `htmx`: asked for the table body back, as htmx asks (the last move of a queue on its table page); else posted
  // as a plain form, which the site answers with a redirect and no page to render.
  async function post(move, htmx) {
    const body = new URLSearchParams(move.fields);
    body.set("seq", String(move.seq));
    body.set("key", move.key);
    const headers = csrfHeader();
    headers["X-Shitenno-Account"] = account; // the account it was entered under: the site refuses it for another's
    if (htmx) Object.assign(headers, { "HX-Request": "true", "HX-Current-URL": window.location.href });
    let response;
    try {
      response = await fetch(move.url, {
        method: "POST", body, credentials: "same-origin", headers, redirect: "manual",
        signal: AbortSignal.timeout ? AbortSignal.timeout(ANSWER_WITHIN) : undefined,
      });
    } catch (error) {
      return { outcome: "failed" };
    }
    if (response.status >= 500) return { outcome: "failed" };
    // another account's session on this phone now (shitenno_site/offline.py): not this move's fault, it keeps waiting
    const sessionOf = response.headers.get("X-Shitenno-Account");
    if (response.status === 409 && sessionOf && sessionOf !== account) return { outcome: "failed" };
    if (response.type === "opaqueredirect" || response.ok) {
      return { outcome: "taken", html: response.ok ? await response.text() : "" };
    }
    return { outcome: "refused", html: await response.text() };
  }

  // Why the site refused: the game is over (the table it shows is finished), else its own words in the answer
  // (the notice or the error it shows), else that the table changed. `words`: an element whose data-over and
  // data-refused say those two in the page's language.
  function reasonIn(html, words) {
    const template = document.createElement("template");
    template.innerHTML = html;
    const body = template.content.querySelector("#table-body");
    if (body && "over" in body.dataset) return words.dataset.over;
    const said = body && body.querySelector(".notice, [role=alert]");
    return (said && said.textContent.replace(/\s+/g, " ").trim()) || words.dataset.refused;
  }

  // --- the queues of the tables not on screen ---------------------------------------------------------------------
  // `status` (templates/base.html, #offline-elsewhere) says what is done, in the table page's words; `onScreen` is
  // the queue the table page itself sends (offline.js), left to it.
  function sendElsewhere(status, onScreen) {
    let sending = false;
    let failures = 0;
    let retry = null;
    const said = new Map(); // table code -> what the status says of it now

    function codeOf(key) {
      return key.slice(account.length + 1);
    }
    function plural(kind, n) {
      return (n === 1 ? status.dataset[kind + "One"] : status.dataset[kind + "Many"]).replace("{n}", n);
    }
    // "…table {table}…" with the table's code as a link to it
    function naming(text, code) {
      const [before, after] = text.split("{table}");
      const link = document.createElement("a");
      link.href = status.dataset.tableUrl.replace("/-/", `/${encodeURIComponent(code)}/`);
      link.textContent = code;
      const line = document.createElement("span");
      line.append(before || "", link, after || "");
      return line;
    }
    function show() {
      status.replaceChildren(...[...said.values()].flatMap((line, i) => (i ? [" ", line] : [line])));
      status.hidden = !said.size;
    }

    // One table's queue, in order, under the lock the table page takes too (one sender at a time, any tab).
    async function sendOne(key) {
      for (;;) {
        const { waiting } = await read(key);
        if (!waiting.length) {
          said.set(key, naming(status.dataset.sent, codeOf(key)));
          return true;
        }
        if (!navigator.onLine) return false;
        said.set(key, document.createTextNode(plural("sending", waiting.length)));
        show();
        const answer = await post(waiting[0], false);
        if (answer.outcome === "failed") {
          said.set(key, document.createTextNode(plural("stalled", waiting.length)));
          return false;
        }
        if (answer.outcome === "taken") {
          await update(key, (r) => {
            r.waiting = r.waiting.filter((move) => move.key !== waiting[0].key);
          });
          continue;
        }
        // refused (409: another phone moved; 400: the rules say no): this move and those behind it are listed on
        // the table's page as not taken, with the reason, as the table page itself does
        const reason = reasonIn(answer.html, status);
        await update(key, (r) => {
          r.notTaken.push(...r.waiting.map((move) => ({ ...move, reason })));
          r.waiting = [];
        });
        said.set(key, naming(status.dataset.notTaken, codeOf(key)));
        return true;
      }
    }

    async function sendAll() {
      clearTimeout(retry);
      if (sending || !navigator.onLine) return;
      sending = true;
      let stalled = false;
      try {
        const queues = (await accountQueues()).filter(({ key, record }) => key !== onScreen
          && record.waiting && record.waiting.length);
        for (const { key } of queues) {
          const sent = navigator.locks
            ? await navigator.locks.request(`shitenno-send ${key}`, () => sendOne(key)) : await sendOne(key);
          stalled = stalled || !sent;
        }
      } catch (error) {
        stalled = true; // storage refused or the lock failed: tried again like a send without an answer
      } finally {
        sending = false;
        show();
      }
      if (stalled && navigator.onLine) {
        failures += 1;
        retry = setTimeout(sendAll, pause(failures));
      } else {
        failures = 0;
      }
    }

    window.addEventListener("online", () => {
      failures = 0;
      sendAll();
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") sendAll();
    });
    sendAll().finally(() => {
      status.dataset.ready = ""; // its first sending done (the browser tests wait for it)
    });
  }

  window.shitennoQueue = {
    ANSWER_WITHIN, account, db, done, empty, read, update, channel, tell, accountQueues, newKey, pause, post,
    reasonIn,
  };

  function setUp() {
    const status = document.getElementById("offline-elsewhere");
    if (!status || !account || !("indexedDB" in window)) return;
    const banner = document.getElementById("offline-banner");
    sendElsewhere(status, banner ? `${account} ${banner.dataset.table}` : null);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
