"""The help: a guide per role (scorer, umpires and referee, committee, field steward, streamer),
in English and Spanish, with screenshots of the screens (``tools/screenshots --guides``)."""
