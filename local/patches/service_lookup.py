"""moto's server finds a request's service without listing its own package on every request.

moto 5.2.5's `DomainDispatcherApplication.get_backend_for_host` asks `backends.list_of_moto_modules()`
for each request it dispatches, and that lists moto's package directory and stats each of its ~170
entries (about 1 ms of CPU a request, at start ~440 requests, and every pump's poll after). The
directory does not change while the process runs, so it is listed once, at install, in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from local.patches import replace_attribute


def install() -> None:
    """Patch moto's (private) module list to the one listing taken now; idempotent. Pin moto."""
    from moto import backends

    def listed_once(original: Callable[[], Iterable[str]]) -> Callable[[], Iterable[str]]:
        modules = tuple(original())

        def list_of_moto_modules() -> Iterable[str]:
            return modules

        return list_of_moto_modules

    replace_attribute(backends, "list_of_moto_modules", listed_once)
