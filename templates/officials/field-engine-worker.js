/* The field engine's worker (issue 34; matches/officials/field_engine.py): the rules engine of the
 * server (officiating/engine), run in the browser under Pyodide, so that an official's screen shows
 * the match as the rules say while the link is down. Messages in: {id, kind: "load", urls} once,
 * then {id, kind: "fold", payload} (officiating.engine.field.field_state's JSON); out: {id, ok,
 * result | error}. */
let engine = null;

async function load(urls) {
  const {loadPyodide} = await import(urls.pyodide + "pyodide.mjs");
  const py = await loadPyodide({indexURL: urls.pyodide});
  const answer = await fetch(urls.engine);
  if (!answer.ok) throw new Error("the engine could not be fetched: " + answer.status);
  py.unpackArchive(new Uint8Array(await answer.arrayBuffer()), "zip", {extractDir: "/field-engine"});
  py.runPython("import sys\nsys.path.insert(0, '/field-engine')\nfrom officiating.engine.field import field_state");
  return py.globals.get("field_state");
}

self.onmessage = async (e) => {
  const {id, kind} = e.data || {};
  try {
    if (kind === "load") {
      engine = engine || load(e.data.urls);
      await engine;
      self.postMessage({id, ok: true});
      return;
    }
    if (!engine) throw new Error("the engine is not loaded");
    const fieldState = await engine;
    self.postMessage({id, ok: true, result: fieldState(e.data.payload)});
  } catch (error) {
    if (kind === "load") engine = null;
    self.postMessage({id, ok: false, error: String((error && error.message) || error)});
  }
};
