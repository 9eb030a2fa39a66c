"""Card data as tables: characters, districts, line-ups. No rules here."""
