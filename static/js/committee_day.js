/* The day and the bracket: team colours (CSP: no inline styles, so they are set from here). */
(function () {
  "use strict";
  document.querySelectorAll(".swatch[data-color]").forEach(function (el) {
    if (/^#[0-9a-fA-F]{6}$/.test(el.dataset.color)) el.style.setProperty("background-color", el.dataset.color);
  });
})();
