/* The forfeit page: ask before recording a forfeit (it changes the result everywhere). */
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (!window.confirm(gettext("Record this forfeit? The result will change everywhere."))) e.preventDefault();
    });
  });
})();
