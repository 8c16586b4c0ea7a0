"""What a browser posts for a page's form, read from its HTML as the HTML standard builds a form's
data set: named, enabled controls; text-like inputs and text areas with their value (a text area's
line breaks as CRLF); checkboxes and radios only when checked; a select's selected option (else its
first); of the buttons, only the one pressed. Filled-in values replace what the page shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

TEXT_TYPES = {"text", "number", "email", "date", "datetime-local", "hidden", "search", "tel", "url"}


@dataclass
class Control:
    tag: str
    attributes: dict[str, str | None]
    text: str = ""
    options: list[tuple[str, bool]] = field(default_factory=list)  # (value, selected)

    @property
    def name(self) -> str | None:
        return self.attributes.get("name")

    @property
    def kind(self) -> str:
        return (self.attributes.get("type") or ("submit" if self.tag == "button" else "text")).lower()


class FormControls(HTMLParser):
    """The controls inside `<form id="decide">`, in document order."""

    def __init__(self, form_id: str = "decide") -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.controls: list[Control] = []
        self._open: Control | None = None
        self._option: list[str] | None = None
        self._option_selected = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "form" and attributes.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        if tag in {"input", "button"}:
            self.controls.append(Control(tag, attributes))
        elif tag in {"textarea", "select"}:
            self._open = Control(tag, attributes)
            self.controls.append(self._open)
        elif tag == "option" and self._open is not None:
            self._option = []
            self._option_selected = "selected" in attributes
            self._option_value = attributes.get("value")

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option.append(data)
        elif self._open is not None and self._open.tag == "textarea":
            self._open.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "option" and self._open is not None and self._option is not None:
            value = self._option_value if self._option_value is not None else "".join(self._option)
            self._open.options.append((value, self._option_selected))
            self._option = None
        elif tag in {"textarea", "select"}:
            self._open = None


def controls_of(html: str) -> list[Control]:
    parser = FormControls()
    parser.feed(html)
    return parser.controls


def submitted_fields(
    html: str,
    pressed: str,
    typed: dict[str, str] | None = None,
    ticked: set[str] | None = None,
    unticked: set[str] | None = None,
) -> dict[str, str]:
    """The fields posted when the button of value `pressed` is pressed, after typing `typed` (by
    name), ticking the checkboxes/radios `ticked` (by "name" or "name=value") and unticking others."""
    typed, ticked, unticked = typed or {}, ticked or set(), unticked or set()
    posted: dict[str, str] = {}
    for control in controls_of(html):
        name = control.name
        if not name or "disabled" in control.attributes:
            continue
        kind = control.kind
        if control.tag == "button" or kind == "submit":
            if control.attributes.get("value") == pressed:
                posted[name] = pressed
        elif kind in {"checkbox", "radio"}:
            value = control.attributes.get("value") or "on"
            key = f"{name}={value}"
            if kind == "radio" and any(t.startswith(f"{name}=") for t in ticked):
                checked = key in ticked
            else:
                checked = ("checked" in control.attributes or name in ticked or key in ticked) and not (
                    name in unticked or key in unticked
                )
            if checked:
                posted[name] = value
        elif control.tag == "select":
            chosen = [value for value, selected in control.options if selected] or [control.options[0][0]]
            posted[name] = typed.get(name, chosen[0])
        elif control.tag == "textarea":
            text = control.text[1:] if control.text.startswith("\n") else control.text
            posted[name] = typed.get(name, text).replace("\r\n", "\n").replace("\n", "\r\n")
        elif kind in TEXT_TYPES:
            posted[name] = typed.get(name, control.attributes.get("value") or "")
    return posted
