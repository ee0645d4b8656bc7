"use strict";
// The API docs page, as Swagger UI draws it, made whole for assistive technology: its operation groups (<h3>)
// and its "Schemas" (<h4>) sit right below the page's <h1>, so they are the second level (headings must not
// skip one); its title block is the page's banner (every part of a page belongs to a landmark).
new MutationObserver(() => {
  for (const heading of document.querySelectorAll(".swagger-ui h3.opblock-tag:not([aria-level]), .swagger-ui section.models > h4:not([aria-level])")) {
    heading.setAttribute("aria-level", "2");
  }
  const info = document.querySelector(".swagger-ui .information-container:not([role])");
  if (info) info.setAttribute("role", "banner");
}).observe(document.documentElement, {childList: true, subtree: true});
