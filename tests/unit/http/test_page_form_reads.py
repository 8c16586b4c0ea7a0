"""The human page's form, posted through a link, on in-memory ports: the resolve reads the interrupt
once, and the page a browser gets is drawn from what that read found or the resolve committed — a
decision, a vote that leaves the quorum open, a question, a refused answer: one store read each."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from tests.unit.service.world import APPROVAL, RUN, World, with_data
from waitgate.http.form_body import FORM_MEDIA_TYPE
from waitgate.http.page_form import form_answer_page
from waitgate.service.mint_token import MintRequest, mint_interrupt_token

QUORUM = with_data(APPROVAL, requiredApprovals=2, approversList=["bob", "carol"])
ASKING = with_data(APPROVAL, actions=["accept", "reject", "ask"], approversList=["bob"])


def link(world: World, sub: str) -> str:
    return mint_interrupt_token(RUN, "Gate", MintRequest("resolve", sub, None), world.minting()).token


def posted(fields: dict[str, str]) -> dict[str, Any]:
    headers = {"content-type": FORM_MEDIA_TYPE, "accept": "text/html"}
    return {"headers": headers, "body": urlencode(fields), "isBase64Encoded": False}


@pytest.mark.parametrize(
    ("payload", "fields", "status", "says"),
    [
        (APPROVAL, {"action": "accept", "feedback": "Fine"}, 200, "Your answer was recorded"),
        (QUORUM, {"action": "accept", "feedback": ""}, 202, "Waiting for 1 more approval."),
        (ASKING, {"action": "ask", "question": "Which version?"}, 202, "Your question was sent."),
        (APPROVAL, {"action": "accept", "decidedBy": "mallory"}, 400, "field this page does not send"),
        (APPROVAL, {"action": "accept", "feedback": "x" * 5000}, 413, "feedback"),
    ],
    ids=["decision", "vote", "question", "refused field", "comment too long"],
)
def test_a_posted_form_reads_the_interrupt_once(
    payload: dict[str, Any], fields: dict[str, str], status: int, says: str
) -> None:
    # Given bob's link to a waiting approval
    world = World()
    world.request(payload)
    token = link(world, "bob")
    reads = world.store.reads
    # When his browser posts the page's form
    page = form_answer_page(token, posted(fields), world.keyring, world.resolving())
    # Then the page says what came of it, from the one read the resolve made
    assert page.status_code == status, page.body
    assert says in str(page.body).replace("&#x27;", "'")
    assert world.store.reads - reads == 1


def test_a_form_refused_for_its_fields_is_the_form_again_beside_the_field() -> None:
    world = World()
    world.request(APPROVAL)
    page = form_answer_page(
        link(world, "bob"), posted({"action": "refine"}), world.keyring, world.resolving()
    )
    assert page.status_code == 400
    assert "not one of this page" in str(page.body).replace("&#x27;", "'")
    assert 'name="action" value="accept"' in str(page.body)  # the form again
    assert world.interrupt().status == "pending"


def test_an_outsiders_link_is_403_before_the_fields_are_read() -> None:
    # Given a link minted for mallory, who is not among the approvers
    world = World()
    world.request(with_data(APPROVAL, approversList=["bob"]))
    # When it posts a form with a field no page sends, Then 403: the fields of a form she may not
    # answer are not hers to learn (as on the run surface's form, and for a JSON body)
    from waitgate.errors import ForbiddenError

    with pytest.raises(ForbiddenError):
        form_answer_page(
            link(world, "mallory"),
            posted({"action": "accept", "evil": "1"}),
            world.keyring,
            world.resolving(),
        )
    assert world.interrupt().status == "pending"
