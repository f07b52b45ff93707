from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A person who plays in or runs campaigns.

    Custom from the first migration so that later fields (time zone,
    notification settings) are plain migrations, never a swap of the user model.
    """

    def __str__(self) -> str:
        return self.get_username()
