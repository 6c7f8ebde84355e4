/* The day and the bracket: team colours (CSP: no inline styles, so they are set from here). */
for (const swatch of document.querySelectorAll(".swatch[data-color]")) {
  if (/^#[0-9a-fA-F]{6}$/.test(swatch.dataset.color)) swatch.style.setProperty("background-color", swatch.dataset.color);
}
