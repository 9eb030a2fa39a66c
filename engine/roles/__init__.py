"""One module per card, each registering its rules object (see engine.hooks).

Every module of this package is imported here, so adding a card is adding a file.
"""

import importlib
import pkgutil

for _m in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if not _m.startswith("_"):
        importlib.import_module(f"{__name__}.{_m}")
