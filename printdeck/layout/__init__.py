"""printdeck.layout."""
