"""The cyclic garbage collector paused while the command line loads its modules.

Loading the command line's modules and their libraries (numpy, pydantic's theme models,
click...) makes some 70 000 objects the collector tracks and next to no garbage, yet
would start about a hundred collections that walk them: 30-60 ms of every command's
start-up (bench/RESULTS.md, issue 29). :mod:`printdeck.cli` imports this module before
its commands, which pauses the collector, and calls :func:`resume` once they are loaded:
the collector runs again as before, and what was loaded is moved out of its reach
(``gc.freeze``: modules, classes and functions live as long as the process), so later
full collections do not walk it all again.
"""

from __future__ import annotations

import gc

_WAS_ENABLED = gc.isenabled()
gc.disable()


def resume() -> None:
    """Run the collector again (if it ran before the pause) and freeze what is loaded."""
    if _WAS_ENABLED:
        gc.enable()
    gc.freeze()
