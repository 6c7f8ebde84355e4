/* The rules engine on this screen, for when the field has no link (issue 34).
 *
 * The field is the truth: while the link is down the screen keeps what the officials key (the
 * offline queue) and goes on showing the match as the rules say — the clock stopped and run by the
 * keys, the restart and its spot, the timers, the score, the horns and the end of the chukker. The
 * server's own engine does that here: ``officiating/engine/field.py`` under Pyodide, in a worker
 * (matches/officials/field_engine.py serves both). It folds the log this screen has from the server
 * and the entries it keeps, as the server will when they arrive; nothing is worked out in JS.
 *
 *   const engine = new FieldEngine(page.field_engine);   // null urls: not installed (no fold)
 *   engine.fold({config, stored, kept, now, lang, author}) -> Promise<{state, last_seq, refused}>
 *   keepOnDevice(page.field_engine)   // the service worker: the screen opens without a link
 *
 * The worker starts on the first fold (Pyodide takes a few seconds to load; the screen shows the
 * server's state, with its own holds, meanwhile). ``document.documentElement.dataset.fieldEngine``
 * says "loading", "ready" or "failed"; ``dataset.fieldCached`` "true" once the device keeps it all. */

export class FieldEngine {
  constructor(urls) {
    this.urls = urls || null;
    this.worker = null;
    this.ready = null;
    this.calls = new Map();
    this.next = 1;
  }

  get available() { return !!this.urls && typeof Worker === "function"; }

  start() {
    if (!this.available) return Promise.reject(new Error("field-engine-unavailable"));
    if (this.ready) return this.ready;
    const root = document.documentElement;
    root.dataset.fieldEngine = "loading";
    this.worker = new Worker(this.urls.worker, {type: "module"});
    this.worker.onmessage = (e) => {
      const call = this.calls.get(e.data.id);
      if (!call) return;
      this.calls.delete(e.data.id);
      if (e.data.ok) call.resolve(e.data.result); else call.reject(new Error(e.data.error));
    };
    this.ready = this.call("load", {urls: this.urls}).then(
      () => { root.dataset.fieldEngine = "ready"; },
      (error) => {
        root.dataset.fieldEngine = "failed";
        console.warn("PoloField: the field engine did not load:", error.message);
        this.worker.terminate();
        this.worker = null;
        this.ready = null;  // tried again at the next fold
        throw error;
      });
    return this.ready;
  }

  call(kind, data) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, {resolve, reject});
      this.worker.postMessage(Object.assign({id, kind}, data));
    });
  }

  async fold(payload) {
    await this.start();
    return JSON.parse(await this.call("fold", {payload: JSON.stringify(payload)}));
  }
}

/* The service worker that keeps the screens and the engine on the device (field-sw.js). The worker
 * is there at once (a reload without a link opens the screen from it); the engine's 13 MB are
 * fetched once the officials have left the screen alone for ``QUIET_MS``, never while they key an
 * event: on a poor link the download would compete with their first entries, and on the laptop
 * with their screen's own work. */
const QUIET_MS = 8000;

export function keepOnDevice(urls) {
  if (!urls || !navigator.serviceWorker) return;
  navigator.serviceWorker.addEventListener("message", (e) => {
    if (e.data && e.data.type === "field-cached") document.documentElement.dataset.fieldCached = "true";
  });
  navigator.serviceWorker.register(urls.service_worker, {scope: "/"})
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => whenQuiet(() => {
      // This screen and the files it loaded (before the worker was there to keep them) are kept too.
      const loaded = performance.getEntriesByType("resource").map((entry) => entry.name);
      if (registration.active) registration.active.postMessage({type: "precache", pages: [location.href, ...loaded]});
    }))
    .catch((error) => console.warn("PoloField: the screen is not kept on this device:", error.message));
}

/* ``then`` once nobody has pressed a key or touched the screen for QUIET_MS. */
function whenQuiet(then) {
  const busy = ["keydown", "pointerdown"];
  let timer = null;
  const wait = () => { clearTimeout(timer); timer = setTimeout(done, QUIET_MS); };
  const done = () => {
    for (const kind of busy) document.removeEventListener(kind, wait, true);
    then();
  };
  for (const kind of busy) document.addEventListener(kind, wait, true);
  wait();
}
