"""Deployment package sizes, zipped: the layer (package + its third-party deps) and each function."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from bench.report import Row

REPO = Path(__file__).resolve().parents[1]
LAYER_TARGET = 10 * 1024 * 1024
FUNCTION_TARGET = 50 * 1024


def zipped_size(folder: Path, prefix: str = "") -> int:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                archive.write(path, prefix + str(path.relative_to(folder)))
    return buffer.tell()


def run() -> list[Row]:
    rows = []
    layer = zipped_size(REPO / "layers" / "waitgate", "python/")
    rows.append(
        Row(
            "package",
            "layer: waitgate package (zipped)",
            layer / 1024,
            "KiB",
            "≤ 10 MiB",
            layer <= LAYER_TARGET,
            "third-party deps (powertools, pydantic, jsonschema) are built by `sam build` from "
            "requirements; see layer_with_deps",
        )
    )
    rows.append(_layer_with_deps())
    for function in sorted((REPO / "functions").iterdir()):
        if (function / "app.py").is_file():
            size = zipped_size(function)
            rows.append(
                Row(
                    "package",
                    f"function {function.name} (zipped)",
                    size / 1024,
                    "KiB",
                    "≤ 50 KiB",
                    size <= FUNCTION_TARGET,
                )
            )
    return rows


def _layer_with_deps() -> Row:
    """What `sam build` puts in the layer: our package plus the runtime deps (without boto3,
    which the Lambda runtime provides), measured from the installed site-packages."""
    import importlib.util

    total = zipped_size(REPO / "layers" / "waitgate")
    for package in (
        "aws_lambda_powertools",
        "pydantic",
        "pydantic_core",
        "jsonschema",
        "jsonschema_specifications",
        "referencing",
        "rpds",
        "attrs",
        "typing_extensions",
        "annotated_types",
        "typing_inspection",
    ):
        spec = importlib.util.find_spec(package)
        if spec and spec.submodule_search_locations:
            total += zipped_size(Path(next(iter(spec.submodule_search_locations))))
        elif spec and spec.origin:
            total += Path(spec.origin).stat().st_size // 3
    return Row(
        "package",
        "layer incl. runtime deps (zipped)",
        total / 1024 / 1024,
        "MiB",
        "≤ 10 MiB",
        total <= LAYER_TARGET,
    )
