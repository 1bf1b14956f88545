"""Recording games as they are played, and replaying them: from replay files or the records, with what-ifs."""
