"""Where saved games live: a tiny key-value interface, an in-memory version for tests, and the save slot logic.

The browser's ``localStorage`` adapter is in ``main.py`` (it imports ``js``); it raises ``StorageError`` the same way
``MemoryStorage`` does, so everything here is tested under CPython.

>>> store = MemoryStorage()
>>> slot = SaveSlot(store, clock=lambda: 1700000000.0)
>>> slot.write('{"a": 1}')
>>> slot.read()
'{"a": 1}'
>>> slot.quarantine(slot.read())
'splendor.save.corrupt.20231114T221320Z'
>>> slot.read() is None, sorted(store.keys())
(True, ['splendor.save.corrupt.20231114T221320Z'])
"""

import time

#: The key of the game in progress. The version in the key changes only if a future save format cannot be read
#: by this code at all; the format version inside the save is checked on every load.
SAVE_KEY = "splendor.save.v1"
CORRUPT_PREFIX = "splendor.save.corrupt."


def keep_aside(storage, key, text, prefix, clock):
    """Copy ``text`` (unreadable data found under ``key``) to a new key ``prefix + time stamp`` and then free
    ``key``; return the new key. The copy comes first, so a failure loses nothing."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(clock()))
    kept = prefix + stamp
    existing = set(storage.keys())
    k = 2
    while kept in existing:
        kept = f"{prefix}{stamp}.{k}"
        k += 1
    storage.set(kept, text)
    storage.remove(key)
    return kept


class StorageError(Exception):
    """Storage is full, unavailable (private mode, disabled) or refused the operation; the message says which."""


class Storage:
    """The interface: text values under text keys."""

    def get(self, key):
        """The text stored under ``key``, or None."""
        raise NotImplementedError

    def set(self, key, value):
        """Store ``value`` (text); raise StorageError when it cannot be stored."""
        raise NotImplementedError

    def remove(self, key):
        raise NotImplementedError

    def keys(self):
        raise NotImplementedError


class MemoryStorage(Storage):
    """Storage in a dict, for tests. ``quota`` (characters) makes it behave like a full disk; ``broken`` like a
    browser that refuses storage altogether."""

    def __init__(self, data=None, quota=None, broken=False):
        self.data = dict(data or {})
        self.quota = quota
        self.broken = broken

    def _check(self):
        if self.broken:
            raise StorageError("storage is not available in this browser")

    def get(self, key):
        self._check()
        return self.data.get(key)

    def set(self, key, value):
        self._check()
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                raise StorageError("storage is full")
        self.data[key] = value

    def remove(self, key):
        self._check()
        self.data.pop(key, None)

    def keys(self):
        self._check()
        return list(self.data)


class SaveSlot:
    """The saved game: read, write, and move a save that cannot be read aside (never delete it)."""

    def __init__(self, storage, key=SAVE_KEY, clock=time.time):
        self.storage = storage
        self.key = key
        self.clock = clock

    def read(self):
        return self.storage.get(self.key)

    def write(self, text):
        self.storage.set(self.key, text)

    def quarantine(self, text):
        """Move ``text`` (the unreadable save) to a key of its own and free the slot; return the new key."""
        return keep_aside(self.storage, self.key, text, CORRUPT_PREFIX, self.clock)
