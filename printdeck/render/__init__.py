"""printdeck.render."""
