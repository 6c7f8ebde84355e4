// The lint gate of static/js (tools/lint-js; CI runs it): eslint's recommended rules on the pages'
// ES modules in the browser, and the one dialect they are written in (const/let, never var).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: globals.browser},
    rules: {"no-var": "error", "prefer-const": "error"},
  },
  {
    files: ["eslint.config.js"],
    languageOptions: {sourceType: "module", globals: globals.node},
  },
];
