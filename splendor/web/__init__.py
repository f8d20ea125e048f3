"""The browser edge of the game. At the top, the page's wiring (``main`` on the page, ``worker`` and ``botcall`` for the
bots, ``wasm_net`` the expert's network in the worker, ``bytecode``, ``learn_page`` and ``records_page``) and the
app: its state machine (``controller``) and its HTML (``view``). ``table`` holds the table and its controls,
``learn`` How to play and the guided game, ``records`` saves, game files, deal links and the player's record.

Only the modules at the top import the browser (``js``/``pyscript``); the subpackages, the controller and the view run
and are tested under CPython.
"""
