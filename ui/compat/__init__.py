"""Every use of a private Textual name lives here: each patch says what it changes, why, and the versions verified."""
