"""The committee's award forms. A player is chosen by roster line (their team and number); the Best
Playing Pony is a horse the log says was ridden (a *mount*) or one the committee types with its
player."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from matches.models import RosterLine

from .models import Award
from .selectors import Mount


def line_label(line: RosterLine) -> str:
    return f"{line.entry.team.name} · #{line.number} {line.player.name}"


def mount_label(mount: Mount) -> str:
    return f"{mount.horse} — {line_label(mount.line)}"


class _AwardForm(forms.Form):
    def __init__(self, *args: Any, lines: list[RosterLine], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lines = {str(line.pk): line for line in lines}
        self.fields["player"].choices = [("", "—"), *((key, line_label(line)) for key, line in self.lines.items())]

    def clean_player(self) -> RosterLine | None:
        value = self.cleaned_data.get("player")
        return self.lines.get(value) if value else None


class MvpForm(_AwardForm):
    kind = Award.Kind.MVP
    player = forms.ChoiceField(label=_("Player"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("player"):
            self.add_error("player", _("Choose the player."))
        return data


class PonyForm(_AwardForm):
    kind = Award.Kind.BEST_PLAYING_PONY
    mount = forms.ChoiceField(
        label=_("Horse from the log"),
        required=False,
        help_text=_("From the log: the horses each player rode. Or type the horse below."),
    )
    player = forms.ChoiceField(label=_("Player who rode it"), required=False)
    horse = forms.CharField(label=pgettext_lazy("an animal", "Horse"), max_length=80, required=False)
    owner = forms.CharField(label=_("Owner"), max_length=120, required=False)
    breeder = forms.CharField(label=_("Breeder"), max_length=120, required=False)

    def __init__(self, *args: Any, lines: list[RosterLine], mounts: list[Mount], **kwargs: Any) -> None:
        super().__init__(*args, lines=lines, **kwargs)
        self.mounts = {m.key: m for m in mounts}
        self.fields["mount"].choices = [("", "—"), *((key, mount_label(m)) for key, m in self.mounts.items())]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        mount = self.mounts.get(data.get("mount") or "")
        data["from_mount"] = mount is not None
        if mount is not None:
            data["player"], data["horse"] = mount.line, mount.horse
        elif not (data.get("player") and (data.get("horse") or "").strip()):
            raise forms.ValidationError(
                _("Choose a horse ridden in the match, or type the horse and choose the player who rode it.")
            )
        return data
