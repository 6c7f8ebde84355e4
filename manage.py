#!/usr/bin/env python
"""Django's command-line utility for the polo officiating app."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polo.settings")
    # manage.py is the development and operations tool (replay, demo, migrations): with nothing
    # set it runs on the development defaults. The server (ASGI) never goes through here and
    # defaults to production, where SECRET_KEY is required; docker-compose sets DEBUG=false.
    os.environ.setdefault("DEBUG", "true")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
