// Sign-out on a shared club phone (docs/offline.md, issue 47), for static/js/offline.js (window.shitennoSignOut;
// loaded after static/js/offline-queue.js, whose queues it reads, and before offline.js, which calls it): moves of
// this account still waiting are said, and dropped only when the holder confirms; then this phone's copies of the
// account's pages go. Offline, the phone shows itself signed out at once and the sign-out is sent when the network
// is back.
(() => {
  const { account, db, tell, accountQueues } = window.shitennoQueue;
  const COPIES = "shitenno-copies-"; // the worker's caches of page copies (templates/offline/sw.js)
  const KEPT_FILES = "shitenno-kept-files"; // the worker's cache of earlier builds' files that copies name

  // A sign-out of this account made offline and not sent yet (see signOutLater).
  function signingOut() {
    try {
      return localStorage.getItem("shitenno-sign-out") === account;
    } catch (error) {
      return false;
    }
  }

  // Sign-out on a shared phone: moves of this account still waiting are said, and dropped only when the holder
  // confirms; then this phone's copies of the account's pages go (the worker would drop them at the next page
  // anyway: this also covers a sign-out that fails for want of a network).
  async function signOut(form) {
    let waiting = 0;
    let queues = [];
    try {
      queues = await accountQueues();
      waiting = queues.reduce((n, { record }) => n + record.waiting.length, 0);
    } catch (error) {
      // no storage: nothing waits here
    }
    if (waiting && !window.confirm(form.dataset.confirm.replace("{n}", waiting))) return;
    try {
      if (queues.length) {
        const transaction = (await db()).transaction("queues", "readwrite");
        queues.forEach(({ key }) => transaction.objectStore("queues").delete(key));
        queues.forEach(({ key }) => tell(key));
      }
      if ("caches" in window) {
        // The copies, and the earlier builds' files kept for them (templates/offline/sw.js, KEPT_FILES).
        const names = (await caches.keys()).filter((name) => name.startsWith(COPIES) || name === KEPT_FILES);
        await Promise.all(names.map((name) => caches.delete(name)));
        // their expiry records (the account's page addresses) and its shown notifications: the worker's to drop
        if (navigator.serviceWorker && navigator.serviceWorker.controller) {
          navigator.serviceWorker.controller.postMessage({ signedOut: names });
        }
      }
    } finally {
      if (navigator.onLine) form.submit(); // not requestSubmit: this listener must not see it again
      else signOutLater(form);
    }
  }

  // Offline, the sign-out cannot reach the site: the phone shows itself signed out at once (its copies and queues
  // are gone already, the worker shows no push of this account), and the sign-out is sent when the network is
  // back: by this page on `online`, or first thing by the next page that opens while this account is still the
  // one signed in (the mark is kept in localStorage, which outlives the tab).
  const PENDING = "shitenno-sign-out";
  function tellWorker(tag) {
    if ("serviceWorker" in navigator && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ account: tag });
    }
  }
  function showSignedOut(form) {
    document.documentElement.hidden = false;
    const main = document.getElementById("main");
    const note = document.createElement("p");
    note.id = "signed-out-offline";
    note.setAttribute("role", "status");
    note.textContent = form.dataset.signedOut;
    if (main) main.replaceChildren(note);
    const who = form.closest(".account");
    if (who) who.replaceChildren(document.createTextNode(form.dataset.signedOutShort));
  }
  function signOutLater(form) {
    try {
      localStorage.setItem(PENDING, account);
    } catch (error) {
      // no storage: this page still sends it when the network is back
    }
    tellWorker("anonymous");
    showSignedOut(form);
    window.addEventListener("online", () => sendSignOut(form), { once: true });
  }
  // 2xx (the site signed it out and showed the next page) or 409 (another account's session on this phone now:
  // this one's is over): done. No answer: shown signed out, sent again at the next `online`.
  async function sendSignOut(form) {
    try {
      const answer = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { "X-Shitenno-Account": account } });
      if (!answer.ok && answer.status !== 409) throw new Error(String(answer.status));
      localStorage.removeItem(PENDING);
    } catch (error) {
      showSignedOut(form);
      window.addEventListener("online", () => sendSignOut(form), { once: true });
      return;
    }
    window.location.replace("/");
  }
  // A page opened while a sign-out of its account waits: that sign-out first (the page is not shown).
  function finishSignOut() {
    let pending;
    try {
      pending = localStorage.getItem(PENDING);
    } catch (error) {
      return false;
    }
    if (!pending) return false;
    const form = document.querySelector("form[data-sign-out]");
    if (pending !== account || !form) { // signed out (or another account signed in) meanwhile: nothing to send
      localStorage.removeItem(PENDING);
      return false;
    }
    tellWorker("anonymous");
    if (navigator.onLine) {
      document.documentElement.hidden = true;
      sendSignOut(form);
    } else {
      signOutLater(form);
    }
    return true;
  }

  window.shitennoSignOut = { finishSignOut, signOut, signingOut };
})();
