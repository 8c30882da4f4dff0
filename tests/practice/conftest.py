import pytest
from django.utils import timezone

from trainer.practice import services


@pytest.fixture
def carded(loaded_bank, learner):
    """The learner with a card for every loaded problem."""
    services.introduce_all(learner, timezone.now())
    return learner


@pytest.fixture
def practising(client, carded):
    client.force_login(carded)
    return client
