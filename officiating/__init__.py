"""The rules service: the pure rules engine (``officiating.engine``) and its replay command."""
