// Keeps a table scoring when the club's wifi drops or only pretends to work (docs/offline.md). Jobs:
// 1. registers the service worker (/sw.js), which keeps the last copy of each page read, per account;
// 2. on a page shown from that copy, says how old it is ("Offline: this is the copy of this page from …");
// 3. on a table page, keeps the moves that could not be sent in a queue on the phone (IndexedDB), one per account
//    and table, shared by the phone's tabs: a move entered offline, and a move whose send failed while the phone
//    believed it was online (no answer, a timeout, a 5xx: lie-fi), which keeps that send's key and seq so the site
//    answers it as the same request. The queue is sent in order, each move with its key and the seq it expects,
//    on the `online` event, whenever the page opens, and again and again (with growing pauses) while the site
//    does not answer. A move refused on return (409: another phone moved; 400: the rules say no) stops the queue:
//    the table is shown as it is now and the moves not taken are listed with the reason, to enter again. Nothing is
//    sent twice (a move's key makes a repeat answer what the first got) nor dropped unsaid;
// 4. at sign-out, says when moves of this account still wait, and drops them (and this phone's copies of the
//    account's pages) only when they were sent or the holder confirms (static/js/offline-sign-out.js does it).
// Safari has no Background Sync, so sending is the page's job, not the worker's: the queues of the tables not on
// screen are sent from any page of the site by static/js/offline-queue.js, which also keeps the queues' storage
// and posts a move for this file (window.shitennoQueue; loaded first).
(() => {
  const script = document.currentScript;
  const LIMIT = 200; // waiting moves a phone holds per table: a whole evening's play, far below IndexedDB's room
  const queue = window.shitennoQueue;
  const { ANSWER_WITHIN, account, db, done, empty, read, update, channel, newKey } = queue;
  const signOuts = window.shitennoSignOut; // static/js/offline-sign-out.js (loaded before this file)

  if ("serviceWorker" in navigator && script && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // The account signed in here (the worker shows only its pushes: another account's are not shown).
        if (registration.active && account && !signOuts.signingOut()) registration.active.postMessage({ account });
        // This page was loaded before the worker ran: ask it to keep a copy, so it opens offline next time.
        if (!navigator.serviceWorker.controller && registration.active) {
          registration.active.postMessage({ keepPage: window.location.href });
        }
      }).catch(() => {});
  }

  // A copy is shown only when the network could not be reached; the worker marks it (data-from-copy), so it says
  // so even when the phone believes it is online.
  function showCopyAge() {
    const notice = document.getElementById("offline-copy");
    if (!notice || (navigator.onLine && !("fromCopy" in notice.dataset))) return;
    const at = new Date(notice.dataset.copiedAt);
    const when = at.toLocaleString(document.documentElement.lang || undefined,
      { dateStyle: "medium", timeStyle: "short" });
    notice.textContent = notice.dataset.text.replace("{time}", when);
    notice.hidden = false;
  }

  // --- the queues: one IndexedDB record per account and table (static/js/offline-queue.js) ----------------------

  // What a move was, in the words of the form it came from (the reader's language): the button tapped, then each
  // field filled in as "its label: its value" (a list's chosen option, a ticked box's label). Shared code: it
  // reads any game's form the same way.
  function labelOf(field) {
    const label = field.labels && field.labels[0];
    if (label) {
      const copy = label.cloneNode(true);
      copy.querySelectorAll("input, select, textarea").forEach((inner) => inner.remove());
      return copy.textContent.replace(/\s+/g, " ").trim();
    }
    return (field.getAttribute("aria-label") || "").trim();
  }
  function legendOf(field) {
    const legend = field.closest("fieldset") && field.closest("fieldset").querySelector("legend");
    return legend ? legend.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function fieldWords(field) {
    if (!field.name || field.disabled || ["hidden", "submit", "button", "reset"].includes(field.type)) return "";
    if (field.type === "radio" || field.type === "checkbox") {
      if (!field.checked) return "";
      const legend = legendOf(field);
      return legend ? `${legend}: ${labelOf(field)}` : labelOf(field);
    }
    const value = field.tagName === "SELECT"
      ? [...field.selectedOptions].map((option) => option.textContent.trim()).join(", ") : field.value.trim();
    if (!value) return "";
    const label = labelOf(field) || legendOf(field);
    return label ? `${label}: ${value}` : value;
  }
  function describe(form, submitter) {
    const tapped = ((submitter && submitter.textContent) || form.dataset.move || "").replace(/\s+/g, " ").trim();
    const fields = [...form.elements].map(fieldWords).filter(Boolean);
    return [tapped, fields.join(", ")].filter(Boolean).join(": ");
  }

  function setUpTable(banner) {
    const code = banner.dataset.table;
    const id = `${account} ${code}`;
    const moveUrl = banner.dataset.moveUrl;
    const undoUrl = banner.dataset.undoUrl;
    const playing = "playing" in banner.dataset;
    const note = document.getElementById("offline-note");
    const waitingPart = document.getElementById("offline-moves");
    const notTakenPart = document.getElementById("not-taken");
    let record = empty(); // this tab's copy of the shared record, read again after every change (any tab's)
    let loaded = false;
    let sending = false;
    let stalled = false; // the last send got no answer while the phone believed it was online
    let failures = 0;
    let retry = null;
    let pending = null; // a move htmx is sending right now: {move, form, queued}

    function plural(kind, n) {
      return (n === 1 ? banner.dataset[kind + "One"] : banner.dataset[kind + "Many"]).replace("{n}", n);
    }

    function say(text) {
      note.textContent = text;
      note.hidden = !text;
    }

    function render() {
      const n = record.waiting.length;
      let kind = "sending";
      if (!navigator.onLine) kind = "offline";
      else if (stalled) kind = "stalled";
      if (n) banner.textContent = plural(kind, n);
      else if (!navigator.onLine && playing) banner.textContent = banner.dataset.offlineNone;
      banner.hidden = !n && (navigator.onLine || !playing);
      banner.classList.toggle("sending", Boolean(n) && navigator.onLine && !stalled);
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
        item.textContent = move.reason ? `${move.label}: ${move.reason}` : move.label;
        return item;
      }));
      notTakenPart.hidden = !record.notTaken.length;
    }

    async function refresh() {
      try {
        record = await read(id);
      } catch (error) {
        // storage refused (private mode): this tab's copy is all there is
      }
      render();
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

    function tryAgainLater() {
      stalled = true;
      failures += 1;
      clearTimeout(retry);
      retry = setTimeout(sendAll, queue.pause(failures));
    }

    // The queue goes one move at a time, in the order entered: each expects the seq the one before it makes. One
    // tab sends at a time (a lock named after the queue); the others show what it does.
    async function sendQueue() {
      for (;;) {
        const move = (await read(id)).waiting[0];
        if (!move || !navigator.onLine) return;
        // only the last move asks for the table body back: the ones before it get a redirect, nothing to render
        const answer = await queue.post(move, (await read(id)).waiting.length === 1);
        if (answer.outcome === "failed") {
          tryAgainLater();
          return;
        }
        stalled = false;
        failures = 0;
        if (answer.outcome === "taken") {
          ({ record } = await update(id, (r) => {
            r.waiting = r.waiting.filter((waiting) => waiting.key !== move.key);
          }));
          if (answer.html) showBody(answer.html);
          render();
          continue;
        }
        // 409 (another phone moved first), 400 (the rules refuse it), 403, 422: this move and those behind it
        // were entered on a table that is not the table now. Stop, show the table now, list them to enter again.
        const reason = queue.reasonIn(answer.html, banner);
        ({ record } = await update(id, (r) => {
          r.notTaken.push(...r.waiting.map((waiting) => ({ ...waiting, reason })));
          r.waiting = [];
        }));
        showBody(answer.html);
        return;
      }
    }

    async function sendAll() {
      clearTimeout(retry);
      if (!playing || sending || pending || !loaded || !navigator.onLine || !record.waiting.length) return;
      sending = true;
      render();
      try {
        if (navigator.locks) await navigator.locks.request(`shitenno-send ${id}`, sendQueue);
        else await sendQueue();
      } catch (error) {
        tryAgainLater();
      } finally {
        sending = false;
        await refresh();
      }
    }

    // Into the queue: the move (with its key and seq when it is a send that failed, else a new key and the seq
    // after the last one waiting), behind any move htmx is still sending.
    async function enqueue(move) {
      const { result } = await update(id, (r) => {
        if (r.waiting.length >= LIMIT) return false;
        if (pending && !pending.queued && !r.waiting.some((waiting) => waiting.key === pending.move.key)) {
          r.waiting.push(named(pending.move, r.waiting));
          pending.queued = true;
        }
        if (move) {
          if (r.waiting.some((waiting) => waiting.key === move.key)) return true;
          const last = r.waiting[r.waiting.length - 1];
          r.waiting.push(named({ ...move, seq: last ? last.seq + 1 : move.seq }, r.waiting));
        }
        return true;
      });
      if (!result) say(banner.dataset.full.replace("{n}", LIMIT));
      await refresh();
      return result;
    }

    // A button tapped again and again while the page cannot change (offline) reads the same each time; a game may
    // give the words each tap in a row stands for (data-queued-words on the button: a JSON list, the first for the
    // tap on the page as it is, the next for the tap after it...). `series` is that button on this page's state.
    function moveFrom(form, submitter) {
      const data = new FormData(form);
      if (submitter && submitter.name) data.append(submitter.name, submitter.value);
      const fields = [...data.entries()].filter(([name, value]) => typeof value === "string" && name !== "seq"
        && name !== "key");
      const move = { url: moveUrl, fields, seq: Number(data.get("seq")), key: String(data.get("key") || newKey()),
        label: describe(form, submitter), at: Date.now() };
      let words;
      try {
        words = submitter && submitter.dataset.queuedWords ? JSON.parse(submitter.dataset.queuedWords) : null;
      } catch (error) {
        words = null; // the button's own words, as any other move
      }
      if (Array.isArray(words) && words.length) {
        const body = document.getElementById("table-body");
        move.words = words;
        move.series = `${body ? body.dataset.seq : ""} ${submitter.name}=${submitter.value}`;
      }
      return move;
    }

    // The move as it waits: with the words of its place in its series (the taps of the same button before it,
    // still waiting), kept without the list.
    function named(move, waiting) {
      if (!move.words) return move;
      const { words, ...kept } = move;
      const before = waiting.filter((other) => other.series === move.series).length;
      return { ...kept, label: before < words.length ? words[before] : move.label };
    }

    document.addEventListener("submit", (event) => {
      const form = event.target;
      if (!form.closest || !form.closest("#table-body")) return;
      const path = new URL(form.action, window.location.href).pathname;
      // (before the queue is read, a move goes straight to the site: IndexedDB answers within milliseconds)
      const busy = sending || pending || stalled || record.waiting.length;
      if (path === undoUrl && (!navigator.onLine || busy)) {
        // An undo takes back the last move the site holds: it cannot wait in a queue of moves not sent yet.
        event.preventDefault();
        event.stopPropagation();
        say(banner.dataset.undoWaits);
        return;
      }
      if (path !== moveUrl) return;
      say("");
      const move = moveFrom(form, event.submitter);
      if (navigator.onLine && !busy) {
        // htmx sends it (htmx:beforeSend, below, follows the request); a send htmx did not start is forgotten
        const sent = { move, form, queued: false, xhr: null };
        pending = sent;
        setTimeout(() => {
          if (pending === sent && !sent.xhr) pending = null;
        }, 0);
        return;
      }
      event.preventDefault();
      event.stopPropagation(); // htmx listens on the form itself, after this capturing listener
      move.key = newKey(); // a queued move is a new request: its own key
      enqueue(move).then((queued) => {
        if (queued) form.reset();
        return sendAll();
      });
    }, true);

    // htmx's send of a move: answered (any 2xx to 4xx: the site decided, htmx shows it), or not (no answer, a
    // timeout, a 5xx): then the move goes into the queue with the same key and seq, to be sent again. Followed on
    // the request itself (its loadend), as htmx's own events are lost when its answer replaced the form.
    document.addEventListener("htmx:beforeSend", (event) => {
      const sent = pending;
      if (!sent || event.detail.elt !== sent.form || sent.xhr) return;
      sent.xhr = event.detail.xhr;
      sent.xhr.timeout = ANSWER_WITHIN;
      sent.xhr.addEventListener("loadend", () => answered(sent, sent.xhr.status));
    });
    async function answered(sent, status) {
      if (pending !== sent) return;
      if (status > 0 && status < 500) {
        pending = null;
        if (sent.queued && status < 300) {
          // taken: its queued copy is not needed (were it sent anyway, its key would get the same answer)
          ({ record } = await update(id, (r) => {
            r.waiting = r.waiting.filter((waiting) => waiting.key !== sent.move.key);
          }));
        }
        stalled = false;
        failures = 0;
        sendAll();
        return;
      }
      await enqueue(null);
      pending = null;
      tryAgainLater();
      render();
    }

    notTakenPart.querySelector("[data-forget-not-taken]").addEventListener("click", () => {
      update(id, (r) => {
        r.notTaken = [];
      }).then(refresh);
    });

    if (channel) channel.addEventListener("message", (event) => {
      if (event.data && event.data.id === id) refresh().then(sendAll);
    });
    window.addEventListener("online", () => {
      failures = 0;
      render();
      sendAll();
    });
    window.addEventListener("offline", render);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") sendAll();
    });

    // On a finished table nothing can be sent: the moves still waiting are listed as not taken, with the reason.
    async function open() {
      if ("finished" in banner.dataset) {
        await update(id, (r) => {
          r.notTaken.push(...r.waiting.map((move) => ({ ...move, reason: banner.dataset.over })));
          r.waiting = [];
        });
      }
      await adoptOld();
    }

    // A queue kept by the previous version of this script (per table, whoever entered it) is never sent: it may
    // be another account's. Its moves are listed as not taken, to enter again.
    async function adoptOld() {
      const base = await db();
      if (!base.objectStoreNames.contains("tables")) return;
      const old = await done(base.transaction("tables").objectStore("tables").get(code));
      if (!old || !(old.waiting || []).length) return;
      await update(id, (r) => {
        r.notTaken.push(...old.waiting.map((move) => ({ ...move, reason: banner.dataset.old })));
      });
      const tx = base.transaction("tables", "readwrite");
      tx.objectStore("tables").delete(code);
    }

    open().catch(() => {}).then(refresh).then(() => {
      loaded = true;
      render();
      return sendAll();
    }).finally(() => {
      banner.dataset.ready = ""; // the queue is read and its first sending done (the browser tests wait for it)
    });
  }

  function setUp() {
    if (signOuts.finishSignOut()) return;
    showCopyAge();
    const banner = document.getElementById("offline-banner");
    // A table page's body follows the table live, so only a copy opened offline is "the copy from …".
    if (!banner) window.addEventListener("offline", showCopyAge);
    if (banner && "indexedDB" in window) setUpTable(banner);
    document.addEventListener("submit", (event) => {
      const form = event.target;
      if (!form.matches || !form.matches("form[data-sign-out]") || !("indexedDB" in window)) return;
      event.preventDefault();
      signOuts.signOut(form);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
