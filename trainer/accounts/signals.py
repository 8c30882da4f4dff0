"""What accounts tell the apps built on them, without knowing them."""

from django.dispatch import Signal

signed_up = Signal()
"""Sent with `user` and `time_zone` (a valid zone name, detected by the browser) when a new
account is created; practice makes the learner's profile from it."""
