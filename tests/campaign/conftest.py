import pytest

from config.celery import app as celery_app
from tests.campaign.helpers import make_cast


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def eager_celery():
    """Tasks queued by the services run at once, in this process."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False
