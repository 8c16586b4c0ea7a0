"""The translated template kept between stack starts: read back while nothing it reads changed, made
again when anything did (the template, an ASL file it inlines, a parameter, the region, samtranslator)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from local.template import translation_cache
from local.template.sam_template import translate
from local.template.translation_cache import KEPT_ENTRIES, translate_cached

PARAMETERS = {"Stage": "local"}
ASL = {"StartAt": "Done", "States": {"Done": {"Type": "Succeed"}}}


def machine_template(definition_file: Path) -> dict[str, Any]:
    """A SAM template of one state machine whose definition is an ASL file, as ours are."""
    return {
        "Transform": "AWS::Serverless-2016-10-31",
        "Parameters": {"Stage": {"Type": "String"}},
        "Resources": {
            "Machine": {
                "Type": "AWS::Serverless::StateMachine",
                "Properties": {
                    "DefinitionUri": str(definition_file),
                    "Role": "arn:aws:iam::123456789012:role/machine",
                },
            }
        },
    }


@pytest.fixture
def definition_file(tmp_path: Path) -> Path:
    written = tmp_path / "machine.asl.json"
    written.write_text(json.dumps(ASL), encoding="utf-8")
    return written


@pytest.fixture
def translations(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Each translation samtranslator made (the cache's reads are not among them)."""
    made: list[dict[str, Any]] = []

    def counted(template: dict[str, Any], parameters: dict[str, Any]) -> dict[str, Any]:
        made.append(translate(template, parameters))
        return made[-1]

    monkeypatch.setattr(translation_cache, "translate", counted)
    return made


def test_a_second_start_reads_the_translation_it_kept(
    tmp_path: Path, definition_file: Path, translations: list[dict[str, Any]]
) -> None:
    # Given a template translated once through the cache
    template, cache = machine_template(definition_file), tmp_path / "cache"
    first = translate_cached(template, PARAMETERS, cache)
    # When it is translated again with nothing changed
    second = translate_cached(template, PARAMETERS, cache)
    # Then the kept translation is read, equal to what samtranslator makes, and not made again
    assert second == first == translate(template, PARAMETERS)
    assert len(translations) == 1
    assert len(list(cache.glob("*.json"))) == 1


CHANGES: dict[str, Callable[[dict[str, Any], Path, pytest.MonkeyPatch], dict[str, Any]]] = {
    "the template": lambda template, _, __: {**template, "Description": "changed"},
    "an ASL file it inlines": lambda template, asl, _: (
        asl.write_text(json.dumps({**ASL, "Comment": "changed"}), encoding="utf-8"),
        template,
    )[1],
    "the region": lambda template, _, patch: (patch.setenv("AWS_DEFAULT_REGION", "eu-west-1"), template)[1],
    "the samtranslator release": lambda template, _, patch: (
        patch.setattr(translation_cache, "version", lambda _: "0.0.1"),
        template,
    )[1],
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_to_what_the_translation_reads_translates_again(
    change: str,
    tmp_path: Path,
    definition_file: Path,
    translations: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a template translated once through the cache
    template, cache = machine_template(definition_file), tmp_path / "cache"
    translate_cached(template, PARAMETERS, cache)
    # When one thing the translation reads changes
    changed = CHANGES[change](template, definition_file, monkeypatch)
    again = translate_cached(changed, PARAMETERS, cache)
    # Then samtranslator translates it again, and its result is what it makes of the change
    assert len(translations) == 2
    assert again == translate(changed, PARAMETERS)


def test_other_parameters_translate_again(
    tmp_path: Path, definition_file: Path, translations: list[dict[str, Any]]
) -> None:
    template, cache = machine_template(definition_file), tmp_path / "cache"
    translate_cached(template, PARAMETERS, cache)
    translate_cached(template, {"Stage": "other"}, cache)
    assert len(translations) == 2


def test_an_unreadable_entry_is_translated_again_and_rewritten(
    tmp_path: Path, definition_file: Path, translations: list[dict[str, Any]]
) -> None:
    # Given a kept entry cut short (a disk filled up, say)
    template, cache = machine_template(definition_file), tmp_path / "cache"
    translate_cached(template, PARAMETERS, cache)
    (entry,) = cache.glob("*.json")
    entry.write_text('{"Resources": ', encoding="utf-8")
    # When the template is translated through the cache / Then it is made again, and kept whole
    assert translate_cached(template, PARAMETERS, cache) == translate(template, PARAMETERS)
    assert len(translations) == 2
    assert json.loads(entry.read_text(encoding="utf-8")) == translations[-1]


def test_a_cache_that_cannot_be_written_still_translates(tmp_path: Path, definition_file: Path) -> None:
    # Given a cache folder that is a file (nothing can be written under it)
    blocked = tmp_path / "cache"
    blocked.write_text("not a folder", encoding="utf-8")
    template = machine_template(definition_file)
    # Then the translation is made each time, as without a cache
    assert translate_cached(template, PARAMETERS, blocked) == translate(template, PARAMETERS)


def test_only_the_newest_entries_are_kept(tmp_path: Path, definition_file: Path) -> None:
    template, cache = machine_template(definition_file), tmp_path / "cache"
    for stage in range(KEPT_ENTRIES + 3):
        translate_cached(template, {"Stage": f"stage-{stage}"}, cache)
    assert len(list(cache.glob("*"))) == KEPT_ENTRIES


def test_the_translation_of_template_yaml_does_not_depend_on_the_start_s_urls() -> None:
    # Given template.yaml with the parameters a local stack starts with, on two sets of ports
    from local.standins.moto_server import LOCAL_ACCOUNT_ID, LOCAL_REGION
    from local.template.intrinsics import pseudo_parameters
    from local.template.sam_template import load_template
    from local.template.stack_resources import STACK_NAME

    def started_on(port: int) -> dict[str, str]:
        urls = {name: f"http://127.0.0.1:{port}/{name}" for name in translation_cache.PER_START}
        return {
            **urls,
            "DeploySamples": "true",
            **pseudo_parameters(STACK_NAME, LOCAL_REGION, LOCAL_ACCOUNT_ID),
        }

    # When SAM translates it for each / Then the two translations are the same: the cache may share them
    template = load_template()
    assert translate(template, started_on(3001)) == translate(template, started_on(3002))
    key = translation_cache.translation_key
    assert key(template, started_on(3001)) == key(template, started_on(3002))
