"""printdeck: YAML theme in, print-ready PDF of a spot-the-match deck out."""

from printdeck.errors import PrintdeckError

__all__ = ["PrintdeckError", "__version__"]
__version__ = "0.1.0"
