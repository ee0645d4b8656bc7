// Web push on this device (issue 39): the browser's permission is asked only when the member taps "Turn on".
// Every way it can fail is said on the page (the status line is a live region): permission refused or dismissed,
// a browser without push, a browser or push service that fails, and the site refusing the subscription.
(function () {
  "use strict";
  var box = document.getElementById("push");
  if (!box) { return; }
  var state = box.querySelector(".push-state");
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  var url = box.getAttribute("data-devices-url");
  var FAILURES = ["denied", "dismissed", "unsupported", "failed", "refused", "off-failed"];
  var READY_WITHIN = 10000;  // ms: a service worker that never gets ready (blocked, private mode) is a failure

  function say(which, detail) {
    state.textContent = state.getAttribute("data-text-" + which) + (detail ? " " + detail : "");
    state.classList.toggle("error", FAILURES.indexOf(which) >= 0);
    on.hidden = which === "on" || which === "unsupported" || which === "off-failed";
    on.disabled = which === "working";
    off.hidden = which !== "on" && which !== "off-failed";
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("data-hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }
  function key() {  // the VAPID public key, base64url, as the bytes PushManager wants
    var text = box.getAttribute("data-vapid-key").replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(text + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }
  function send(method, subscription) {
    return fetch(url, {method: method, credentials: "same-origin", body: JSON.stringify(subscription),
                       headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()}});
  }
  function ready() {
    return Promise.race([navigator.serviceWorker.ready, new Promise(function (resolve, reject) {
      setTimeout(function () { reject(new Error("the service worker is not ready")); }, READY_WITHIN);
    })]);
  }
  function refused(answer, subscription) {
    // the site said no: say so (with its reason when it is one for people: logged out, push off on the site)
    // and drop the browser's subscription, so the page and the browser agree that push is off
    return answer.json().catch(function () { return {}; }).then(function (body) {
      var readable = answer.status === 401 || answer.status === 409;
      say("refused", readable && body.detail ? body.detail : "");
      return subscription.unsubscribe().catch(function () { return false; });
    });
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }
  say(Notification.permission === "denied" ? "denied" : "off");
  ready().then(function (registration) {
    return registration.pushManager.getSubscription();
  }).then(function (subscription) {
    if (!subscription) { return null; }
    // "on" only when the site holds this browser's device (it drops it when the session that made it ends):
    // otherwise the page says off, and "Turn on" registers the browser's subscription again
    return fetch(url + "?endpoint=" + encodeURIComponent(subscription.endpoint), {credentials: "same-origin"})
      .then(function (answer) { return answer.ok ? answer.json() : {}; })
      .then(function (body) { if (body.on) { say("on"); } });
  }).catch(function () { return null; })  // the first tap says what fails
    .then(function () { box.setAttribute("data-checked", ""); });  // what the page says is the site's truth now
  on.addEventListener("click", function () {
    say("working");
    Promise.resolve(Notification.requestPermission()).then(function (permission) {
      if (permission === "denied") { say("denied"); return null; }
      if (permission !== "granted") { say("dismissed"); return null; }
      return ready().then(function (registration) {
        return registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key()});
      }).then(function (subscription) {
        return send("POST", subscription.toJSON()).then(function (answer) {
          if (answer.ok) { say("on"); return null; }
          return refused(answer, subscription);
        });
      });
    }).catch(function () { say("failed"); });
  });
  off.addEventListener("click", function () {
    ready().then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) { say("off"); return null; }
      return send("DELETE", subscription.toJSON()).then(function () {
        return subscription.unsubscribe();
      }).then(function () { say("off"); });
    }).catch(function () { say("off-failed"); });
  });
}());
