"""Tests cannot reach the internet; asyncio and loopback still work."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest
from pytest_socket import SocketConnectBlockedError

from fakediscord import FakeDiscord
from tests.netguard import is_loopback

pytestmark = pytest.mark.filterwarnings("ignore:A test tried to use socket:UserWarning")

# TEST-NET-3 (RFC 5737): never routed, so even a broken guard could not leak a packet.
OUTSIDE = ("203.0.113.7", 443)


def test_tcp_connect_outside_is_blocked() -> None:
    with pytest.raises(SocketConnectBlockedError):
        socket.create_connection(OUTSIDE, timeout=1)


def test_connect_ex_outside_is_blocked() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(SocketConnectBlockedError):
        sock.connect_ex(OUTSIDE)


def test_udp_sendto_outside_is_blocked() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock, pytest.raises(SocketConnectBlockedError):
        sock.sendto(b"x", OUTSIDE)


async def test_aiohttp_outside_is_blocked() -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises((SocketConnectBlockedError, aiohttp.ClientError)):
            async with session.get(f"http://{OUTSIDE[0]}/", timeout=aiohttp.ClientTimeout(total=2)):
                pass


async def test_loopback_and_asyncio_work() -> None:
    async with (
        FakeDiscord() as fake,
        aiohttp.ClientSession() as session,
        session.get(fake.base_url + "/gateway") as resp,
    ):
        assert resp.status == 200
        assert (await resp.json())["url"] == fake.gateway_url
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.sendto(b"ok", ("127.0.0.1", port))  # loopback UDP is allowed
    _reader, writer = await asyncio.open_connection("localhost", port)
    writer.close()
    server.close()
    await server.wait_closed()


def test_is_loopback() -> None:
    assert is_loopback(("127.0.0.1", 1)) and is_loopback(("::1", 1, 0, 0)) and is_loopback(("localhost", 1))
    assert is_loopback("/tmp/socket")
    assert not is_loopback(("10.0.0.1", 1)) and not is_loopback(("example.com", 80))
