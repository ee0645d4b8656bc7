// Small behaviours of every page, kept out of the HTML so that a Content-Security-Policy without
// 'unsafe-inline' can be set: elements opt in with data- attributes.
(() => {
  // <button data-share="#join-link" data-share-title="…" data-label-share="Share…" data-label-copy="Copy…"
  //  data-copied="Copied" hidden>: the phone's share sheet where it has one (Web Share API), else copy the link.
  // Hidden until this script shows it, so a phone without JavaScript is not offered a dead button.
  function setUpShare(button) {
    const canShare = typeof navigator.share === "function";
    const canCopy = navigator.clipboard && typeof navigator.clipboard.writeText === "function";
    if (!canShare && !canCopy) return;
    const label = canShare ? button.dataset.labelShare : button.dataset.labelCopy;
    if (label) button.textContent = label;
    const status = document.getElementById(button.getAttribute("aria-describedby") || "") || null;
    button.hidden = false;
    button.addEventListener("click", async () => {
      const field = document.querySelector(button.dataset.share);
      const url = field ? field.value || field.href : window.location.href;
      try {
        if (canShare) {
          await navigator.share({ title: button.dataset.shareTitle || document.title, url });
        } else {
          await navigator.clipboard.writeText(url);
          if (status) status.textContent = button.dataset.copied || "";
        }
      } catch (error) {
        // The user closed the share sheet, or the clipboard was refused: the link stays on screen to copy by hand.
        if (field && field.select) field.select();
      }
    });
  }

  // <form data-focus-error>: a form sent back with errors shows each beside its field; the page opens on the
  // first of them, focused, rather than on a message far above the field to change.
  function focusFirstError(form) {
    const field = form.querySelector(".invalid input:not([type=hidden]), .invalid select, .invalid textarea");
    if (!field) return;
    field.scrollIntoView({ block: "center" });
    field.focus({ preventScroll: true });
  }

  function setUp(root) {
    root.querySelectorAll("form[data-focus-error]").forEach(focusFirstError);
    root.querySelectorAll("[data-share]").forEach(setUpShare);
    // A read-only link field selects itself when tapped, ready to copy by hand.
    root.querySelectorAll("input.copy[readonly]").forEach((input) => {
      input.addEventListener("focus", () => input.select());
      input.addEventListener("click", () => input.select());
    });
    // <select data-autosubmit>: choosing sends the form (the language switch); a <noscript> button does otherwise.
    root.querySelectorAll("select[data-autosubmit]").forEach((select) => {
      select.addEventListener("change", () => select.form.submit());
    });
  }

  // After a move is sent, htmx swaps the whole table body: the phone stays where it was, unless a refusal's
  // reason is off the screen (it is brought into view) or the move panel, or the result, has left the screen
  // above (the page got shorter): then the panel's top is shown. Polls leave the scroll alone.
  let scrolledTo = null;
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt && event.detail.elt.tagName === "FORM") scrolledTo = window.scrollY;
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (scrolledTo === null || !document.getElementById("table-body")) return;
    const y = scrolledTo;
    scrolledTo = null;
    if (Math.abs(window.scrollY - y) > 1) window.scrollTo(0, y);
    const refusal = document.querySelector("#table-body .field-error, #table-body .move-error, #table-body .notice.stale");
    const now = document.getElementById("now");
    if (refusal) {
      const box = refusal.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) refusal.scrollIntoView({ block: "center" });
    } else if (now && now.getBoundingClientRect().bottom < window.innerHeight / 4) {
      now.scrollIntoView({ block: "start" });
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => setUp(document));
  } else {
    setUp(document);
  }
})();
