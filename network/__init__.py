"""The server's face to a school's network, without Streamlit: who a request comes from behind the proxies the
deployment trusts (`addresses`), and which host names the server answers to (`hosts`)."""

from .addresses import TRUSTED_ENV, address_key, client_address, scope_address
from .hosts import HOSTS_ENV, allowed_hosts, host_allowed

__all__ = ["HOSTS_ENV", "TRUSTED_ENV", "address_key", "allowed_hosts", "client_address", "host_allowed",
           "scope_address"]  # fmt: skip
