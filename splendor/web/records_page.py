"""Browser steps of the game file (PyScript main thread only): download a text as a file, read a picked file.
The checks and words are in records_io.py (CPython-tested); this module only touches the browser."""

import js
from pyodide.ffi import create_once_callable, jsnull

from .records.records_io import MAX_FILE_BYTES


def download(name, text, mime="application/json"):
    """Offer ``text`` as a file called ``name`` (a temporary link to a Blob, clicked, then released)."""
    blob = js.Blob.new([text], js.Object.fromEntries([["type", mime]]))
    url = js.URL.createObjectURL(blob)
    a = js.document.createElement("a")
    a.href = url
    a.download = name
    a.style.display = "none"
    js.document.body.appendChild(a)
    a.click()
    a.remove()
    js.setTimeout(create_once_callable(lambda: js.URL.revokeObjectURL(url)), 1000)


async def picked_file(input_el):
    """(file name, text) of the file picked in ``input_el``, or None. A file too large to be a game file is not
    read at all: its text is then '' and the check refuses it in words."""
    files = input_el.files
    if files is None or files is jsnull or int(files.length) == 0:
        return None
    f = files.item(0)
    name = str(f.name)
    if int(f.size) > MAX_FILE_BYTES:
        return name, "x" * (MAX_FILE_BYTES + 1)
    try:
        text = str(await f.text())
    except Exception as exc:  # unreadable (removed meanwhile, a permission): told as a damaged file
        return name, f"\x00unreadable: {exc}"
    finally:
        input_el.value = ""  # the same file can be picked again
    return name, text
