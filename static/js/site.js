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

  // The placement form warns, before it is sent, when the kokus tapped come to more than the province's cost:
  // legal (the surplus is lost), but worth a second look. Delegated, as htmx replaces the form after each move.
  function showSurplus(form) {
    const notice = form.querySelector("[data-surplus]");
    const province = form.querySelector('input[name="province"]:checked');
    if (!notice) return;
    const picked = [...form.querySelectorAll('input[name="pay"]:checked')].map((input) => input.value.split(":"));
    const kokus = picked.filter(([kind]) => kind === "k").map(([, value]) => Number(value));
    const plusOne = form.querySelector('select[name="plus_one_on"]');
    const exchange = form.querySelector('select[name="exchange_from"]');
    const onlyKokus = kokus.length && kokus.length === picked.length && !(exchange && exchange.value);
    const paid = kokus.reduce((sum, value) => sum + value, 0) + (plusOne && plusOne.value === "koku" ? 1 : 0);
    const cost = province ? Number(province.dataset.cost) : 0;
    notice.hidden = !(onlyKokus && cost && paid > cost);
    notice.textContent = notice.hidden ? "" : notice.dataset.surplus
      .replace("{paid}", paid).replace("{cost}", cost).replace("{lost}", paid - cost);
  }

  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest('form[data-move="place"]');
    if (form) showSurplus(form);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => setUp(document));
  } else {
    setUp(document);
  }
})();
