// The round clock of a tournament day (issue 51): counts down to the round's end, which the page states
// (data-ends: the round's stored start plus the tournament's clock length, in ISO 8601). Without this script the
// page says when the round ends; with it, minutes and seconds left, then "Time is up" (data-over). Looked up on
// every tick, so a part htmx swaps in (the wall's poll) keeps counting.
(function () {
  "use strict";
  function pad(n) { return n < 10 ? "0" + n : String(n); }
  function tick() {
    document.querySelectorAll("[data-round-clock]").forEach(function (clock) {
      var ends = Date.parse(clock.getAttribute("data-ends"));
      var left = clock.querySelector("[data-clock-left]");
      if (isNaN(ends) || !left) { return; }
      var seconds = Math.round((ends - Date.now()) / 1000);
      if (seconds <= 0) {
        left.textContent = clock.getAttribute("data-over");
        clock.classList.add("over");
      } else {
        var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
        left.textContent = (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s);
        clock.classList.remove("over");
      }
    });
  }
  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);
}());
