/* The refusal codes the pages act on.
 *
 * CODES are the server's (the engine's rejections, officiating/engine, and the app's,
 * matches/services.py): the pages branch on them. PAGE_CODES are the pages' own, for a refusal a
 * screen shows before anything is sent (a void the user may not make, a match already over);
 * none is a server code. tests/browser/test_js_vocabulary.py checks both. */
export const CODES = Object.freeze({
  STALE_SEQUENCE: "stale_sequence",                // 409: the log moved on since the entry began
  VOID_WOULD_INVALIDATE: "void_would_invalidate",  // later events rest on the void's target
  VOID_NOT_PERMITTED: "void_not_permitted",        // this role may not void that event
  CLOCK_TOO_OLD: "clock_too_old",                  // kept at the field longer than the server takes as kept
});

export const PAGE_CODES = Object.freeze({
  REFUSED: "refused",                  // an answer with no code of its own
  OFFLINE: "offline",                  // no connection
  NOTHING_TO_VOID: "nothing_to_void",  // "void last" on an empty log
  MATCH_CLOSED: "match_closed",        // a game event on a match over, abandoned or suspended
});
