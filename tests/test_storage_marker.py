"""The rule that chooses the PostgreSQL run's tests (tests/conftest.py, docs/testing.md): a test
on pytest-django's database is marked ``storage``, by any road to it; a test without one is not."""

from __future__ import annotations

import pytest

from clubrating.club.store.models import Club


def is_storage(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("storage") is not None


def test_a_test_on_the_database_is_a_storage_test(db: None, request: pytest.FixtureRequest) -> None:
    assert is_storage(request) and not Club.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_test_marked_for_the_database_is_a_storage_test(request: pytest.FixtureRequest) -> None:
    assert is_storage(request)


@pytest.fixture
def through_a_fixture(transactional_db: None) -> None:
    """As the club fixtures reach the database."""


def test_a_test_reaching_the_database_through_a_fixture_is_a_storage_test(
    through_a_fixture: None, request: pytest.FixtureRequest
) -> None:
    assert is_storage(request)


def test_a_test_without_a_database_is_not(request: pytest.FixtureRequest) -> None:
    assert not is_storage(request)
