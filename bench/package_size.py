"""Deployment package sizes, zipped: the layer (package + its third-party deps) and each function."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from bench.report import Row

REPO = Path(__file__).resolve().parents[1]
LAYER_TARGET = 10 * 1024 * 1024
FUNCTION_TARGET = 50 * 1024


def built_tree(folder: Path) -> bool:
    """A sam build artifact (its __pycache__ is shipped), not the repository's tree (whose is not)."""
    return ".cache" in folder.parts


def zipped_size(folder: Path, prefix: str = "") -> int:
    buffer = io.BytesIO()
    shipped = built_tree(folder)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and (shipped or "__pycache__" not in path.parts):
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
    rows.append(_built_layer())
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
        "jmespath",
        "aws_xray_sdk",
        "wrapt",
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


def _built_layer() -> Row:
    """The layer `sam build` makes (bench/built.py): the wheels for the architecture, and bytecode."""
    from bench import built

    try:
        artifact = built.built()
    except built.NotBuilt as why:
        return Row("package", "built layer (sam build): not measured", 0, "", note=str(why))
    size = zipped_size(artifact.layer(), "python/")
    return Row(
        "package",
        f"built layer (sam build, {artifact.architecture}, with .pyc, zipped)",
        size / 1024 / 1024,
        "MiB",
        "≤ 10 MiB",
        size <= LAYER_TARGET,
        "what deploys: the layer's wheels and the bytecode python3.13 compiled (docs/performance.md)",
    )
