"""Card recognizers: label a card picture with a catalog landmark, behind one interface."""
