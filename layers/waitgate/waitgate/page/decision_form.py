"""The form of an interrupt's page, as data: the buttons it offers (`Action`), the fields each reads,
the fields every button reads (`shared`), and how a pressed button and its fields become the resume
value (`build`). One `PageForm` per interrupt is both rendered (`render_form`) and read back from a
posted form (`page.form_resume`), so the page and the server never disagree on a field. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from waitgate.page.schema_answers import ABSENT, read_value
from waitgate.page.schema_controls import EMPTY, Filled, render_field
from waitgate.page.schema_fields import Field

ACTION_FIELD = "action"  # the pressed button's name


class Answers:
    """The posted form, read field by field (each held to its schema)."""

    def __init__(self, form: Mapping[str, str]) -> None:
        self.form = form

    def value(self, target: Field) -> Any:
        return read_value(target, self.form)

    def given(self, target: Field) -> bool:
        return self.value(target) is not ABSENT


Build = Callable[[str, Answers, str], Any]  # (pressed button, the answers, decidedAt) -> resume value


@dataclass(frozen=True)
class Action:
    """One button, and the fields it reads besides the shared ones (shown in a section of its own)."""

    value: str
    label: str
    style: str = ""  # primary | danger
    fields: tuple[Field, ...] = ()
    title: str = ""  # the heading of its section
    intro: str = ""
    folded: bool = False  # the section is closed until opened


@dataclass(frozen=True)
class PageForm:
    actions: tuple[Action, ...]
    build: Build
    shared: tuple[Field, ...] = ()
    shared_by: tuple[str, ...] | None = None  # the buttons that read the shared fields (None: all)

    def fields(self) -> Iterator[Field]:
        for target in (*self.shared, *(f for action in self.actions for f in action.fields)):
            yield from target.walk()

    @property
    def names(self) -> frozenset[str]:
        """Every name this form may post: the button's and each field's."""
        roots = (*self.shared, *(f for action in self.actions for f in action.fields))
        return frozenset({ACTION_FIELD}).union(*(target.names for target in roots))

    def action(self, value: str) -> Action | None:
        return next((action for action in self.actions if action.value == value), None)


def place_errors(
    form: PageForm, errors: Mapping[str, str], pressed: str = ""
) -> tuple[dict[str, str], list[str]]:
    """Each error (by the path the server named) beside the field that path names — the deepest one
    it falls under, the pressed button's own first — and the rest for the summary at the top."""
    pressed_action = form.action(pressed)
    own = {f.name for t in (pressed_action.fields if pressed_action else ()) for f in t.walk()}
    fields = list(form.fields())
    placed: dict[str, str] = {}
    unplaced: list[str] = []
    for path, message in errors.items():
        owners = [f for f in fields if path == f.path or path.startswith((f.path + ".", f.path + "["))]
        if owners:
            owner = max(owners, key=lambda f: (len(f.path), f.name in own))
            placed.setdefault(owner.name, message)
        else:
            unplaced.append(message)
    return placed, unplaced


def render_form(form: PageForm, filled: Filled = EMPTY, only: frozenset[str] | None = None) -> str:
    """The controls of `form` (every action, or `only` those), each section open when it holds an
    error. The caller wraps them in the `<form>`."""
    actions = [action for action in form.actions if only is None or action.value in only]
    with_errors = {name for name in filled.errors}
    parts = [render_field(target, filled) for target in form.shared] if only is None else []
    plain = [action for action in actions if not action.fields]
    if plain:
        buttons = "".join(button(action) for action in plain)
        group = ' role="group" aria-label="Decision"' if len(plain) > 1 else ""
        parts.append(f'<div class="actions"{group}>{buttons}</div>')
    for action in (action for action in actions if action.fields):
        inner = "".join(render_field(target, filled) for target in action.fields)
        # alone on the page (`only`), the page's own heading names the section
        intro = f'<p class="intro">{escape(action.intro)}</p>' if action.intro and only is None else ""
        body = f'{intro}{inner}<div class="actions">{button(action)}</div>'
        names = {f.name for target in action.fields for f in target.walk()}
        marker = f'data-action="{escape(action.value)}"'
        if action.folded and only is None:
            opened = " open" if names & with_errors else ""
            parts.append(
                f'<details class="action" {marker}{opened}><summary>{escape(action.title)}</summary>'
                f'<div class="section">{body}</div></details>'
            )
        elif action.title and only is None:
            parts.append(f'<section class="action" {marker}><h3>{escape(action.title)}</h3>{body}</section>')
        else:
            parts.append(f'<div class="action" {marker}>{body}</div>')
    return "".join(parts)


def button(action: Action) -> str:
    css = f' class="{action.style}"' if action.style else ""
    return (
        f'<button type="submit" name="{ACTION_FIELD}" value="{escape(action.value)}"{css}>'
        f"{escape(action.label)}</button>"
    )
