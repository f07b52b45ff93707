import pytest

from tests.campaign.helpers import make_cast


@pytest.fixture
def cast():
    return make_cast()
