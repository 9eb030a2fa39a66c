"""What a client reads from the transport itself, before or instead of the game's screen."""

NO_PTY_MESSAGE = "This server only offers an interactive game: connect with a terminal (ssh -t)."
EXEC_MESSAGE = "This server does not run commands: connect without one (ssh -p PORT HOST)."
SUBSYSTEM_MESSAGE = "This server does not offer the {name!r} subsystem (no file transfer)."
STOPPING_MESSAGE = "The server is shutting down. Please reconnect in a moment."
WAITING_SCREEN = "\x1b[2J\x1b[HStarting your session, one moment...\r\n"
CRASH_MESSAGE = "Sorry, your session hit an internal error. Please reconnect."
