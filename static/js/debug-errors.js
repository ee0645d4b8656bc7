// DEBUG only: when an htmx request ends in a server error (5xx), show Django's debug page in place of the
// document, so the traceback is not lost. A 4xx is an expected refusal (an illegal move, a stale phone, a
// missing right): htmx swaps its answer in like any other, with the reason inline. django-htmx's own debug
// script is not used because it wipes the page on 400, 403 and 404 too.
document.addEventListener("htmx:beforeOnLoad", (event) => {
  const xhr = event.detail.xhr;
  if (xhr.status >= 500 && xhr.response) {
    event.stopPropagation();
    document.documentElement.innerHTML = xhr.response;
  }
});
