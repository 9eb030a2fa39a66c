"""Rules variants (engine.hooks.Variant), one module each, switched on by the rule set
(`RuleSet.variants`, from `GameConfig.variants`). Every module here is imported."""

import importlib
import pkgutil

for _m in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if not _m.startswith("_"):
        importlib.import_module(f"{__name__}.{_m}")
