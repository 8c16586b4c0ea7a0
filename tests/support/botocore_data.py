"""One botocore data loader for the whole test process, so that its JSON is parsed once.

Each botocore session builds its own `Loader`, and a loader caches what it reads (service models,
endpoints, partitions, retry rules) only for itself. moto's `mock_aws` starts every test with a new
boto3 default session, and the wiring's caches are cleared between tests, so every test re-parsed
the same files: in the integration tests about a fifth of their CPU went to `json.loads` of
botocore's data. With one loader shared by every session, each file is read once per process; what
a client sees is the same data it saw before (a loader already hands every client of its session
the same parsed objects, which botocore never changes).
"""

from __future__ import annotations

import functools
from typing import Any

import botocore.loaders
import botocore.session


class _SearchPaths(list[str]):
    """A shared loader's search paths: each boto3 session appends boto3's own data folder to its
    loader's; once is enough (a path listed twice would be looked in twice for every new file)."""

    def append(self, path: str) -> None:
        if path not in self:
            super().append(path)


@functools.cache
def _shared_loader(search_path_string: str | None = None) -> botocore.loaders.Loader:
    loader = _plain_create_loader(search_path_string)
    loader._search_paths = _SearchPaths(loader.search_paths)  # the attribute its property reads
    return loader


_plain_create_loader: Any = botocore.loaders.create_loader


def install() -> None:
    """Every botocore session created from now on (boto3's too) uses the process's one loader."""
    botocore.session.create_loader = _shared_loader
