"""What the problem bank tells the apps built on it, without knowing them."""

from django.dispatch import Signal

attempt_rescored = Signal()
"""Sent with `attempt` after a regrade changed its score (the apps that keep a total, such as a
mock's score, bring it up to date)."""
