/* The forfeit page: ask before recording a forfeit (it changes the result everywhere). */
import {gettext} from "./i18n.js";

for (const form of document.querySelectorAll("form[data-confirm]")) {
  form.addEventListener("submit", (e) => {
    if (!window.confirm(gettext("Record this forfeit? The result will change everywhere."))) e.preventDefault();
  });
}
