"""The human page: an interrupt rendered for a person, with a form that a deliberate press of a
button posts (pure, no I/O): the page of each kind (`render`), its form as data (`decision_form`,
`approval_form`, `kind_forms`), JSON Schema → form fields → a resume value (`schema_fields`,
`schema_controls`, `schema_answers`), and the pages that say what came of it (`answered`)."""

from waitgate.page.answered import Resolution, answer_page, resolved_page
from waitgate.page.render import PageContext, Refusal, RenderedPage, error_page, interrupt_page

__all__ = [
    "PageContext",
    "Refusal",
    "RenderedPage",
    "Resolution",
    "answer_page",
    "error_page",
    "interrupt_page",
    "resolved_page",
]
