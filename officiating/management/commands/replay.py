"""``python manage.py replay FILE [--each] [--lang es]``: fold a match log and print the result.

Exactly the contract's last section (docs/MATCH-LOG.md): one JSON object on standard
output, exit status 0 when the file was read (rejected events are results), 2 with a one-line
message on standard error when it is not a valid match log. No database, no server.

Both ways the JSON is strict (RFC 8259): ``NaN`` and ``Infinity``, which Python's json module
would read and write, are refused in the file and never printed; so is a file nested deeper than
the parser goes. A config the engine refuses (numbers out of bounds, a tack allowance Rule 21.g
does not give: ``MatchConfig.from_dict``) is an invalid match log.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from officiating.engine import InvalidLog, replay


class Command(BaseCommand):
    help = "Replay a match log (a file, or - for standard input) and print the results and the state."
    requires_system_checks: tuple[str, ...] = ()  # the replay needs no database and no checks
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="the match-log JSON file, or - for standard input")
        parser.add_argument("--each", action="store_true", help="add the state after every event")
        parser.add_argument(
            "--lang", default="en", help="language of the messages: en (default) or es; others fall back to English"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
        except (OSError, UnicodeDecodeError) as e:
            raise CommandError(f"cannot read {path}: {e}".replace("\n", " "), returncode=2) from None
        try:
            data = json.loads(text, parse_constant=_not_json)
        except ValueError as e:
            raise CommandError(f"not a valid match log: not JSON ({e})".replace("\n", " "), returncode=2) from None
        except RecursionError:
            raise CommandError("not a valid match log: not JSON (nested too deep)", returncode=2) from None
        try:
            out = replay(data, each=options["each"], lang=options["lang"])
        except InvalidLog as e:
            raise CommandError(f"not a valid match log: {e}".replace("\n", " "), returncode=2) from None
        try:
            text = json.dumps(out, ensure_ascii=False, allow_nan=False)
        except ValueError as e:  # (the config's bounds keep every number finite: a bug, said in one line)
            raise CommandError(f"the replay's result is not JSON: {e}", returncode=2) from None
        self.stdout.write(text)


def _not_json(constant: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``: Python's json module reads them; JSON has none."""
    raise ValueError(f"{constant} is not a JSON number")
