"""The human page: an interrupt rendered for a person, with a deliberate-click form (pure, no I/O)."""

from waitgate.page.render import PageContext, RenderedPage, error_page, interrupt_page

__all__ = ["PageContext", "RenderedPage", "error_page", "interrupt_page"]
