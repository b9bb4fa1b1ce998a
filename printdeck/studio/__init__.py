"""printdeck studio: make a deck in the browser, everything on this computer.

``printdeck studio [FOLDER]`` (or ``python -m printdeck.studio [FOLDER]``) opens a page on
127.0.0.1 to drop pictures and type words, set the deck up, see the sheets as they will
print and build the PDF. The page edits a normal theme folder (``theme.yaml`` and the
pictures copied beside it), saved after every change, so ``printdeck build FOLDER``
makes the same PDF. The studio uses only printdeck's public library (:mod:`printdeck`).
"""

from printdeck.studio.launch import serve
from printdeck.studio.routes import create_app

__all__ = ["create_app", "serve"]
