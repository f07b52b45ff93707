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


@pytest.mark.django_db
def test_each_request_finds_its_signed_in_account_whole_and_loses_it_when_closed(client):
    """A signed-in request's account (read by accounts.backends' own query) is the account
    with every field as the ORM reads it; deactivated or deleted, the request is signed out."""
    alice = User.objects.create_user(
        username="alice", password="a-long-demo-password", email="alice@example.org",
        display_name="Alice of Aldermark", time_zone="Europe/Paris",
    )  # fmt: skip
    client.force_login(alice)
    page = client.get("/accounts/settings/")
    seen = page.wsgi_request.user
    stored = User.objects.get(pk=alice.pk)
    assert page.status_code == 200
    assert isinstance(seen, User)
    assert {f.attname: getattr(seen, f.attname) for f in User._meta.concrete_fields} == {
        f.attname: getattr(stored, f.attname) for f in User._meta.concrete_fields
    }
    assert seen.time_zone == "Europe/Paris"
    assert not seen._state.adding

    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert not client.get("/accounts/settings/").wsgi_request.user.is_authenticated
    User.objects.filter(pk=alice.pk).update(is_active=True)
    assert client.get("/accounts/settings/").wsgi_request.user == alice
    alice.delete()
    assert not client.get("/accounts/settings/").wsgi_request.user.is_authenticated
