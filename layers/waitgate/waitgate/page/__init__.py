"""The human page: an interrupt rendered for a person, with a deliberate-click form (pure, no I/O)."""

from waitgate.page.answered import answer_page
from waitgate.page.render import PageContext, RenderedPage, error_page, interrupt_page

__all__ = ["PageContext", "RenderedPage", "answer_page", "error_page", "interrupt_page"]
