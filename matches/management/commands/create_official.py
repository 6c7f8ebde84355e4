"""Create (or update) an official::

    manage.py create_official USERNAME --role scorer|umpire|committee [--tournament ID ...] [--federation]

A committee member runs only the tournaments they are assigned to: ``--tournament ID`` (repeatable)
assigns them (recorded in each tournament's audit trail). ``--federation`` makes the user one of the
server's operators, the committee of every tournament, who assign the committees in the admin.
"""

from __future__ import annotations

import getpass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from matches.committee.services import committee_assign
from matches.models import Tournament
from matches.permissions import COMMITTEE_GROUP, FEDERATION_GROUP, ROLE_GROUPS


class Command(BaseCommand):
    help = "Create or update an official (committee, umpire or scorer) and set the password."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=ROLE_GROUPS)
        parser.add_argument("--password", help="default: asked at the prompt")
        parser.add_argument("--name", default="", help="full name, shown on reports")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--tournament",
            type=int,
            action="append",
            default=[],
            metavar="ID",
            help="(committee) assign to this tournament's committee; repeatable",
        )
        parser.add_argument(
            "--federation",
            action="store_true",
            help="(committee) the federation: the committee of every tournament, assigns the others",
        )

    def handle(
        self,
        *args,
        username: str,
        role: str,
        password: str | None,
        name: str,
        email: str,
        tournament: list[int],
        federation: bool,
        **options,
    ) -> None:
        if (tournament or federation) and role != COMMITTEE_GROUP:
            raise CommandError("--tournament and --federation are for --role committee.")
        tournaments = list(Tournament.objects.filter(pk__in=tournament))
        missing = sorted(set(tournament) - {t.pk for t in tournaments})
        if missing:
            raise CommandError(f"No such tournament: {', '.join(map(str, missing))}.")
        if not password:
            password = getpass.getpass("Password: ")
            if not password:
                raise CommandError("A password is required.")
        with transaction.atomic():
            user, created = self._official(username, role, password, name, email, federation)
            for each in tournaments:
                committee_assign(member=user, tournament=each)  # by the server's shell: the federation
        self.stdout.write(f"{'Created' if created else 'Updated'} {role} {username}")
        if federation:
            self.stdout.write("  federation: the committee of every tournament")
        for each in tournaments:
            self.stdout.write(f"  assigned to the committee of {each.name} (#{each.pk})")
        if role == COMMITTEE_GROUP and not federation and not tournaments:
            if not user.committee_assignments.filter(revoked_at__isnull=True).exists():
                self.stdout.write("  no tournament yet: create one, or assign one with --tournament ID")

    def _official(self, username: str, role: str, password: str, name: str, email: str, federation: bool):
        User = get_user_model()
        user, created = User.objects.get_or_create(username=username)
        first, _, last = name.partition(" ")
        user.first_name, user.last_name = first, last
        user.email = email or user.email
        # Committee members work in the admin too.
        user.is_staff = role == COMMITTEE_GROUP
        user.set_password(password)
        user.save()
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        if role == COMMITTEE_GROUP:
            from matches.roles import grant_committee_admin_permissions, grant_federation_admin_permissions

            grant_committee_admin_permissions()
            if federation:
                grant_federation_admin_permissions()
                user.groups.add(Group.objects.get(name=FEDERATION_GROUP))
        return user, created
