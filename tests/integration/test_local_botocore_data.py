"""The stack's one botocore loader: every session of the process reads botocore's data through it, and
a client sees the same models and regions as through a loader of its own."""

from __future__ import annotations

import boto3
import botocore.loaders
import botocore.session
import pytest

from local.patches import botocore_data


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stack's loader installed for this test only (the test process keeps its own afterwards)."""
    monkeypatch.setattr(botocore.session, "create_loader", botocore.session.create_loader)
    botocore_data.install()
    botocore_data.install()  # idempotent


@pytest.mark.usefixtures("installed")
def test_every_session_reads_through_one_loader_that_looks_in_each_folder_once() -> None:
    first, second = boto3.session.Session(), boto3.session.Session()
    loader = first._session.get_component("data_loader")
    assert second._session.get_component("data_loader") is loader
    assert len(loader.search_paths) == len(set(loader.search_paths))


@pytest.mark.usefixtures("installed")
def test_a_client_sees_the_models_and_regions_a_loader_of_its_own_gives() -> None:
    own = botocore.loaders.create_loader()
    shared = boto3.session.Session()._session.get_component("data_loader")
    assert shared is not own
    for service in ("iam", "stepfunctions", "ec2"):
        assert shared.load_service_model(service, "service-2") == own.load_service_model(service, "service-2")
    assert "us-east-1" in boto3.session.Session().get_available_regions("ec2")  # moto EC2's list
    client = boto3.session.Session().client("iam", region_name="us-east-1", endpoint_url="http://127.0.0.1:1")
    assert client.meta.service_model.operation_model("AttachRolePolicy").name == "AttachRolePolicy"
