"""`make docs-check`: every ```bash block of README.md and docs/*.md runs, in order, against a local
stack this test starts (its own state dir and ports), as a reader would run them in one terminal.

Each document's blocks run in one bash session (`set -eo pipefail`, variables carry over from block
to block), from the repository root, with WAITGATE_STATE_DIR pointing at the test's stack. HTML
comments right before a block steer it:
- `<!-- docs-check: aws-only -->`: needs an AWS account (e.g. `sam deploy`); not run.
- `<!-- docs-check: local-stack -->`: starts the local stack (`make dev`); the test's own stack
  stands in for it, and the block is not run.
- `<!-- docs-check: browser -->`: after the block, do what the reader does in a browser with the
  link the block printed: open the page, press Accept (tests/e2e/docs_browser.py).
- `<!-- docs-check: expect TEXT -->`: the block's output must contain TEXT.
- `<!-- docs-check: setup -->` (README only): the shell set-up every other document assumes ("a shell
  set up as in the README's step 0"); it runs first in each document's session.
- `<!-- docs-check: prints -->` before a ```text block: that block is what the bash block before it
  prints, line for line. In a shown line `…` stands for any text (a link, a time, an id); a line that
  is only `…` stands for any number of lines. So what the docs say a command prints is what it prints.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from tests.e2e.conftest import DOCS_STACK, REPO_ROOT, LocalStackHandle, running_stack

pytestmark = [pytest.mark.e2e, DOCS_STACK]

DOCUMENTS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(bash|text)\n(.*?)^```", re.MULTILINE | re.DOTALL)
DIRECTIVE = re.compile(r"<!--\s*docs-check:\s*(.*?)\s*-->")
SKIPPED = {"aws-only", "local-stack"}
BLOCK_TIMEOUT_SECONDS = 240


@dataclass(frozen=True)
class Block:
    document: str
    line: int
    script: str
    directives: tuple[str, ...] = ()
    prints: tuple[str, ...] | None = None  # the lines of its `prints` block, when the docs show one

    @property
    def skipped(self) -> bool:
        return bool(SKIPPED & set(self.directives))

    @property
    def expected(self) -> list[str]:
        return [d.removeprefix("expect ").strip() for d in self.directives if d.startswith("expect ")]


@dataclass
class Session:
    """The driver script of one document's blocks and where each block's output goes."""

    blocks: list[Block]
    folder: Path
    lines: list[str] = field(default_factory=list)

    def script(self) -> str:
        self.lines = ["set -eo pipefail", f"cd {_quote(REPO_ROOT)}"]
        for index, block in enumerate(self.blocks):
            source = self.folder / f"block-{index}.sh"
            source.write_text(block.script, encoding="utf-8")
            output = self.folder / f"block-{index}.out"
            self.lines += [
                f"echo '@@docs-check block {index}'",
                f"source {_quote(source)} > {_quote(output)}",
                f"cat {_quote(output)}",
            ]
            if "browser" in block.directives:
                self.lines.append(
                    f"{_quote(Path(sys.executable))} -m tests.e2e.docs_browser {_quote(output)}"
                )
        self.lines.append("echo '@@docs-check done'")
        return "\n".join(self.lines) + "\n"


def _quote(path: Path) -> str:
    return "'" + str(path).replace("'", "'\\''") + "'"


def blocks_of(document: Path) -> list[Block]:
    """The document's bash blocks, each with its directives and the `prints` block that follows it."""
    text = document.read_text(encoding="utf-8")
    found: list[Block] = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").splitlines()
        directives: list[str] = []
        while before and (directive := DIRECTIVE.fullmatch(before[-1].strip())):
            directives.insert(0, directive.group(1))
            before.pop()
        line = text.count("\n", 0, match.start()) + 1
        language, body = match.group(1), match.group(2)
        if language == "bash":
            found.append(Block(str(document.relative_to(REPO_ROOT)), line, body, tuple(directives)))
        elif "prints" in directives:
            assert found, f"{document.name}:{line}: a `prints` block needs a bash block before it"
            found[-1] = replace(found[-1], prints=tuple(body.rstrip("\n").split("\n")))
    return found


