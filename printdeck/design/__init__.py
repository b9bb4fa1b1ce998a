"""printdeck.design."""
