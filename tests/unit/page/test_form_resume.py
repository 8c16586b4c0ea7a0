"""Any form at all, read back for any kind's page, is a 400 or a resume value of JSON (pure)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from tests.unit.page.filled_pages import ACCEPT_ONLY, APPROVAL, CLARIFICATION, CUSTOM, LOW_CONFIDENCE, NOW
from waitgate.errors import ValidationFailedError
from waitgate.page.form_resume import page_form_of, resume_value_from_form
from waitgate.payloads import json_rules

PAYLOADS = [APPROVAL, ACCEPT_ONLY, CLARIFICATION, CUSTOM, LOW_CONFIDENCE]
FIELD_VALUES = st.sampled_from(
    [
        "accept",
        "refine",
        "edit-accept",
        "ask",
        "submit",
        "confirm",
        "otherwise",
        "section",
        "items",
        "true",
        "3",
        "[1]",
        "{",
        "NaN",
    ]
) | st.text(max_size=40)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data(), payload=st.sampled_from(PAYLOADS))
def test_any_form_is_a_resume_value_of_json_or_a_400(data: st.DataObject, payload: dict[str, Any]) -> None:
    # Given any fields at all, of this page's and others
    names = st.sampled_from(sorted(page_form_of(payload).names)) | st.text(max_size=8)
    form = data.draw(st.dictionaries(names, FIELD_VALUES, max_size=8))
    # When they are read back, Then a 400 or a value the JSON rules accept
    try:
        resume = resume_value_from_form(payload, form, NOW)
    except ValidationFailedError:
        return
    json_rules.check_value(resume)
