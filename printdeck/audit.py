"""printdeck's own auditing events (PEP 578, ``sys.audit``): what a build depends on that
Python's own events do not show, for a build's record (:mod:`printdeck.rerun`).

Python raises ``open`` for every file opened, ``os.listdir``/``os.scandir`` for every folder
listed, ``subprocess.Popen`` for every program run. A build also depends on files it only
looks at (a digest kept by the file's size and times, a path tried before a bundled
theme), on what another program answered (``fc-match`` choosing a font), and it lists its
output folders only to remove a killed build's temporary files; these events say so.
"""

from __future__ import annotations

INPUT_EVENT = "printdeck.input"
"""A file (or a folder) whose bytes (or entries) what printdeck makes depends on though it
may not read them; argument: its path (a missing one counts: one made later would be used)."""
PROGRAM_EVENT = "printdeck.program_answer"
"""Another program's answer printdeck went by; arguments: the command line (a tuple), what
it printed. A build's record asks it again before a replay."""
CLEANUP_EVENT = "printdeck.cleanup_listing"
"""The next listing of this folder (argument: its path) only looks for a killed build's
temporary files: what the folder holds does not change what is made."""
