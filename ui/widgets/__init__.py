"""The widgets of the game screen, one per module, styled in `ui/styles/*.tcss`."""
