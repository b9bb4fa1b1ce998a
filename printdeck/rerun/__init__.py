"""Replaying a repeated command-line build whose inputs have not changed (its outputs
written again from its record, without loading the pipeline), and recording the builds
that can be: :mod:`~printdeck.rerun.replay` and :mod:`~printdeck.rerun.recording`."""

from printdeck.rerun.recording import Recording, paused, start
from printdeck.rerun.replay import KIND, OFF_SWITCHES, RACY_S, eligible, replay, say

__all__ = ["KIND", "OFF_SWITCHES", "RACY_S", "Recording", "eligible", "paused", "replay", "say", "start"]
