"""Create (or update) an official: ``manage.py create_official USERNAME --role scorer|umpire|committee``."""
from __future__ import annotations

import getpass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError

from matches.permissions import ROLE_GROUPS


class Command(BaseCommand):
    help = "Create or update an official (committee, umpire or scorer) and set the password."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=ROLE_GROUPS)
        parser.add_argument("--password", help="default: asked at the prompt")
        parser.add_argument("--name", default="", help="full name, shown on reports")
        parser.add_argument("--email", default="")

    def handle(self, *args, username: str, role: str, password: str | None, name: str, email: str, **options) -> None:
        if not password:
            password = getpass.getpass("Password: ")
            if not password:
                raise CommandError("A password is required.")
        User = get_user_model()
        user, created = User.objects.get_or_create(username=username)
        first, _, last = name.partition(" ")
        user.first_name, user.last_name = first, last
        user.email = email or user.email
        # Committee members work in the admin too.
        user.is_staff = role == "committee"
        user.set_password(password)
        user.save()
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        if role == "committee":
            from matches.roles import grant_committee_admin_permissions

            grant_committee_admin_permissions()
        self.stdout.write(f"{'Created' if created else 'Updated'} {role} {username}")
