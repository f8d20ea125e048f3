"""Training and measuring the bots, apart from what the page runs: the value models' fits (:mod:`.train`, a larger
table's model in :mod:`.train_tables`, their shared parts in :mod:`.common`) and the bot-vs-bot arena
(:mod:`.arena`). ``python -m splendor train`` and ``python -m splendor arena`` run them.

Nothing here is imported by :mod:`splendor.ai` or :mod:`splendor.web`, and the site's build leaves the whole package
out of the browser's zip. Fitting a value net needs numpy (requirements-train.txt); the rest is standard library.
"""
