// Web push on this device (issue 39): the browser's permission is asked only when the member taps "Turn on".
(function () {
  "use strict";
  var box = document.getElementById("push");
  if (!box) { return; }
  var state = box.querySelector(".push-state");
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  var url = box.getAttribute("data-devices-url");

  function say(which) {
    state.textContent = state.getAttribute("data-text-" + which);
    on.hidden = which === "on" || which === "unsupported";
    off.hidden = which !== "on";
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
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
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }
  navigator.serviceWorker.ready.then(function (registration) {
    return registration.pushManager.getSubscription();
  }).then(function (subscription) {
    say(subscription ? "on" : (Notification.permission === "denied" ? "denied" : "off"));
  });
  on.addEventListener("click", function () {
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say("denied"); return null; }
      return navigator.serviceWorker.ready.then(function (registration) {
        return registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key()});
      }).then(function (subscription) {
        return send("POST", subscription.toJSON()).then(function (answer) {
          if (answer.ok) { say("on"); }
        });
      });
    });
  });
  off.addEventListener("click", function () {
    navigator.serviceWorker.ready.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) { say("off"); return null; }
      return send("DELETE", subscription.toJSON()).then(function () {
        return subscription.unsubscribe();
      }).then(function () { say("off"); });
    });
  });
}());
