"""What deploys: `sam build` of template.yaml (BuildMethod makefile: the layer's wheels and bytecode
compiled by the runtime's Python), for this machine's architecture, and the runtime's Python to import
it with. Shared by the cold-start rows of the built artifact (bench/cold_start.py).

`make bench` bootstraps what this needs: aws-sam-cli in its own venv under .cache/sam (SAM), and names
the runtime's Python (WAITGATE_RUNTIME_PYTHON: python3.13 on PATH, else pyenv's 3.13). A machine
without Python 3.13 gets the dev-tree rows and one row saying the built rows were skipped, and why.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / ".cache" / "bench-build"
RUNTIME = "3.13"
BOTO3 = "boto3==1.44.8"  # the runtime ships its own boto3; ours, for the import to find one


class NotBuilt(Exception):
    """Why the built artifact cannot be measured here (no sam, no runtime Python, a failed build)."""


@dataclass(frozen=True)
class Built:
    root: Path  # the build directory: <LogicalId>/ per function, WaitgateLayer/python
    python: str  # the runtime's interpreter
    sdk: Path  # boto3 for that interpreter (Lambda's runtime has its own)
    architecture: str

    def layer(self) -> Path:
        return self.root / "WaitgateLayer" / "python"

    def function(self, logical_id: str) -> Path:
        return self.root / logical_id


def architecture() -> str:
    return "arm64" if platform.machine() in ("aarch64", "arm64") else "x86_64"


def runtime_python() -> str:
    """The template's runtime's Python: WAITGATE_RUNTIME_PYTHON, python3.13, or pyenv's 3.13.x."""
    candidates = [os.environ.get("WAITGATE_RUNTIME_PYTHON", ""), f"python{RUNTIME}"]
    pyenv_root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    candidates += sorted(str(p) for p in Path(pyenv_root).glob(f"versions/{RUNTIME}*/bin/python{RUNTIME}"))
    check = f"import sys; assert sys.version_info[:2] == ({RUNTIME.replace('.', ',')}); print(sys.executable)"
    for candidate in filter(None, candidates):
        probe = subprocess.run([candidate, "-c", check], capture_output=True, text=True, check=False)
        if probe.returncode == 0:
            return probe.stdout.strip()
    raise NotBuilt(f"no Python {RUNTIME} (the template's runtime) here: pyenv install {RUNTIME}, or set "
                   "WAITGATE_RUNTIME_PYTHON")  # fmt: skip


def sam() -> str:
    found = os.environ.get("SAM") or shutil.which("sam") or str(REPO / ".cache" / "sam" / "bin" / "sam")
    if not Path(found).is_file() and not shutil.which(found):
        raise NotBuilt("no sam: `make bench` installs aws-sam-cli under .cache/sam")
    return found


def variant(arch: str) -> Path:
    """template.yaml for `arch`: the same template, with its architecture replaced."""
    text = (REPO / "template.yaml").read_text(encoding="utf-8")
    if arch != "arm64":
        text = re.sub(r"\barm64\b", arch, text)
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"template.{arch}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@cache
def built() -> Built:
    """sam build of the template for this machine's architecture, under .cache/bench-build/."""
    python, arch = runtime_python(), architecture()
    root = CACHE / f"build-{arch}"
    environment = {**os.environ, "WAITGATE_RUNTIME_PYTHON": python, "WAITGATE_BUILD_ARCH": arch,
                   "SAM_CLI_TELEMETRY": "0"}  # fmt: skip
    done = subprocess.run(
        [sam(), "build", "--template-file", str(variant(arch)), "--base-dir", str(REPO),
         "--build-dir", str(root), "--parallel"],
        capture_output=True, text=True, env=environment, cwd=REPO, check=False, timeout=600,
    )  # fmt: skip
    if done.returncode != 0:
        raise NotBuilt(f"sam build failed: {(done.stdout + done.stderr)[-600:]}")
    sdk = CACHE / f"sdk-{RUNTIME}"
    if not (sdk / "boto3").is_dir():
        pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "--target", str(sdk), BOTO3], check=True, capture_output=True, timeout=600)
    return Built(root, python, sdk, arch)


def bytecode_of(layer: Path) -> tuple[int, int]:
    """(.py sources, those with a cpython-313 .pyc beside them) in the built layer."""
    sources = [p for p in layer.rglob("*.py") if "__pycache__" not in p.parts]
    tag = f"cpython-{RUNTIME.replace('.', '')}"
    compiled = [p for p in sources if (p.parent / "__pycache__" / f"{p.stem}.{tag}.pyc").is_file()]
    return len(sources), len(compiled)


if __name__ == "__main__":
    try:
        print(built())
    except NotBuilt as why:
        sys.exit(str(why))
