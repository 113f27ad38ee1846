import pytest

from tests.accounts.steps import PRODUCTION_RULE


@pytest.fixture
def required(settings):
    """Production's rule of who signs in with two factors."""
    settings.OTP_REQUIRED_FOR_PERMISSIONS = PRODUCTION_RULE
