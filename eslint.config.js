// The site's own scripts (static/js, and a game's under static/games) by ESLint's recommended rules; `.ci/run`
// and `make lint` run it. The vendored htmx and Workbox builds are theirs, not linted here; the service worker
// (templates/offline/sw.js) is a Django template (the view writes its settings in), which ESLint cannot parse.
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["static/js/htmx.min.js", "static/js/workbox/**", "templates/**", "node_modules/**", ".venv/**",
              "staticfiles/**"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js", "static/games/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser, htmx: "readonly" } },
    // `catch (error) { ... }` where the error itself says nothing more: the scripts fall back, they do not report
    rules: { "no-unused-vars": ["error", { caughtErrors: "none" }] },
  },
  { files: ["eslint.config.js"], languageOptions: { sourceType: "commonjs", globals: globals.node } },
];
