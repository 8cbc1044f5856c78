"""What publishing a Celery task raises when the broker cannot be reached (kombu turns the Redis client's errors
into its own). Whoever publishes catches these, keeps what was committed and leaves a mark for a later sweep."""

from __future__ import annotations

from kombu.exceptions import OperationalError as KombuOperationalError

BROKER_ERRORS = (KombuOperationalError, ConnectionError, TimeoutError)
