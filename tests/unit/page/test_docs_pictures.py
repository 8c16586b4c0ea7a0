"""The pictures in docs/human-page.md are the page as it is: each one the document shows was made by
`make docs-pictures`, and made again since the page's sources last changed."""

from __future__ import annotations

import json
import re

from tests.support.page_sources import MANIFEST, PICTURES, REPO_ROOT, page_source_digest

DOCUMENT = REPO_ROOT / "docs" / "human-page.md"


def test_every_picture_the_document_shows_was_made_and_every_one_made_is_shown() -> None:
    manifest = json.loads((PICTURES / MANIFEST).read_text(encoding="utf-8"))
    shown = set(re.findall(r"!\[[^\]]+\]\(pictures/page/([^)]+)\)", DOCUMENT.read_text(encoding="utf-8")))
    assert shown == set(manifest["pictures"])
    assert {path.name for path in PICTURES.glob("*.png")} == shown


def test_the_pictures_were_made_from_the_page_as_it_is() -> None:
    manifest = json.loads((PICTURES / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["pageSourceDigest"] == page_source_digest(), (
        "the human page changed since its pictures were made: run `make docs-pictures`"
    )
