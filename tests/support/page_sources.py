"""What the pictures of docs/human-page.md are made from: the page's own sources (renderers,
template, style, script), the script that takes them and the interrupts they show, as one digest
written beside the pictures (`docs/pictures/page/pictures.json`) when they are made."""

from __future__ import annotations

import hashlib
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
PAGE_SOURCES = REPO_ROOT / "layers" / "waitgate" / "waitgate" / "page"
PICTURE_MAKERS = [REPO_ROOT / "tests" / "e2e" / "page" / name for name in ("docs_pictures.py", "samples.py")]
PICTURES = REPO_ROOT / "docs" / "pictures" / "page"
MANIFEST = "pictures.json"


def page_source_digest() -> str:
    files = sorted(p for p in PAGE_SOURCES.iterdir() if p.suffix in {".py", ".html", ".css"})
    digest = hashlib.sha256()
    for path in [*files, *PICTURE_MAKERS]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return digest.hexdigest()
