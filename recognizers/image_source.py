"""Which image URLs a cloud service cannot fetch itself, and fetching their bytes for it.

Azure fetches an image URL from the internet. A card served by a local referee lives on
127.0.0.1, a LAN address or `localhost`, which no cloud can reach, so for those (and for hosts
named in the config) the recognizer downloads the picture once and sends the bytes instead.
Hostnames are not resolved: a name that points into a private network goes in the config's
`[images] private_hosts`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

import httpx

from recognizers.failures import ApiFailure

# Azure Computer Vision v3.2 and Custom Vision both refuse images over 4 MB.
DEFAULT_MAX_BYTES = 4 * 1024 * 1024
DEFAULT_FETCH_TIMEOUT = 5.0


def is_private_url(url: str, private_hosts: Iterable[str] = ()) -> bool:
    """True when a cloud service could not fetch `url` itself: loopback, private ranges, localhost, listed hosts."""
    try:
        host = (urlsplit(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return False
    if not host:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    if host in {name.lower().rstrip(".") for name in private_hosts}:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local or address.is_unspecified


class ImageFetcher:
    """Downloads the pictures a cloud service cannot reach: size-capped, with a timeout."""

    def __init__(
        self,
        private_hosts: Iterable[str] = (),
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        timeout: float = DEFAULT_FETCH_TIMEOUT,
        client: httpx.Client | None = None,
    ) -> None:
        if max_bytes < 1 or timeout <= 0:
            raise ValueError("image fetching needs max_bytes >= 1 and timeout > 0")
        self.private_hosts = tuple(private_hosts)
        self.max_bytes = max_bytes
        self.timeout = timeout
        self._client = client

    def __repr__(self) -> str:
        return f"ImageFetcher(private_hosts={self.private_hosts!r}, max_bytes={self.max_bytes})"

    def needs_bytes(self, url: str) -> bool:
        return is_private_url(url, self.private_hosts)

    def fetch(self, url: str, timeout: float | None = None) -> bytes:
        """The image's bytes; ApiFailure (saying why) when it is missing, too large or too slow."""
        wait = self.timeout if timeout is None else max(0.05, min(self.timeout, timeout))
        client = self._client or httpx.Client()
        try:
            with client.stream("GET", url, timeout=wait, follow_redirects=True) as response:
                if response.status_code != 200:
                    raise ApiFailure(f"the card image at {url} could not be read (HTTP {response.status_code})")
                declared = response.headers.get("content-length")
                if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
                    raise ApiFailure(self._too_large(url))
                data = bytearray()
                for chunk in response.iter_bytes():
                    data.extend(chunk)
                    if len(data) > self.max_bytes:
                        raise ApiFailure(self._too_large(url))
        except httpx.TimeoutException:
            raise ApiFailure(f"the card image at {url} did not arrive within {wait:g} s", remember=False) from None
        except httpx.HTTPError as error:
            raise ApiFailure(
                f"the card image at {url} could not be fetched: {type(error).__name__}", remember=False
            ) from None
        finally:
            if self._client is None:
                client.close()
        if not data:
            raise ApiFailure(f"the card image at {url} is empty")
        return bytes(data)

    def _too_large(self, url: str) -> str:
        return f"the card image at {url} is larger than {self.max_bytes} bytes, the services' limit"
