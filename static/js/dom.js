/* Small DOM helpers shared by the pages. */

/* Write only a change: clocks and timers are redrawn on every tick (``live.js``, up to ten a
 * second), and a write of the same value still makes the browser restyle and repaint. */
export function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

export function setHidden(node, hidden) {
  if (node && node.hidden !== hidden) node.hidden = hidden;
}

/* An element with attributes ("text" sets its text, "class" its class; null, undefined and false
 * leave an attribute out, true sets it empty) and children. */
export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of [].concat(children || [])) if (child) node.append(child);
  return node;
}

/* The page's data, from a json_script block. */
export function jsonData(id) {
  return JSON.parse(document.getElementById(id).textContent);
}
