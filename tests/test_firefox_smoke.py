"""tools/firefox_smoke.py's Marionette client, against a fake Firefox speaking the protocol (no browser needed):
length-prefixed JSON, a hello on connect, [0, id, command, params] out, [1, id, error, result] back."""

import json
import socket
import threading

import pytest

from tools.firefox_smoke import Marionette


def frame(message) -> bytes:
    data = json.dumps(message).encode()
    return str(len(data)).encode() + b":" + data


def fake_firefox(answers):
    """A one-connection server: says hello, then answers each command from ``answers`` (command -> (error, result)),
    sending every reply in two pieces to exercise the reader. Returns (port, the commands it received)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    received = []

    def run():
        conn, _ = server.accept()
        with conn:
            conn.sendall(frame({"applicationType": "gecko", "marionetteProtocol": 3}))
            buffer = b""
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                while b":" in buffer:
                    size, _, rest = buffer.partition(b":")
                    if len(rest) < int(size):
                        break
                    kind, msg_id, command, params = json.loads(rest[:int(size)])
                    buffer = rest[int(size):]
                    received.append((command, params))
                    error, result = answers[command]
                    reply = frame([1, msg_id, error, result])
                    conn.sendall(reply[:5])
                    conn.sendall(reply[5:])
        server.close()

    threading.Thread(target=run, daemon=True).start()
    return server.getsockname()[1], received


def test_commands_go_out_framed_and_results_come_back():
    port, received = fake_firefox({
        "WebDriver:NewSession": (None, {"sessionId": "s1"}),
        "WebDriver:ExecuteScript": (None, {"value": "1"}),
    })
    m = Marionette(port, timeout=5)
    assert m.hello["applicationType"] == "gecko"
    assert m.call("WebDriver:NewSession", {"capabilities": {}}) == {"sessionId": "s1"}
    assert m.script("return document.body.dataset.ready;") == "1"
    assert received[0] == ("WebDriver:NewSession", {"capabilities": {}})
    assert received[1][0] == "WebDriver:ExecuteScript"
    assert received[1][1]["script"] == "return document.body.dataset.ready;"


def test_an_error_from_firefox_is_raised_with_its_message():
    port, _ = fake_firefox({"WebDriver:Navigate": ({"error": "unknown error", "message": "net::ERR"}, None)})
    m = Marionette(port, timeout=5)
    with pytest.raises(RuntimeError, match="WebDriver:Navigate: unknown error: net::ERR"):
        m.call("WebDriver:Navigate", {"url": "http://127.0.0.1:1/"})
