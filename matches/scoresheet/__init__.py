"""The official scoresheet: the umpires and the referee sign the final result (docs/SCORESHEET.md)."""
