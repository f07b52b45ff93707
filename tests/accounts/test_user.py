import pytest
from django.contrib.auth import get_user_model
from django.http import HttpRequest

from accounts.models import User


def test_the_user_model_is_the_projects_own():
    assert get_user_model() is User


@pytest.mark.django_db
def test_a_user_signs_in_with_username_and_password(client):
    User.objects.create_user(username="alice", password="a-long-demo-password")
    # django-axes counts sign-ins by address: authenticate() needs the request.
    assert client.login(request=HttpRequest(), username="alice", password="a-long-demo-password")
    assert not client.login(request=HttpRequest(), username="alice", password="wrong")
