"""The browser edge of the game: the page's state machine (``controller``), its HTML (``view``), plain words
(``words``), saving (``storage``), and the PyScript glue (``main`` on the page, ``worker`` for the bots).

Only ``main`` and ``worker`` import the browser (``js``/``pyscript``); the rest runs and is tested under CPython.
"""
