"""Network guard: tests reach loopback only.

pytest-socket (``--allow-hosts=127.0.0.1,::1,localhost`` in pyproject's addopts) guards
``socket.connect`` during each test. This plugin closes what it leaves open:

* if the allow-list was dropped (``-o addopts=``, another ``-p``), it is put back: loopback only;
* ``connect_ex`` and ``sendto`` (UDP) are not guarded by pytest-socket; they are here, for the whole
  session, so no packet leaves the machine from a test, a fixture or collection.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import pytest
from pytest_socket import _STASH_KEY, SocketConnectBlockedError

LOOPBACK_HOSTS = ["127.0.0.1", "::1", "localhost"]

_true_connect_ex = socket.socket.connect_ex
_true_sendto = socket.socket.sendto


def is_loopback(address: Any) -> bool:
    """True for AF_UNIX paths and loopback IP addresses (``localhost`` included)."""
    if not isinstance(address, tuple):
        return True  # AF_UNIX path or abstract socket: never leaves the machine
    host = address[0]
    if isinstance(host, bytes):
        host = host.decode()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False  # a host name: it would need resolving, refuse


def _guarded_connect_ex(sock: socket.socket, address: Any) -> int:
    if not is_loopback(address):
        raise SocketConnectBlockedError(LOOPBACK_HOSTS, str(address[0]))
    return _true_connect_ex(sock, address)


def _guarded_sendto(sock: socket.socket, data: Any, *args: Any) -> int:
    address = args[-1]
    if not is_loopback(address):
        raise SocketConnectBlockedError(LOOPBACK_HOSTS, str(address[0]))
    return _true_sendto(sock, data, *args)  # type: ignore[call-overload, no-any-return]


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    socket_config = config.stash.get(_STASH_KEY, None)
    if socket_config is not None and not socket_config.allow_hosts and not socket_config.socket_disabled:
        socket_config.allow_hosts = ",".join(LOOPBACK_HOSTS)
    socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign, assignment]
    socket.socket.sendto = _guarded_sendto  # type: ignore[method-assign, assignment]


def pytest_unconfigure(config: pytest.Config) -> None:
    socket.socket.connect_ex = _true_connect_ex  # type: ignore[method-assign]
    socket.socket.sendto = _true_sendto  # type: ignore[method-assign]
