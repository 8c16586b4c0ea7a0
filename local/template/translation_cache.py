"""SAM's translation of the template, kept on disk between starts of the local stack.

Translating template.yaml takes about a second of CPU (samtranslator's import and transform), at every
start of every stack, for the same result while nothing it reads changed. The result is kept under
the repository's .cache/, named by a digest of everything the translation reads: the template as
packaged (so the state machines' ASL files it inlines too), the parameters, the AWS region and the
samtranslator release. Any change to one of them names another file, which the next start writes;
an entry that cannot be read is translated again. Writes are atomic (a stack starting beside another
reads a whole entry or none), and only the newest entries are kept.

The parameters that name this start's URLs (`PER_START`: their ports differ at each start of the e2e
tests' stacks) are left out of the digest: samtranslator leaves every `!Ref` to them as it is, so the
translation does not depend on them (tests/unit/local/test_translation_cache.py checks that on
template.yaml, so a template that changes it fails there first).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

from local.template.sam_template import REPO_ROOT, package_locally, translate

logger = logging.getLogger(__name__)
CACHE_DIR = REPO_ROOT / ".cache" / "translated-templates"
KEPT_ENTRIES = 8
PER_START = frozenset({"JwtIssuer", "PublicBaseUrl", "SlackApiUrl", "DurableEndpointUrl"})


def translate_cached(
    template: dict[str, Any], parameters: dict[str, Any], cache_dir: Path = CACHE_DIR
) -> dict[str, Any]:
    """`translate(template, parameters)`, read from `cache_dir` when this translation was made before."""
    entry = cache_dir / f"{translation_key(template, parameters)}.json"
    try:
        kept: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
        return kept
    except (OSError, ValueError):
        pass  # never made, or unreadable: made again below
    translated = translate(template, parameters)
    try:
        _write(entry, translated)
    except OSError as error:  # a read-only checkout starts as before, translating each time
        logger.debug("the translated template was not kept: %s", error)
    return translated


def translation_key(template: dict[str, Any], parameters: dict[str, Any]) -> str:
    """A digest of what the translation reads (of the parameters, those not `PER_START`)."""
    read = {
        "template": package_locally(template),
        "parameters": {name: value for name, value in parameters.items() if name not in PER_START},
        "region": os.environ.get("AWS_DEFAULT_REGION") or os.environ.get("AWS_REGION"),
        "samtranslator": version("aws-sam-translator"),
    }
    return hashlib.sha256(json.dumps(read, sort_keys=True, default=str).encode()).hexdigest()


def _write(entry: Path, translated: dict[str, Any]) -> None:
    entry.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=entry.parent, suffix=".tmp", delete=False) as handle:
        json.dump(translated, handle)
    os.replace(handle.name, entry)
    older = sorted(entry.parent.glob("*.json"), key=lambda kept: kept.stat().st_mtime, reverse=True)
    for stale in older[KEPT_ENTRIES:]:
        stale.unlink(missing_ok=True)
