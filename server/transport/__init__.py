"""The SSH side: the asyncssh server, the Textual driver on a channel, sessions, client environment, host key."""
