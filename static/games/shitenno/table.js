// Shitennō's placement form (templates/games/shitenno/panel.html), put in the page's head by the Shitennō adapter
// (games/plugins/shitenno: `scripts`). Like static/js/site.js it is driven by data- attributes, so a
// Content-Security-Policy without 'unsafe-inline' can be set; without it the form still works, and the server says
// next to each field what is missing.
(() => {
  // The placement form warns, before it is sent, when the kokus tapped come to more than the province's cost:
  // legal (the surplus is lost), but worth a second look.
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

  // The placement form shows the gate's fields the chosen province needs: the bonus face of the tile taken at
  // positions 1-3 (data-gate-needs="1": one tile or more on the gate), the troop face it uncovers at 1-2 ("2").
  // The others are hidden and disabled, so nothing left in them is sent.
  function showGateFields(form) {
    const province = form.querySelector('input[name="province"]:checked');
    const tiles = province ? Number(province.dataset.tiles) : -1;
    form.querySelectorAll("[data-gate-needs]").forEach((field) => {
      const needed = tiles >= Number(field.dataset.gateNeeds);
      field.hidden = !needed;
      field.querySelectorAll("select").forEach((select) => {
        select.disabled = !needed;
        if (needed) select.setAttribute("aria-required", "true"); else select.removeAttribute("aria-required");
      });
    });
    const fieldset = form.querySelector("[data-gate]");
    if (fieldset) fieldset.hidden = !(tiles > 0);
  }

  const PLACE = 'form[data-move="place"]';

  // Delegated: htmx replaces the form after each move and each poll, and this script, in the head, stays.
  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest(PLACE);
    if (form) {
      showSurplus(form);
      showGateFields(form);
    }
  });

  // Content htmx swaps in (the table body after each move or poll) is set up like the page.
  document.addEventListener("htmx:load", (event) => {
    if (event.target.querySelectorAll) event.target.querySelectorAll(PLACE).forEach(showGateFields);
  });

  function setUp() {
    document.querySelectorAll(PLACE).forEach(showGateFields);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
