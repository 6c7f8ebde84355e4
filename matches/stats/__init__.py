"""Statistics: a match's box score, a tournament's leaders and the USPA score sheet, all read from
the engine's one fold of each match's log (``officiating.engine.boxscore``; docs/STATISTICS.md)."""