def shown_line(shown: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in shown.split("…")))


def prints_as_shown(shown: tuple[str, ...], printed: list[str]) -> bool:
    """Whether `printed` is `shown` line for line, `…` matching any text, a lone `…` any lines."""
    if not shown:
        return not printed
    if shown[0].strip() == "…":
        return any(prints_as_shown(shown[1:], printed[skip:]) for skip in range(len(printed) + 1))
    return (
        bool(printed)
        and bool(shown_line(shown[0]).fullmatch(printed[0]))
        and prints_as_shown(shown[1:], printed[1:])
    )


def setup_blocks() -> list[Block]:
    return [block for block in blocks_of(REPO_ROOT / "README.md") if "setup" in block.directives]


def documents_with_blocks() -> list[Path]:
    return [document for document in DOCUMENTS if blocks_of(document)]


@pytest.fixture(scope="module")
def docs_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStackHandle]:
    """A stack of the docs' own, so the fixed run names of the walk-throughs are fresh."""
    with running_stack(tmp_path_factory.mktemp("docs-stack")) as stack:
        yield stack


def test_every_bash_block_is_found() -> None:
    # Given the docs, Then the README's walk-through is among the blocks that run
    readme = [block for block in blocks_of(REPO_ROOT / "README.md") if not block.skipped]
    assert any("dev-inbox" in block.script for block in readme)
    assert len(setup_blocks()) == 1
    # And what the walk-through says it prints is checked
    assert sum(block.prints is not None for block in readme) >= 3


@pytest.mark.parametrize(
    ("shown", "printed", "same"),
    [
        (("a b",), ["a b"], True),
        (("a b",), ["a c"], False),
        (("link http://…/x",), ["link http://127.0.0.1:3000/x"], True),
        (("one", "…", "four"), ["one", "two", "three", "four"], True),
        (("one", "…"), ["one"], True),
        (("one", "two"), ["one", "two", "three"], False),
        (("one", "two", "three"), ["one", "two"], False),
    ],
)
def test_prints_blocks_compare_line_for_line(shown: tuple[str, ...], printed: list[str], same: bool) -> None:
    assert prints_as_shown(shown, printed) is same


@pytest.mark.parametrize("document", documents_with_blocks(), ids=lambda path: path.name)
def test_the_documents_commands_run(document: Path, docs_stack: LocalStackHandle, tmp_path: Path) -> None:
    # Given the document's bash blocks that can run here
    blocks = [block for block in blocks_of(document) if not block.skipped]
    if not blocks:
        pytest.skip("every block of this document is AWS-only or starts the stack")
    if document.name != "README.md":
        blocks = [*setup_blocks(), *blocks]
    session = Session(blocks, tmp_path)
    # When they run in one shell, in order, against the docs' stack
    result = subprocess.run(
        ["bash", "-c", session.script()],
        env={**docs_stack.environment, "PYTHONPATH": str(REPO_ROOT)},
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT_SECONDS,
        check=False,
    )
    started = re.findall(r"^@@docs-check block (\d+)$", result.stdout, re.MULTILINE)
    current = blocks[int(started[-1])] if started else blocks[0]
    shown = tmp_path / f"block-{blocks.index(current)}.out"
    where = (
        f"{current.document}:{current.line}\n--- stdout\n{result.stdout}"
        f"\n--- block output\n{shown.read_text() if shown.exists() else ''}\n--- stderr\n{result.stderr}"
    )
    # Then every block exits 0
    assert result.returncode == 0 and result.stdout.rstrip().endswith("@@docs-check done"), where
    # And each block's output has what the document says it shows, and is what it says it prints
    for index, block in enumerate(blocks):
        shown = (tmp_path / f"block-{index}.out").read_text(encoding="utf-8")
        for expected in block.expected:
            assert expected in shown, f"{block.document}:{block.line} does not show {expected!r}\n{shown}"
        if block.prints is not None:
            printed = [line.rstrip() for line in shown.rstrip("\n").split("\n")]
            documented = "\n".join(block.prints)
            assert prints_as_shown(block.prints, printed), (
                f"{block.document}:{block.line} prints\n{shown}\nwhere the document shows\n{documented}"
            )
