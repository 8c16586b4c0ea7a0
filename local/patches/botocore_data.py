"""One botocore data loader for the stack's process, so that each of botocore's JSON files is parsed once.

Each botocore session builds its own `Loader`, which caches what it reads (service models, endpoints,
partitions) only for itself. The stack's process makes several sessions: boto3's default one, moto's
own (`BaseBackend.get_session`), three of moto's EC2 module for its region list at import, the
handlers' clients. A start parsed ec2's 2.5 MB model three times and endpoints.json five (about 1.1 of
its ~5.5 CPU-s went to botocore's JSON). With one loader shared by every session, each file is read
once a process; what a client sees is the data it saw before (a loader already hands every client of
its session the same parsed objects, which botocore never changes). moto's own loader (its service
models with moto's extras merged in) is left apart. The test processes install it too
(tests/conftest.py).
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


_plain_create_loader: Any = botocore.loaders.create_loader


@functools.cache
def _shared_loader(search_path_string: str | None = None) -> botocore.loaders.Loader:
    loader = _plain_create_loader(search_path_string)
    loader._search_paths = _SearchPaths(loader.search_paths)  # the attribute its property reads
    return loader


def install() -> None:
    """Every botocore session created from now on (boto3's and moto's) uses the process's one loader
    (idempotent)."""
    botocore.session.create_loader = _shared_loader
